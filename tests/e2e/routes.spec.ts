import { expect, type Page } from '@playwright/test';
import {
  drawnLateOf,
  expectAccessible,
  expectNoCspViolation,
  scrollIntoViewToStay,
} from './helpers';
import { test } from './shared-page';
import { allRoutes, mainRoutes, servicePages, specServiceRoutes } from '../support/site';

test('content covers every route of the spec, each once', () => {
  expect(servicePages).toHaveLength(32);
  expect(new Set(servicePages.map((p) => `/${p.slug}`))).toEqual(new Set(specServiceRoutes));
  // The checks kept by route below run where their route is loaded: none may name a route gone.
  for (const route of [...sharedPiecesOn, ...Object.keys(specFacts)])
    expect(allRoutes, route).toContain(route);
});

test('every route answers 200 with its own page', async ({ request }) => {
  const titles = new Set<string>();
  for (const route of allRoutes) {
    const response = await request.get(route);
    expect(response.status(), route).toBe(200);
    expect(response.headers()['content-type']).toContain('text/html');
    const html = await response.text();
    const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
    expect(title, route).toBeTruthy();
    titles.add(title!);
  }
  expect(titles.size).toBe(allRoutes.length);
});

test('an unknown path answers 404 with the designed not-found page; no axe violation, every image with alt text and dimensions', async ({
  sharedPage: page,
}) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('We could not find that page');
  await expect(page.getByRole('main').getByRole('link', { name: 'Home page' })).toHaveAttribute(
    'href',
    '/',
  );
  await expect(page.getByRole('banner').getByRole('link', { name: 'Portfolio' })).toBeVisible();
  await expectAccessible(page);
});

/**
 * The header, banner and footer every page shares, checked on a main page, a service page and
 * /about, each as its test loads it for its own content (one load for both).
 */
const sharedPiecesOn = new Set(['/', '/iphone', '/about']);
async function expectSharedPieces(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [name, href] of [
    ['Home', '/'],
    ['About', '/about'],
    ['Services', '/service'],
    ['Portfolio', '/portfolio'],
    ['Contact', '/contact'],
  ]) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  await expect(
    page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }),
  ).toBeVisible();
  await expect(page.locator('.get-in-touch a[href="/contact"]')).toHaveText('Get in Touch');
  const footer = page.getByRole('contentinfo');
  await expect(footer.locator('address')).toContainText('Ilford');
  await expect(footer.locator('a[href^="mailto:"]')).toHaveCount(1);
  await expect(footer.locator('.site-footer__social a')).toHaveCount(3);
  await expect(footer).toContainText('© 2022');
  await expect(footer.getByRole('link', { name: 'Back to top' })).toBeVisible();
  expect(await page.getAttribute('html', 'lang')).toBe('en-GB');
}

/**
 * What the spec fixes on two service pages, beyond what their content files say (checked for every
 * page below): /iphone's hero leads to /contact, /android's to the enquiry; the shared testimonials
 * are the four companies.
 */
const specFacts: Record<string, (page: Page) => Promise<void>> = {
  '/iphone': async (page) => {
    await expect(
      page.locator('.page-hero').getByRole('link', { name: 'Get in Touch' }),
    ).toHaveAttribute('href', '/contact');
  },
  '/android': async (page) => {
    await expect(page.locator('.intro__text > p')).toHaveCount(2);
    await expect(
      page.locator('.page-hero').getByRole('link', { name: 'Inquire Now' }),
    ).toBeVisible();
    const slides = page.getByRole('region', { name: 'Testimonials' }).getByRole('group');
    await expect(slides).toHaveCount(4);
    for (const company of ['Anyvision', 'Enterprise E-Commerce', 'Glitty', 'Rogi']) {
      await expect(slides.filter({ hasText: company })).toHaveCount(1);
    }
    await expect(slides.nth(1)).toHaveAttribute('aria-label', '2 of 4');
  },
};

test.describe('service pages', () => {
  for (const service of servicePages) {
    test(`/${service.slug}: its content; no axe violation, every image with alt text and dimensions; no CSP violation`, async ({
      sharedPage: page,
    }) => {
      await page.goto(`/${service.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        `${service.title} Development`,
      );
      const hero = page.locator('.page-hero');
      const button = service.hero.button ?? 'inquire';
      if (button === 'inquire') {
        await expect(hero.getByRole('link', { name: 'Inquire Now' })).toHaveAttribute(
          'href',
          /^https:\/\//,
        );
      } else if (button === 'none') {
        await expect(hero.getByRole('link')).toHaveCount(0);
      } else {
        await expect(hero.getByRole('link', { name: button.text })).toHaveAttribute(
          'href',
          button.href,
        );
      }
      await expect(hero.locator('img')).toHaveAttribute('alt', /.{3,}/);
      await expect(page.getByRole('heading', { name: 'We Help You Win' })).toBeVisible();
      await expect(page.locator('.intro__text > p')).toHaveCount(service.intro.description.length);
      await expect(page.getByRole('heading', { name: 'We Provide' })).toBeVisible();
      await expect(page.getByText('Next-Gen', { exact: true })).toBeVisible();
      await expect(page.getByText('SERVICES', { exact: true })).toBeVisible();
      await expect(page.locator('[data-testid="service-grid"] > li')).toHaveCount(8);
      await expect(
        page.locator('[data-testid="service-grid"] svg[width="100"][height="100"][role="img"]'),
      ).toHaveCount(8);
      await expect(
        page.getByRole('heading', { name: 'Numbers That Speak Our Power' }),
      ).toBeVisible();
      await expect(page.locator('.stats__watermark')).toHaveText('STATS');
      await expect(page.locator('[data-testid="stats"] > li')).toHaveCount(4);
      const carousel = page.getByRole('region', { name: 'Testimonials' });
      await expect(carousel).toHaveCount(service.testimonials === false ? 0 : 1);
      await specFacts[`/${service.slug}`]?.(page);
      if (sharedPiecesOn.has(`/${service.slug}`)) await expectSharedPieces(page);
      await expectAccessible(page);
      await expectNoCspViolation(page);
    });
  }
});

/** How many columns a grid shows: the distinct left edges of its children. */
async function columns(page: import('@playwright/test').Page, selector: string) {
  return page.locator(selector).evaluate((list) => {
    const lefts = new Set(
      [...list.children].map((c) => Math.round(c.getBoundingClientRect().left)),
    );
    return lefts.size;
  });
}

// One page at each width in turn (a context for each width cost more than the check), each width a
// step of its own and a fresh load of the page at that width.
test('grid columns: 4 tiles and 4 stats from 992 px, 3 and 2 from 768, 2 and 2 from 576, 1 and 1 below', async ({
  page,
}) => {
  test.setTimeout(60_000);
  for (const [width, tiles, stats] of [
    [1280, 4, 4],
    [992, 4, 4],
    [800, 3, 2],
    [768, 3, 2],
    [600, 2, 2],
    [576, 2, 2],
    [575, 1, 1],
    [375, 1, 1],
  ] as const) {
    await test.step(`at ${width} px: ${tiles} tile columns and ${stats} stat columns`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/laravel');
      expect(await columns(page, '[data-testid="service-grid"]'), `${width} px`).toBe(tiles);
      expect(await columns(page, '[data-testid="stats"]'), `${width} px`).toBe(stats);
    });
  }
});

// On a phone the home page's four service columns, and a service page's eight tiles, stack some 2,000
// to 2,600 px tall: their section is near the screen as the page opens, and was laid out whole, so
// each skips its own layout until it comes near (ServiceOverview.astro, ServiceGrid.astro). Drawn, it
// keeps about the height kept for it, so that the page does not jump under a visitor's thumb.
for (const [route, items, what] of [
  ['/', '.overview__column', "the home page's service columns"],
  ['/iphone', '.service-tile', "a service page's tiles"],
] as const) {
  test(`on a phone, ${what} are laid out only as they come near, at about the height kept for them`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 412, height: 823 });
    await page.goto(route);
    const all = page.locator(items);
    const state = () =>
      all.evaluateAll((elements) =>
        elements.map((element) => ({
          drawn: element.querySelector('h3')!.checkVisibility({ contentVisibilityAuto: true }),
          height: element.getBoundingClientRect().height,
        })),
      );
    const atLoad = await state();
    expect(atLoad.length).toBeGreaterThanOrEqual(4);
    expect(atLoad.at(-1)!.drawn, 'the last, at load').toBe(false);
    for (const [index, element] of (await all.all()).entries()) {
      await scrollIntoViewToStay(element);
      const { drawn, height } = (await state())[index]!;
      expect(drawn, `${index + 1}, near`).toBe(true);
      expect(height / atLoad[index]!.height, `${index + 1}, height`).toBeGreaterThan(0.85);
      expect(height / atLoad[index]!.height, `${index + 1}, height`).toBeLessThan(1.15);
    }
  });
}

/**
 * What each main page shows. Each is then checked whole as every page is, on the same load: one h1,
 * no axe violation, every image with alt text and dimensions, no CSP violation.
 */
const mainPageContent: Record<string, (page: Page) => Promise<void>> = {
  '/': async (page) => {
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Real-time');
    await expect(
      page.locator('.page-hero').getByRole('link', { name: 'Get in Touch' }),
    ).toHaveAttribute('href', '/contact');
    for (const column of [
      'Web Development',
      'E-commerce Development',
      'Mobile App Development',
      'Digital Marketing',
    ]) {
      await expect(page.getByRole('heading', { name: column, exact: true })).toBeVisible();
    }
    const overview = page.locator('.overview');
    for (const href of [
      '/reactjs',
      '/responsivedesign',
      '/php',
      '/mobileappdesign',
      '/reactnative',
      '/android',
      '/searchengineoptimization',
      '/socialmediamarketing',
      '/socialmediaoptimizing',
      '/payperclick',
    ]) {
      await expect(overview.locator(`a[href="${href}"]`)).toHaveCount(1);
    }
    await expect(page.getByRole('region', { name: 'Portfolio' }).getByRole('group')).toHaveCount(4);
    await expect(
      page.getByRole('region', { name: 'Customer feedback' }).getByRole('group'),
    ).toHaveCount(4);
    const plans = page.locator('.plan');
    await expect(plans).toHaveCount(2);
    await expect(plans.filter({ hasText: 'Dimond Plan' })).toContainText('$59.99');
    await expect(plans.filter({ hasText: 'Dimond Plan' })).toContainText('Up to 10 users');
    await expect(plans.filter({ hasText: 'Gold Plan' })).toContainText('$29.99');
    await expect(plans.filter({ hasText: 'Gold Plan' })).toContainText('3 domains');
    await expect(plans.filter({ hasText: 'Gold Plan' })).toContainText('Most popular');
    await expect(plans.getByRole('link', { name: 'Sign up' })).toHaveCount(2);
  },
  '/about': async (page) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meet the company');
    for (const heading of [
      'Grow With Us',
      'We Solve Problems. Fuel Innovation. Make It Happen.',
      'How We Make A Difference',
      'What We Do',
      'How We Do',
      'Why Choose Us',
      'Mission',
      'Vision',
      'Our Approach',
      'Mission-Driven Team',
    ]) {
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Meet our team' })).toBeVisible();
    for (const tab of ['Mobile', 'Backend', 'Frontend']) {
      await expect(page.getByText(tab, { exact: true }).first()).toBeVisible();
    }
    const badges = page.locator('.stack-tabs .tech-badge__tile');
    expect(await badges.count()).toBeGreaterThan(15);
    const box = await badges.first().boundingBox();
    expect([box?.width, box?.height]).toEqual([56, 69]);
  },
  '/service': async (page) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Technologies We are working with',
    );
    for (const group of [
      'Mobile, native',
      'Mobile, cross-platform',
      'Web',
      'Javascript',
      'Cloud',
      'UI/UX',
      'Digital Marketing',
    ]) {
      await expect(page.getByRole('heading', { name: group, exact: true })).toBeVisible();
    }
    await expect(page.locator('.link-group a')).toHaveCount(32);
  },
  '/portfolio': async (page) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Have A Look At Our Beautiful Work',
    );
    for (const filter of ['All projects', 'Websites', 'Apps', 'Social-media']) {
      await expect(page.getByText(filter, { exact: true })).toBeVisible();
    }
    await expect(page.locator('.gallery__item')).toHaveCount(10);
    // The first project's drawing comes as a raster (decoded off the page's main thread, where an
    // SVG in an <img> is a document laid out and drawn on it), its link to the SVG itself.
    const first = page.locator('.gallery__item').first();
    await expect(first.locator('a')).toHaveAttribute('href', /\.svg$/);
    const picture = await first.locator('img').evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return { src: img.currentSrc, width: img.naturalWidth };
    });
    expect(picture.src).toMatch(/\.avif$/);
    expect(picture.width).toBeGreaterThanOrEqual(400);
  },
  '/contact': async (page) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      "We are ready to Lead You into the future of Technology, Let's start the discussion",
    );
    const form = page.locator('form.enquiry-form');
    await expect(form).toHaveAttribute('action', '/php/email.php');
    for (const name of ['first_name', 'last_name', 'email', 'contact', 'project']) {
      await expect(form.locator(`[name="${name}"]`)).toHaveCount(1);
    }
    await expect(form.getByRole('checkbox')).toHaveCount(6);
    for (const label of [
      'Mobile Development',
      'Web Development',
      'Hire Development',
      'Maintenance & Support',
      'Technical Consultancy',
      'Other Services',
    ]) {
      await expect(form.getByRole('checkbox', { name: label })).toHaveCount(1);
    }
  },
  '/thankyou': async (page) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank You!');
    await expect(page.getByText('Our team is in touch with you soon!')).toBeVisible();
  },
};

test.describe('main pages', () => {
  for (const route of mainRoutes) {
    test(`${route}: its content; exactly one h1, its first screen laid out once, no axe violation, every image with alt text and dimensions, no CSP violation`, async ({
      sharedPage: page,
    }) => {
      await page.goto(route);
      await mainPageContent[route](page);
      if (sharedPiecesOn.has(route)) await expectSharedPieces(page);
      await expect(page.locator('h1')).toHaveCount(1);
      expect(await drawnLateOf(page), 'sections of the first screen skipped, then drawn').toEqual(
        [],
      );
      await expectAccessible(page);
      await expectNoCspViolation(page);
    });
  }
});
