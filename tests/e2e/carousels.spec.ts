import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './shared-page';
import { leadingSlide } from './helpers';

/** How many slides lie wholly inside the viewport. */
function slidesInView(carousel: Locator) {
  return carousel.evaluate((root) => {
    const viewport = root.querySelector('.carousel__viewport')!.getBoundingClientRect();
    return [...root.querySelectorAll('.carousel__slide')].filter((s) => {
      const r = s.getBoundingClientRect();
      return r.left >= viewport.left - 1 && r.right <= viewport.right + 1;
    }).length;
  });
}

/** What went wrong in each page's browser: its console errors and the requests that failed. */
const trouble = new WeakMap<Page, string[]>();
test.beforeEach(({ page }) => {
  const seen: string[] = [];
  trouble.set(page, seen);
  page.on('console', (m) => void (m.type() === 'error' && seen.push(`console: ${m.text()}`)));
  page.on('pageerror', (e) => void seen.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => void seen.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
});

async function ready(page: Page, carousel: Locator) {
  // Scrolled to until its code has loaded (client:visible; on a busy machine, seconds): a jump can
  // land where a section above then takes its real height and pushes the carousel out of view
  // before its code is asked for (scrollIntoViewToStay, helpers.ts, which cannot wait for frames
  // here: page.clock holds requestAnimationFrame). If it never loads, the failure says what the
  // page was doing.
  await expect(async () => {
    await carousel.scrollIntoViewIfNeeded();
    await expect(carousel).toHaveClass(/carousel--ready/, { timeout: 5_000 });
  })
    .toPass({ timeout: 20_000 })
    .catch(async (error: Error) => {
      const state = await carousel.evaluate((section) => {
        const island = section.closest('astro-island');
        const box = section.getBoundingClientRect();
        return {
          island: island && {
            ssr: island.hasAttribute('ssr'),
            client: island.getAttribute('client'),
          },
          directive: Object.keys((window as { Astro?: object }).Astro ?? {}),
          box: [box.top, box.bottom].map(Math.round),
          viewport: [innerWidth, innerHeight],
          scrollY,
          readyState: document.readyState,
        };
      });
      error.message += `\nPage: ${JSON.stringify(state)}\n${(trouble.get(page) ?? []).join('\n')}`;
      throw error;
    });
  // Keep the pointer away, so that hover does not pause it.
  await page.mouse.move(0, 0);
}

test('a carousel keeps its size as its code takes over: nothing on the page moves', async ({
  page,
}) => {
  await page.goto('/android');
  const carousels = page.locator('.carousel');
  const boxes = () =>
    carousels.evaluateAll((all) =>
      all.map((c) => {
        const r = c.getBoundingClientRect();
        return [Math.round(r.width), Math.round(r.height)];
      }),
    );
  const before = await boxes();
  expect(before.length).toBeGreaterThan(0);
  for (const carousel of await carousels.all()) await ready(page, carousel);
  expect(await boxes()).toEqual(before);
});

test.describe('carousel timings', () => {
  // Time stands still until a test moves it with runFor. Installed, the clock runs until paused: a
  // pause a second later failed ("Cannot fast-forward to the past") when a busy machine took longer
  // than that between the two calls; no page is open yet, so an hour later changes nothing else.
  test.beforeEach(async ({ page }) => {
    await page.clock.install({ time: new Date('2026-01-05T09:00:00Z') });
    await page.clock.pauseAt(new Date('2026-01-05T10:00:00Z'));
  });

  test('testimonials advance every 4000 ms with a 3000 ms transition, and loop', async ({
    page,
  }) => {
    await page.goto('/android');
    const carousel = page.getByRole('region', { name: 'Testimonials' });
    await ready(page, carousel);
    const dots = carousel.locator('.carousel__dot');
    await expect(dots).toHaveCount(4);
    await expect(dots.nth(0)).toHaveAttribute('aria-current', 'true');

    await page.clock.runFor(3900);
    await expect(dots.nth(0)).toHaveAttribute('aria-current', 'true');
    await page.clock.runFor(200);
    await expect(dots.nth(1)).toHaveAttribute('aria-current', 'true');
    // Mid-transition the slide is still on its way; by 3000 ms it has arrived.
    await page.clock.runFor(1000);
    expect(await leadingSlide(carousel)).toBe(-1);
    await page.clock.runFor(2200);
    expect(await leadingSlide(carousel)).toBe(1);

    // 4 -> 1: it loops.
    await page.clock.runFor(4000 * 3);
    await expect(dots.nth(0)).toHaveAttribute('aria-current', 'true');
  });

  test('home feedback advances every 2000 ms and loops, with no arrows or dots', async ({
    page,
  }) => {
    await page.goto('/');
    const carousel = page.getByRole('region', { name: 'Customer feedback' });
    await ready(page, carousel);
    await expect(carousel.locator('.carousel__dot')).toHaveCount(0);
    await expect(carousel.getByRole('button', { name: /slide$/ })).toHaveCount(0);
    // Each move takes under 700 ms, so 700 ms after each 2000 ms tick the next slide leads.
    await page.clock.runFor(1900);
    expect(await leadingSlide(carousel)).toBe(0);
    await page.clock.runFor(800);
    for (const expected of [1, 2, 3, 0]) {
      expect(await leadingSlide(carousel)).toBe(expected);
      await page.clock.runFor(2000);
    }
  });

  test('home portfolio advances every 3000 ms and has previous and next arrows', async ({
    page,
  }) => {
    await page.goto('/');
    const carousel = page.getByRole('region', { name: 'Portfolio' });
    await ready(page, carousel);
    await page.clock.runFor(2900);
    expect(await leadingSlide(carousel)).toBe(0);
    await page.clock.runFor(1200);
    expect(await leadingSlide(carousel)).toBe(1);
    await carousel.getByRole('button', { name: 'Previous slide' }).click();
    await page.mouse.move(0, 0);
    await page.clock.runFor(1000);
    expect(await leadingSlide(carousel)).toBe(0);
    await carousel.getByRole('button', { name: 'Next slide' }).click();
    await page.mouse.move(0, 0);
    await page.clock.runFor(1000);
    expect(await leadingSlide(carousel)).toBe(1);
  });

  test('autoplay pauses on hover, on keyboard focus and out of view, and the pause control comes first', async ({
    page,
  }) => {
    await page.goto('/android');
    const carousel = page.getByRole('region', { name: 'Testimonials' });
    await ready(page, carousel);
    const track = carousel.locator('.carousel__track');
    await expect(track).toHaveAttribute('aria-live', 'off');

    // Scrolled past, it waits; back in view, the slide left stays a whole turn (4000 ms).
    await page.clock.runFor(3000);
    await page.evaluate(() => scrollTo(0, 0));
    await expect(carousel).not.toBeInViewport();
    await expect(track).toHaveAttribute('aria-live', 'polite');
    await page.clock.runFor(12_000);
    expect(await leadingSlide(carousel)).toBe(0);
    await carousel.scrollIntoViewIfNeeded();
    await expect(track).toHaveAttribute('aria-live', 'off');
    await page.clock.runFor(3900);
    expect(await leadingSlide(carousel)).toBe(0);
    await page.clock.runFor(200);
    await expect(carousel.locator('.carousel__dot').nth(1)).toHaveAttribute('aria-current', 'true');
    await page.clock.runFor(3000);
    expect(await leadingSlide(carousel)).toBe(1);

    await carousel.hover();
    await page.clock.runFor(9000);
    expect(await leadingSlide(carousel)).toBe(1);
    await expect(track).toHaveAttribute('aria-live', 'polite');
    await page.mouse.move(0, 0);
    await page.clock.runFor(4000 + 3500);
    expect(await leadingSlide(carousel)).toBe(2);

    // Tabbing into the carousel lands on the pause control first, and focus pauses it.
    await page
      .getByRole('heading', { name: 'What our clients say about working with us' })
      .evaluate((heading: HTMLElement) => {
        heading.tabIndex = -1;
        heading.focus();
      });
    await page.keyboard.press('Tab');
    const pause = carousel.getByRole('button', { name: 'Pause testimonials slide show' });
    await expect(pause).toBeFocused();
    await page.clock.runFor(9000);
    expect(await leadingSlide(carousel)).toBe(2);

    // The control (a toggle button) stops it for good, until pressed again.
    await page.keyboard.press('Enter');
    await expect(pause).toHaveAttribute('aria-pressed', 'true');
    await expect(pause).toBeFocused();
    await page.mouse.click(0, 0);
    await page.clock.runFor(9000);
    expect(await leadingSlide(carousel)).toBe(2);
  });

  test('autoplay does not start under reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/android');
    const carousel = page.getByRole('region', { name: 'Testimonials' });
    await ready(page, carousel);
    await page.clock.runFor(12_000);
    expect(await leadingSlide(carousel)).toBe(0);
    // The dots still work, and move at once: a single animation frame is enough.
    await carousel.locator('.carousel__dot').nth(2).click();
    await expect
      .poll(async () => {
        await page.clock.runFor(20);
        return leadingSlide(carousel);
      })
      .toBe(2);
  });
});

test.describe('slides in view', () => {
  // One page loaded at each width in turn (a context for each cost more than the check).
  test('home portfolio shows 3 from 768 px, 2 from 480 px, 1 below', async ({ page }) => {
    test.setTimeout(120_000);
    for (const [width, count] of [
      [1280, 3],
      [768, 3],
      [767, 2],
      [480, 2],
      [479, 1],
      [375, 1],
    ] as const) {
      await test.step(`home portfolio shows ${count} at ${width} px`, async () => {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/');
        const carousel = page.getByRole('region', { name: 'Portfolio' });
        await ready(page, carousel);
        expect(await slidesInView(carousel), `${width} px`).toBe(count);
      });
    }
  });

  test('testimonials show one slide, labelled "n of 4"', async ({ page }) => {
    await page.goto('/android');
    const carousel = page.getByRole('region', { name: 'Testimonials' });
    await ready(page, carousel);
    expect(await slidesInView(carousel)).toBe(1);
    await expect(carousel.getByRole('group')).toHaveCount(4);
    await expect(carousel.getByRole('group').nth(2)).toHaveAttribute('aria-label', '3 of 4');
    await expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
  });
});
