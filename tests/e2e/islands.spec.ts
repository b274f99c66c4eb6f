import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './shared-page';
import { PROJECT_TAGS } from '../../src/domain/hand-over';
import { islandHydrated } from './helpers';

/**
 * Whether the page shows the focus ring (3px of the accent, 3px outside the element) in the middle
 * of each side of `element`: the screen's pixels, read from a screenshot in a blank tab.
 */
async function ringSides(page: Page, element: Locator) {
  const box = (await element.boundingBox())!;
  const margin = 8;
  const clip = {
    x: Math.round(box.x) - margin,
    y: Math.round(box.y) - margin,
    width: Math.round(box.width) + 2 * margin,
    height: Math.round(box.height) + 2 * margin,
  };
  // The focus ring's colour, as the page has it (--color-accent, tokens.css), as [r, g, b].
  const accent = await element.evaluate((link) =>
    getComputedStyle(link, null)
      .getPropertyValue('outline-color')
      .match(/\d+/g)!
      .slice(0, 3)
      .map(Number),
  );
  const png = await page.screenshot({ clip });
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async ({ data, width, height, accent }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const drawing = canvas.getContext('2d')!;
        drawing.drawImage(image, 0, 0);
        // 4 to 5 px outside the element: the ring's middle.
        const isRing = (x: number, y: number) => {
          const [r, g, b] = drawing.getImageData(x, y, 1, 1).data;
          return [r, g, b].every((value, i) => Math.abs(value! - accent[i]!) < 40);
        };
        const [midX, midY] = [Math.floor(width / 2), Math.floor(height / 2)];
        return {
          top: isRing(midX, 3),
          right: isRing(width - 4, midY),
          bottom: isRing(midX, height - 4),
          left: isRing(3, midY),
        };
      },
      { data: png.toString('base64'), ...clip, accent },
    );
  } finally {
    await blank.close();
  }
}

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('toggles, tells its state, closes on Escape and on choosing a link', async ({ page }) => {
    await page.goto('/iphone');
    const toggle = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();

    // The first click, made before the island has hydrated, is not lost.
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'Portfolio' })).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    await expect(nav).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    // Keep the page from navigating, to see the menu close when a link is chosen.
    await page.evaluate(() => document.addEventListener('click', (e) => e.preventDefault(), true));
    await nav.getByRole('link', { name: 'About' }).click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    // Open, it covers part of the page: a tap below it, or focus leaving it, closes it.
    await toggle.click();
    await expect(nav).toBeVisible();
    await page.mouse.click(187, 760);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await nav.getByRole('link', { name: 'Contact' }).focus();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(page.locator('header .site-header__cta')).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
  });

  // The open menu lies over the page: a tap redraws the panel alone, and the page under it, at 375
  // px (the header scrolls away) as at 800 (it stays), keeps its place; the panel covers what is under it.
  for (const width of [375, 800]) {
    test(`opening and closing it moves nothing else on the page, at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/iphone');
      const main = page.locator('main');
      const top = () => main.evaluate((element) => element.getBoundingClientRect().top);
      const before = await top();
      const toggle = page.getByRole('button', { name: 'Menu' });
      await toggle.click();
      const contact = page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Contact' });
      await expect(contact).toBeVisible();
      expect(await top()).toBe(before);
      // What is drawn under the panel's last link is the link, not the page below.
      const box = (await contact.boundingBox())!;
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x, y)?.closest('a')?.textContent?.trim(),
        [box.x + box.width / 2, box.y + box.height / 2],
      );
      expect(hit).toBe('Contact');
      await toggle.click();
      await expect(contact).toBeHidden();
      expect(await top()).toBe(before);
    });
  }

  test('on a wide screen there is no toggle and the menu loads no code', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const scripts: string[] = [];
    page.on('request', (request) => {
      // Field data loads once the page is idle, whatever the reader does (docs/field-data.md).
      if (request.resourceType() === 'script' && !request.url().endsWith('/field-vitals.js'))
        scripts.push(request.url());
    });
    await page.goto('/iphone');
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'About' }).hover();
    await nav.getByRole('link', { name: 'Services' }).focus();
    await page.waitForTimeout(300);
    expect(scripts).toEqual([]);
  });
});

test.describe('Schedule a Call modal', () => {
  test('opens from the header, shows the spec messages, and closes every way', async ({ page }) => {
    await page.goto('/laravel');
    const opener = page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' });
    // A mouse's hover darkens it (a touch screen's tap does not: first-tap.spec.ts).
    const colour = () => opener.evaluate((a) => getComputedStyle(a).backgroundColor);
    const resting = await colour();
    await opener.hover();
    await expect.poll(colour).not.toBe(resting);
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    await expect(dialog).toBeVisible();
    expect(page.url()).toMatch(/\/laravel$/);

    // Focus is inside the dialog, the page behind does not scroll, and Tab stays inside.
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
      'hidden',
    );
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }

    await islandHydrated(dialog.getByRole('button', { name: 'Request a call' }));
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(dialog.locator('.field__error')).toHaveText([
      'Name is required.',
      'Valid email is required.',
      'Please,leave us a message.',
    ]);
    // The error summary takes focus; each of its links leads to its field.
    const summary = dialog.locator('.error-summary');
    await expect(summary).toBeFocused();
    await expect(summary.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
    await summary.getByRole('link', { name: 'Name is required.' }).click();
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByLabel('Name').fill('Ada Lovelace');
    await dialog.getByLabel('Email').fill('ada@example');
    await dialog.getByLabel('Message').fill('A call about an app, please.');
    await islandHydrated(dialog.getByRole('button', { name: 'Request a call' }));
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(dialog.locator('.field__error')).toHaveText(['Valid email is required.']);

    // Escape closes and focus returns to the button that opened it.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe(
      'hidden',
    );

    // The close button.
    await opener.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // A click on the backdrop.
    await opener.click();
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, 400);
    await expect(dialog).toBeHidden();
  });

  test('opens from the keyboard', async ({ page }) => {
    await page.goto('/');
    const opener = page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' });
    await opener.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Schedule a Call' })).toBeVisible();
  });
});

test.describe('portfolio', () => {
  const visible = (page: Page) => page.locator('.gallery__item:visible');

  test('filters, keeps the filter in the address, follows the back button, and a shared filtered address opens filtered', async ({
    page,
  }) => {
    await page.goto('/portfolio');
    await expect(page.getByRole('radio', { name: 'All projects' })).toBeChecked();
    await expect(visible(page)).toHaveCount(10);
    for (const [name, value] of [
      ['Websites', 'websites'],
      ['Apps', 'apps'],
      ['Social-media', 'social-media'],
    ] as const) {
      await page.getByRole('radio', { name }).check();
      await expect(visible(page)).toHaveCount(4);
      await expect(page).toHaveURL(new RegExp(`\\?filter=${value}$`));
      for (const item of await visible(page).all()) {
        expect(await item.getAttribute(PROJECT_TAGS)).toContain(value);
      }
    }
    await page.goBack();
    await expect(page).toHaveURL(/\?filter=apps$/);
    await expect(page.getByRole('radio', { name: 'Apps' })).toBeChecked();
    await page.getByRole('radio', { name: 'All projects' }).check();
    await expect(page).toHaveURL(/\/portfolio$/);
    await expect(visible(page)).toHaveCount(10);

    // A shared filtered address opens filtered (in the same page: a context of its own cost more).
    await page.goto('/portfolio?filter=social-media');
    await expect(page.getByRole('radio', { name: 'Social-media' })).toBeChecked();
    await expect(visible(page)).toHaveCount(4);
  });

  test('an image opens enlarged, and closing clears it', async ({ page }) => {
    await page.goto('/portfolio');
    const first = visible(page).first().getByRole('link');
    await first.click();
    const dialog = page.getByRole('dialog', { name: 'FleetDesk logistics dashboard' });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('img:visible')).toHaveAttribute('src', /fleetdesk/);
    expect(page.url()).toMatch(/\/portfolio$/);
    await dialog.getByRole('button', { name: 'Next project' }).click();
    await expect(page.getByRole('dialog', { name: 'Harbour Homes property portal' })).toBeVisible();
    const lightbox = page.locator('dialog.lightbox');
    await expect(lightbox.locator('img:visible')).toHaveAttribute('src', /harbour-homes/);
    await lightbox.getByRole('button', { name: 'Close' }).click();
    await expect(lightbox).toBeHidden();
    await expect(first).toBeFocused();

    await first.press('Enter');
    await expect(page.locator('dialog.lightbox')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.locator('dialog.lightbox')).toBeHidden();
  });

  test('a phone fetches the projects near its screen as the page opens, and the rest as it scrolls to them', async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    try {
      const page = await context.newPage();
      const pictures = new Set<string>();
      page.on('request', (request) => {
        if (request.resourceType() === 'image') pictures.add(new URL(request.url()).pathname);
      });
      await page.goto('/portfolio');
      const grid = page.locator('.gallery__grid img');
      await expect(grid).toHaveCount(10);
      // Settled: the first project is drawn, and nothing is asked for meanwhile.
      await expect
        .poll(() => grid.first().evaluate((img: HTMLImageElement) => img.complete))
        .toBe(true);
      await page.waitForLoadState('networkidle');
      const opening = pictures.size;
      expect(opening).toBeGreaterThanOrEqual(1);
      expect(opening).toBeLessThanOrEqual(5);

      // Scrolled through as a visitor would: every project is there when reached.
      for (const img of await grid.all()) {
        await img.scrollIntoViewIfNeeded();
        await expect
          .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0))
          .toBe(true);
        await expect(img).toBeInViewport();
      }
      expect(pictures.size).toBe(10);

      // The last project, reached with the keyboard: its focus ring is drawn whole, on every side,
      // though its paint is contained to its box as it comes near the screen.
      const links = page.locator('.gallery__link');
      await links.nth(8).focus();
      await page.keyboard.press('Tab');
      await expect(links.last()).toBeFocused();
      // Polled: the page may still be scrolling the link into view.
      await expect
        .poll(() => ringSides(page, links.last()))
        .toEqual({
          top: true,
          right: true,
          bottom: true,
          left: true,
        });
    } finally {
      await context.close();
    }
  });

  // Two projects are screenshots (a PNG and a JPEG in src/assets/portfolio): sent as AVIF, at a width
  // that fits where and how they are shown.
  for (const { width, scale, thumbnail, enlarged } of [
    { width: 375, scale: 2, thumbnail: 800, enlarged: 800 },
    { width: 1280, scale: 1, thumbnail: 400, enlarged: 1200 },
  ]) {
    test(`a screenshot loads as AVIF at ${thumbnail} px on a ${width} px screen at ${scale}x`, async ({
      browser,
    }) => {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        deviceScaleFactor: scale,
      });
      const page = await context.newPage();
      const types = new Map<string, string>();
      page.on('response', (response) =>
        types.set(new URL(response.url()).pathname, response.headers()['content-type'] ?? ''),
      );
      await page.goto('/portfolio');
      const loaded = async (img: Locator) => {
        await img.scrollIntoViewIfNeeded();
        await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete)).toBe(true);
        // The file's own width, from the srcset candidate the browser picked (naturalWidth is in CSS px).
        return img.evaluate((i: HTMLImageElement) => {
          const candidates = [...i.parentElement!.querySelectorAll('source, img')].flatMap((el) =>
            (el.getAttribute('srcset') ?? '').split(', ').map((c) => c.split(' ')),
          );
          const src = new URL(i.currentSrc).pathname;
          const chosen = candidates.find(([url]) => url === src);
          return { src, fileWidth: Number(chosen?.[1]?.replace('w', '')) };
        });
      };
      const item = page.locator('.gallery__item', { hasText: 'Northgate Digital website' });
      const small = await loaded(item.locator('img'));
      expect(small.src).toMatch(/^\/_astro\/northgate-website\.\S+\.avif$/);
      expect(small.fileWidth).toBe(thumbnail);
      expect(types.get(small.src)).toBe('image/avif');

      await item.getByRole('link').click();
      const dialog = page.getByRole('dialog', { name: 'Northgate Digital website' });
      const large = await loaded(dialog.locator('img:visible'));
      expect(large.src).toMatch(/\.avif$/);
      // The lightbox is up to 60rem wide: 58rem of image at 1280 px, the screen's width on a phone.
      expect(large.fileWidth).toBe(enlarged);
      await context.close();
    });
  }
});

test.describe('About technology stack tabs', () => {
  test('Mobile by default; arrows, Home and End move between tabs', async ({ page }) => {
    await page.goto('/about');
    const tab = (name: string) => page.getByRole('tab', { name });
    const panel = (name: string) => page.getByRole('tabpanel', { name });
    await expect(tab('Mobile')).toHaveAttribute('aria-selected', 'true');
    await expect(panel('Mobile')).toBeVisible();
    await expect(page.locator('[role="tabpanel"]:visible')).toHaveCount(1);

    await tab('Mobile').focus();
    await page.keyboard.press('ArrowRight');
    await expect(tab('Backend')).toBeFocused();
    await expect(tab('Backend')).toHaveAttribute('aria-selected', 'true');
    await expect(panel('Backend')).toBeVisible();
    await expect(panel('Mobile')).toBeHidden();
    await page.keyboard.press('End');
    await expect(tab('Frontend')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(tab('Mobile')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await expect(tab('Frontend')).toBeFocused();
    await page.keyboard.press('Home');
    await expect(tab('Mobile')).toBeFocused();
    await tab('Frontend').click();
    await expect(panel('Frontend').getByRole('link', { name: 'ReactJS' })).toHaveAttribute(
      'href',
      '/reactjs',
    );
    // Only the selected tab is in the tab order.
    await expect(page.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
  });
});
