/**
 * Every widget answers its first tap before any island code has arrived: the islands' scripts
 * (/_astro/*.js) are held back until the test releases them, the visible change must already be
 * there, and the widget must work fully once React has taken over, from the state left by the tap.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './shared-page';
import { HYDRATED, LIGHTBOX_STEP, OPENING } from '../../src/domain/hand-over';
import { leadingSlide, scrollIntoViewToStay, violations } from './helpers';

/** Holds every island's code back until `release()`; `arrived()` counts the scripts delivered. */
async function holdIslandCode(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrived = 0;
  page.on('requestfinished', (request) => {
    if (/\/_astro\/[^/]+\.js$/.test(request.url())) arrived += 1;
  });
  await page.route('**/_astro/*.js', async (route) => {
    await gate;
    await route.continue().catch(() => {});
  });
  return { release, arrived: () => arrived };
}

/** What the dialog's first frames showed ("first frame draws the dialog's head"). */
type OpenFrame = { field: boolean; top: number };

const hydrated = (widget: Locator) => expect(widget).toHaveAttribute(HYDRATED, '');

test.describe('first tap before the code arrives', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the mobile menu opens, closes on its toggle, Escape and a chosen link, with no code to wait for', async ({
    page,
  }) => {
    // The menu is no island: its few lines are inline in the page (SiteHeader.astro).
    const code = await holdIslandCode(page);
    await page.goto('/iphone');
    const toggle = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Main' });

    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'Portfolio' })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await toggle.tap();
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(toggle).toBeFocused();
    await toggle.tap();
    await expect(nav).toBeVisible();
    // Keep the page from navigating, to see the menu close when a link is chosen.
    await page.evaluate(() => document.addEventListener('click', (e) => e.preventDefault(), true));
    await nav.getByRole('link', { name: 'About' }).tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    expect(code.arrived()).toBe(0);
  });

  test('Schedule a Call opens its dialog, keeps what is typed, and closes every way', async ({
    page,
  }) => {
    const code = await holdIslandCode(page);
    await page.goto('/laravel');
    const opener = page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' });
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    const inside = () => dialog.evaluate((d) => d.contains(document.activeElement));
    const colour = () => opener.evaluate((a) => getComputedStyle(a).backgroundColor);
    const untapped = await colour();

    await opener.tap();
    await expect(dialog).toBeVisible();
    expect(await inside()).toBe(true);
    // A touch screen keeps :hover on what was tapped: it leaves no hover colour on the opener.
    await opener.evaluate((a) => Promise.all(a.getAnimations().map((x) => x.finished)));
    expect(await colour()).toBe(untapped);
    // Shown in the tap's frame, modal from the next: the page behind is then inert.
    await expect.poll(() => dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
    expect(await inside()).toBe(true);
    expect(page.url()).toMatch(/\/laravel$/);
    expect(await violations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).tap();
    await expect(dialog).toBeHidden();
    await opener.tap();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await opener.tap();
    await page.mouse.click(3, 420);
    await expect(dialog).toBeHidden();

    // Typing at once: every character, the focus and the caret survive React taking over.
    await opener.tap();
    await dialog.getByLabel('Name').fill('Ada Lovelace');
    await dialog.getByLabel('Email').fill('ada@example');
    const message = dialog.getByLabel('Message');
    await message.tap();
    await page.keyboard.type('Hello there');
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
    expect(code.arrived()).toBe(0);
    code.release();
    await hydrated(dialog.locator('form'));
    await expect(dialog).toBeVisible();
    await expect(message).toBeFocused();
    await page.keyboard.type(',');
    await expect(message).toHaveValue('Hello, there');
    await expect(dialog.getByLabel('Name')).toHaveValue('Ada Lovelace');

    // React's own checks now run, with the spec's messages, and it closes the dialog as before.
    await dialog.getByRole('button', { name: 'Request a call' }).tap();
    await expect(dialog.locator('.field__error')).toHaveText(['Valid email is required.']);
    expect(page.url()).toMatch(/\/laravel$/);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await opener.tap();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Name')).toHaveValue('Ada Lovelace');
  });

  test("Schedule a Call's first times and their code are asked for once the open dialog has painted, not in the tap", async ({
    page,
  }) => {
    await holdIslandCode(page);
    // The time of the first frame drawn with the dialog open (its animation frame runs just before
    // the paint), noted by the page itself.
    await page.addInitScript(() => {
      const w = window as unknown as { openFrame?: number };
      new MutationObserver(() => {
        if (w.openFrame === undefined && document.querySelector('dialog#schedule-call[open]'))
          requestAnimationFrame(() => (w.openFrame ??= performance.now()));
      }).observe(document, { subtree: true, attributeFilter: ['open'] });
    });
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).tap();
    await expect(page.getByRole('dialog', { name: 'Schedule a Call' })).toBeVisible();
    const started = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((r) => /\/schedule\/slots\.json\?days=|\/first-times\.js/.test(r.name))
          .map((r) => ({
            name: new URL(r.name).pathname,
            late: r.startTime > (window as unknown as { openFrame: number }).openFrame,
          })),
      );
    await expect.poll(started).toEqual(
      expect.arrayContaining([
        { name: '/schedule/slots.json', late: true },
        { name: '/first-times.js', late: true },
      ]),
    );
    expect(await started()).toHaveLength(2);
  });

  test("Schedule a Call's code is asked for once the tap's click is answered, however long the finger rests", async ({
    page,
  }) => {
    await page.addInitScript(() =>
      document.addEventListener(
        'click',
        // When it is dispatched: its timeStamp is the finger's lifting, before.
        () => ((window as unknown as { clickAt?: number }).clickAt ??= performance.now()),
        true,
      ),
    );
    await page.goto('/');
    const opener = page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' });
    const box = (await opener.boundingBox())!;
    const finger = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [finger] });
    // The finger rests while the page draws two frames; then it lifts, and the click comes.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await expect(page.getByRole('dialog', { name: 'Schedule a Call' })).toBeVisible();
    const asked = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((r) => /\/ScheduleCallModal\.[\w-]+\.js$/.test(r.name))
          .map((r) => r.startTime > (window as unknown as { clickAt: number }).clickAt),
      );
    await expect.poll(asked).toEqual([true]);
  });

  test("Schedule a Call's first frame draws the dialog's head, its form a frame later, in place", async ({
    page,
  }) => {
    await holdIslandCode(page);
    // Frame by frame from the first drawn with the dialog open (an animation frame runs just
    // before its paint) until its form's first field is drawn: whether it is, and where the close
    // button is. The next frame, as a rule; a busy machine may defer the task that lifts the mark.
    await page.addInitScript(() => {
      const w = window as unknown as { openFrames?: OpenFrame[] };
      const note = (dialog: HTMLDialogElement) =>
        requestAnimationFrame(() => {
          const field = dialog.querySelector('input')!.checkVisibility();
          const top = dialog.querySelector('button')!.getBoundingClientRect().top;
          (w.openFrames ??= []).push({ field, top });
          if (!field && w.openFrames.length < 120) note(dialog);
        });
      const watch = new MutationObserver(() => {
        const dialog = document.querySelector<HTMLDialogElement>('dialog#schedule-call[open]');
        if (!dialog) return;
        watch.disconnect();
        note(dialog);
      });
      watch.observe(document, { subtree: true, attributeFilter: ['open'] });
    });
    await page.goto('/');
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).tap();
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    const frames = () =>
      page.evaluate(() => (window as unknown as { openFrames?: OpenFrame[] }).openFrames ?? []);
    await expect.poll(async () => (await frames()).at(-1)?.field).toBe(true);
    const all = await frames();
    expect(all.length).toBeGreaterThan(1);
    expect(all[0].field).toBe(false);
    // The form's place was kept: the dialog's head moved by no more than a few pixels.
    expect(Math.abs(all.at(-1)!.top - all[0].top)).toBeLessThan(12);
    await expect(dialog.getByLabel('Name')).toBeVisible();
    await expect(dialog).not.toHaveAttribute(OPENING);
    expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
  });

  test('a call request sent before hydration is posted natively, once, with a key', async ({
    page,
  }) => {
    await holdIslandCode(page);
    const posts: string[] = [];
    const keys: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'POST') return;
      posts.push(new URL(r.url()).pathname);
      keys.push(new URLSearchParams(r.postData() ?? '').get('idempotency_key') ?? 'none');
    });
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    await dialog.getByLabel('Name').fill('Grace Hopper');
    await dialog.getByLabel('Email').fill('grace@example.com');
    await dialog.getByLabel('Message').fill('A call about a new app, please.');
    await dialog.getByRole('button', { name: 'Request a call' }).dblclick();
    await expect(page).toHaveURL(/\/thankyou$/);
    expect(posts).toEqual(['/send-mail.php']);
    // Made on the device by the page's first move, so that a retry is stored once.
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a call request with mistakes sent before hydration gets the error page', async ({
    page,
  }) => {
    await holdIslandCode(page);
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    await dialog.getByLabel('Name').fill('Grace Hopper');
    await dialog.getByRole('button', { name: 'Request a call' }).tap();
    await expect(page).toHaveURL(/\/send-mail\.php$/);
    await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
    await expect(page.getByRole('main').getByLabel('Name')).toHaveValue('Grace Hopper');
    await expect(page.getByRole('main').locator('.field__error')).toHaveText([
      'Valid email is required.',
      'Please,leave us a message.',
    ]);
  });

  test('Tab and Shift+Tab stay inside the Schedule a Call dialog, before and after React takes over', async ({
    page,
  }) => {
    const code = await holdIslandCode(page);
    await page.goto('/laravel');
    await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    await expect(dialog).toBeVisible();
    const inside = () => dialog.evaluate((d) => d.contains(document.activeElement));
    /** Goes twice round the dialog's controls, checking at each step that focus stayed in. */
    const goRound = async (key: 'Tab' | 'Shift+Tab') => {
      const count = await dialog.evaluate(
        (d) =>
          [...d.querySelectorAll('a[href],button,input,select,textarea')].filter(
            (item) => item.getClientRects().length,
          ).length,
      );
      for (let i = 0; i < 2 * count + 1; i++) {
        await page.keyboard.press(key);
        expect(await inside(), `${key} number ${i + 1}`).toBe(true);
      }
    };
    await goRound('Tab');
    await goRound('Shift+Tab');
    expect(code.arrived()).toBe(0);

    code.release();
    await hydrated(dialog);
    await goRound('Tab');
    await goRound('Shift+Tab');
  });

  test('the portfolio filters and its lightbox opens and steps through the filtered projects', async ({
    page,
  }) => {
    const code = await holdIslandCode(page);
    await page.goto('/portfolio');
    const apps = page.locator('.gallery__item[data-tags~="apps"]');
    const titles = await apps.locator('strong').allTextContents();
    expect(titles.length).toBeGreaterThan(2);

    await page.getByRole('radio', { name: 'Apps' }).tap();
    await expect(page.locator('.gallery__item:visible')).toHaveCount(titles.length);

    await apps.first().getByRole('link').tap();
    const lightbox = page.locator('dialog.lightbox');
    await expect(page.getByRole('dialog', { name: titles[0] })).toBeVisible();
    await expect(lightbox.locator('img:visible')).toHaveCount(1);
    expect(await violations(page)).toEqual([]);
    await lightbox.getByRole('button', { name: 'Next project' }).tap();
    await expect(page.getByRole('dialog', { name: titles[1] })).toBeVisible();
    await lightbox.getByRole('button', { name: 'Previous project' }).tap();
    await lightbox.getByRole('button', { name: 'Previous project' }).tap();
    await expect(page.getByRole('dialog', { name: titles.at(-1) })).toBeVisible();
    await lightbox.getByRole('button', { name: 'Close' }).tap();
    await expect(lightbox).toBeHidden();
    await apps.nth(1).getByRole('link').tap();
    await expect(page.getByRole('dialog', { name: titles[1] })).toBeVisible();
    expect(page.url()).toMatch(/\/portfolio$/);
    expect(code.arrived()).toBe(0);

    // React takes over with the lightbox open on the same project; next moves one project on.
    code.release();
    await hydrated(page.locator('.gallery'));
    await expect(page.getByRole('dialog', { name: titles[1] })).toBeVisible();
    await expect(page).toHaveURL(/\?filter=apps$/);
    await lightbox.getByRole('button', { name: 'Next project' }).tap();
    await expect(page.getByRole('dialog', { name: titles[2] })).toBeVisible();
    await expect(lightbox.locator('img:visible')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(lightbox).toBeHidden();
  });

  test('a carousel steps a slide at a time, pauses, and Embla carries on from there', async ({
    page,
  }) => {
    // Time flows as usual, until the test moves it on past the slide show's next move.
    await page.clock.install();
    const code = await holdIslandCode(page);
    await page.goto('/');
    const carousel = page.getByRole('region', { name: 'Portfolio' });
    await scrollIntoViewToStay(carousel);
    const next = carousel.getByRole('button', { name: 'Next slide' });
    const previous = carousel.getByRole('button', { name: 'Previous slide' });
    const pause = carousel.getByRole('button', { name: 'Pause portfolio slide show' });
    const count = await carousel.locator('.carousel__slide').count();

    await next.tap();
    await expect.poll(() => leadingSlide(carousel)).toBe(1);
    await previous.tap();
    await expect.poll(() => leadingSlide(carousel)).toBe(0);
    // From the first slide, previous wraps to the end.
    await previous.tap();
    await expect.poll(() => leadingSlide(carousel)).toBe(count - 1);
    await next.tap();
    await expect.poll(() => leadingSlide(carousel)).toBe(0);
    await next.tap();
    await next.tap();
    await expect.poll(() => leadingSlide(carousel)).toBe(2);
    await pause.tap();
    await expect(pause).toHaveAttribute('aria-pressed', 'true');
    expect(await violations(page)).toEqual([]);
    expect(code.arrived()).toBe(0);

    code.release();
    await hydrated(carousel);
    await expect(carousel).toHaveClass(/carousel--ready/);
    expect(await leadingSlide(carousel)).toBe(2);
    await expect(pause).toHaveAttribute('aria-pressed', 'true');
    await next.tap();
    await expect.poll(() => leadingSlide(carousel)).toBe(3);
    await previous.tap();
    await expect.poll(() => leadingSlide(carousel)).toBe(2);
    // Paused: it does not move on by itself (the portfolio's autoplay is 3000 ms).
    await page.clock.runFor(3500);
    expect(await leadingSlide(carousel)).toBe(2);
    await pause.tap();
    await expect(pause).toHaveAttribute('aria-pressed', 'false');
  });

  test('the About tabs switch', async ({ page }) => {
    const code = await holdIslandCode(page);
    await page.goto('/about');
    // Each tab whole on the phone's screen (centred in one row, they spilled off both edges).
    for (const name of ['Mobile', 'Backend', 'Frontend']) {
      const box = (await page.getByRole('tab', { name }).boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(page.viewportSize()!.width);
    }
    await page.getByRole('tab', { name: 'Backend' }).tap();
    await expect(page.getByRole('tabpanel', { name: 'Backend' })).toBeVisible();
    await expect(page.getByRole('tabpanel', { name: 'Mobile' })).toBeHidden();
    expect(await violations(page)).toEqual([]);
    expect(code.arrived()).toBe(0);
  });
});

test.describe('a tap while React takes over is applied once', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  // The tap lands at different moments of the hand-over: before the code, while it is evaluated
  // and hydrates, or just after. Whichever of the two answers it, it is applied once: the carousel
  // ends up one slide on. (The menu has no hand-over: it is one inline script, SiteHeader.astro.)
  // One page loaded for each moment in turn (a context for each cost more than the check); each
  // moment a step, on a fresh load whose code is held again (routing keeps the HTTP cache off).
  test('a carousel, 0, 20, 60, 150 and 400 ms after the code is released', async ({ page }) => {
    test.setTimeout(120_000);
    for (const delay of [0, 20, 60, 150, 400]) {
      await test.step(`a carousel, ${delay} ms after the code is released`, async () => {
        await page.unrouteAll({ behavior: 'ignoreErrors' });
        const code = await holdIslandCode(page);
        await page.goto('/');
        const carousel = page.getByRole('region', { name: 'Portfolio' });
        // Scrolled into view, it starts hydrating (held until released).
        await scrollIntoViewToStay(carousel);
        code.release();
        await page.waitForTimeout(delay);
        await carousel.getByRole('button', { name: 'Next slide' }).tap();
        await hydrated(carousel);
        await expect(carousel).toHaveClass(/carousel--ready/);
        // One slide on, however the tap was answered (the tap's focus keeps autoplay still).
        await expect.poll(() => leadingSlide(carousel), `${delay} ms`).toBe(1);
        await page.waitForTimeout(700);
        expect(await leadingSlide(carousel), `${delay} ms`).toBe(1);
      });
    }
  });

  // The moment right after the commit in which React takes the gallery over, before the page runs
  // anything else: a busy phone's tap waits there. The island's handlers must already know the
  // project the first move opened (they once did only a frame later, and Next did nothing).
  test('the lightbox, Next tapped the moment React takes over', async ({ page }) => {
    await page.goto('/portfolio');
    await page.evaluate(
      ([hydrated, step]) => {
        const gallery = document.querySelector('.gallery')!;
        new MutationObserver((_, observer) => {
          if (!gallery.hasAttribute(hydrated)) return;
          observer.disconnect();
          document.querySelector<HTMLElement>(`dialog.lightbox [${step}="1"]`)!.click();
        }).observe(gallery, { attributes: true });
      },
      [HYDRATED, LIGHTBOX_STEP],
    );
    await page.locator('.gallery__link').first().tap();
    await hydrated(page.locator('.gallery'));
    await expect(page.getByRole('dialog', { name: 'Harbour Homes property portal' })).toBeVisible();
  });

  // Made modal in the tap's frame, the page behind would be restyled whole as inert before that
  // frame could paint (most of the tap's time on a slow phone). Shown first, it is made modal a frame
  // later, by the first move and by the island alike, without moving.
  test('the lightbox draws its first frame in place, and is modal from the next, before and after hydration', async ({
    page,
  }) => {
    const code = await holdIslandCode(page);
    type Frame = { modal: boolean; focused: boolean; top: number };
    await page.addInitScript(() => {
      const w = window as unknown as { opens: Frame[][] };
      w.opens = [];
      let recording = false;
      const note = (dialog: HTMLDialogElement, frames: Frame[]) =>
        requestAnimationFrame(() => {
          const modal = dialog.matches(':modal');
          const focused = dialog.contains(document.activeElement);
          frames.push({ modal, focused, top: dialog.getBoundingClientRect().top });
          if (!modal && frames.length < 120) note(dialog, frames);
          else recording = false;
        });
      new MutationObserver(() => {
        const dialog = document.querySelector<HTMLDialogElement>('dialog.lightbox');
        if (!dialog?.open || recording) return;
        recording = true;
        const frames: Frame[] = [];
        w.opens.push(frames);
        note(dialog, frames);
      }).observe(document, { subtree: true, attributeFilter: ['open'] });
    });
    const opens = () => page.evaluate(() => (window as unknown as { opens: Frame[][] }).opens);
    const lightbox = page.locator('dialog.lightbox');
    const openedInPlace = async (count: number) => {
      await expect.poll(async () => (await opens())[count - 1]?.at(-1)?.modal).toBe(true);
      const frames = (await opens())[count - 1]!;
      expect(frames.length).toBeGreaterThan(1);
      expect(frames[0]).toMatchObject({ modal: false, focused: true });
      expect(Math.abs(frames.at(-1)!.top - frames[0].top)).toBeLessThan(2);
      expect(await lightbox.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    };

    await page.goto('/portfolio');
    const link = page.locator('.gallery__link').first();
    await link.tap();
    await openedInPlace(1);
    await page.keyboard.press('Escape');
    await expect(lightbox).toBeHidden();
    await expect(link).toBeFocused();

    code.release();
    await link.tap();
    await hydrated(page.locator('.gallery'));
    await lightbox.getByRole('button', { name: 'Close' }).tap();
    await expect(lightbox).toBeHidden();
    await link.tap();
    await openedInPlace(3);
    await expect(page.getByRole('dialog', { name: 'FleetDesk logistics dashboard' })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });

  // A keyboard is quicker than a frame: Enter then Escape at once came while the dialog was still
  // shown plainly, and a plain dialog ignores Escape unless told otherwise (`closedby`); made modal
  // after, it stayed open. The frames are held here, so that Escape surely comes in that first one.
  test('Escape in a dialog’s first frame, before it is modal, closes it', async ({ page }) => {
    const code = await holdIslandCode(page);
    await page.addInitScript(() => {
      const w = window as unknown as { holdFrames: boolean; heldFrames: FrameRequestCallback[] };
      [w.holdFrames, w.heldFrames] = [false, []];
      const next = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (run) =>
        w.holdFrames ? (w.heldFrames.push(run), 0) : next(run);
    });
    const holdFrames = (hold: boolean) =>
      page.evaluate((hold) => {
        const w = window as unknown as { holdFrames: boolean; heldFrames: FrameRequestCallback[] };
        w.holdFrames = hold;
        if (!hold) for (const run of w.heldFrames.splice(0)) requestAnimationFrame(run);
      }, hold);
    const escapedInFirstFrame = async (opener: Locator, dialog: Locator) => {
      await opener.focus();
      await holdFrames(true);
      await page.keyboard.press('Enter');
      expect(await dialog.evaluate((d) => [d.hasAttribute('open'), d.matches(':modal')])).toEqual([
        true,
        false,
      ]);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await holdFrames(false);
      // Two frames on: nothing made it modal again.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    };

    await page.goto('/portfolio');
    const project = page.locator('.gallery__link').first();
    const lightbox = page.locator('dialog.lightbox');
    await escapedInFirstFrame(project, lightbox);
    const scheduleCall = page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' });
    const scheduleDialog = page.locator('dialog#schedule-call');
    await escapedInFirstFrame(scheduleCall, scheduleDialog);
    // A dialog that says nothing of how it closes still closes by Escape in that frame.
    await scheduleDialog.evaluate((dialog) => dialog.removeAttribute('closedby'));
    await escapedInFirstFrame(scheduleCall, scheduleDialog);
    code.release();
    await hydrated(page.locator('.gallery'));
    await escapedInFirstFrame(project, lightbox);
  });
});

test.describe('scroll to top', () => {
  /** scrollY on each animation frame from the click on 'Back to top' until it reaches 0. */
  async function scrollPositions(page: Page) {
    await page.goto('/android');
    // Down to the bottom as a visitor gets there, half a screen a frame: each section is laid out as
    // it comes near (content-visibility: auto, global.css) and keeps its real height. Jumped to, they
    // keep a placeholder's height until then, and on the way back up the browser's scroll anchoring
    // adds to scrollY as each takes its real one, so that what is on screen stays put: scrollY went
    // back down the page by 31 px once, in a loaded run.
    // Each step is written down on the page: a walk that has not ended in 15 s (it takes half a
    // second; once, in a full run, it never ended) fails saying where it stopped.
    const walk = page.evaluate(async () => {
      const at = { steps: 0, y: 0, height: 0, since: performance.now() };
      (window as unknown as { walk: typeof at }).walk = at;
      const frames = () =>
        new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
        Object.assign(at, {
          steps: at.steps + 1,
          y,
          height: document.documentElement.scrollHeight,
        });
        window.scrollTo({ top: y, behavior: 'instant' });
        await frames();
      }
      window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
      await frames();
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(async () => {
        const at = await page.evaluate(() => {
          const { walk } = window as unknown as { walk: Record<string, number | string> };
          return {
            ...walk,
            visibility: document.visibilityState,
            ms: performance.now() - Number(walk.since),
          };
        });
        reject(
          new Error(`The walk down the page stopped, two frames a step: ${JSON.stringify(at)}`),
        );
      }, 15_000);
    });
    await Promise.race([walk, stopped]).finally(() => clearTimeout(timer));
    const start = await page.evaluate(() => window.scrollY);
    await page.evaluate(() => {
      const samples: number[] = [];
      (window as unknown as { samples: number[] }).samples = samples;
      const sample = () => {
        samples.push(window.scrollY);
        if (window.scrollY > 0 && samples.length < 300) requestAnimationFrame(sample);
      };
      document.addEventListener('click', () => requestAnimationFrame(sample), { once: true });
    });
    await page.getByRole('link', { name: 'Back to top' }).click();
    // Until the sampler has seen the top: the jump itself can come before its first frame.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { samples: number[] }).samples.at(-1)))
      .toBe(0);
    const samples = await page.evaluate(() => (window as unknown as { samples: number[] }).samples);
    return { start, samples };
  }

  // One page for both (a context for each cost more than the check), each a step on a fresh load.
  test('moves smoothly through the positions between, and jumps at once under reduced motion', async ({
    page,
  }) => {
    await test.step('moves smoothly through the positions between', async () => {
      const { start, samples } = await scrollPositions(page);
      expect(start).toBeGreaterThan(1000);
      const between = samples.filter((y) => y > 0 && y < start);
      expect(between.length).toBeGreaterThan(3);
      // Upwards all the way, never back down.
      expect(samples).toEqual([...samples].sort((a, b) => b - a));
      // Focus goes to the top of the page with it, as the #top link would take it.
      await expect(page.locator('.skip-link')).toBeFocused();
    });
    await test.step('jumps at once under reduced motion', async () => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const { start, samples } = await scrollPositions(page);
      expect(start).toBeGreaterThan(1000);
      expect(samples).toEqual([0]);
    });
  });
});
