/** What several browser tests look at the same way. */
import { expect, type Locator, type Page } from '@playwright/test';
import { startSmtp } from '../../scripts/smtp';
import { violations as axeViolations } from '../support/axe';
import { freePort, startServer } from '../support/server';

/**
 * axe's violations on the page as it is now, one line each: rule and elements
 * (../support/axe.ts), with everything rendered for the check (below).
 */
export async function violations(page: Page) {
  await renderAll(page, true);
  try {
    return await axeViolations(page);
  } finally {
    await renderAll(page, false);
  }
}

/**
 * What is out of view skips its rendering until it nears the view (`content-visibility: auto`: the
 * sections, the footer), and axe reads colours from what is rendered: once, on a loaded machine, it
 * took the footer's light text to stand on the page's white. For the check, everything is rendered,
 * as it is once scrolled to; then put back. Set through the CSSOM, which the pages' policy allows.
 */
const renderAll = (page: Page, on: boolean) =>
  page
    .evaluate((on) => {
      for (const element of document.querySelectorAll<HTMLElement | SVGElement>('*')) {
        if (on && getComputedStyle(element).contentVisibility === 'auto')
          element.style.setProperty('content-visibility', 'visible');
        else if (!on && element.style.getPropertyValue('content-visibility') === 'visible')
          element.style.removeProperty('content-visibility');
      }
    }, on)
    // A page that navigated away meanwhile has nothing to put back.
    .catch(() => {});

/** What the browser renders of the page's images without alt text or explicit dimensions. */
const imagesWithout = (page: Page) =>
  page
    .locator('img')
    .evaluateAll((images) =>
      images
        .filter(
          (img) =>
            img.getAttribute('alt') === null ||
            !img.getAttribute('width') ||
            !img.getAttribute('height'),
        )
        .map((img) => img.outerHTML.slice(0, 120)),
    );

/**
 * What every page is checked for, as loaded: axe finds no violations, and every image has alt text
 * and explicit dimensions. Run where a test has loaded a route for its content already (routes.spec),
 * so that each route is loaded once for both.
 */
export async function expectAccessible(page: Page) {
  expect(await violations(page)).toEqual([]);
  expect(await imagesWithout(page)).toEqual([]);
}

/**
 * Scrolls an element into view and keeps at it until it stays there, as a visitor's scrolling ends.
 * Sections out of view skip their layout until they come near it (`content-visibility: auto`,
 * src/styles/global.css) and keep a 40rem placeholder's height until then: a jump straight to the
 * element can land where the section above it then takes its real height and pushes the element
 * out of view again. On a loaded machine that happened before its `client:visible` island was ever
 * asked for, and the island never came (carousels.spec, in test:stress). It waits for frames
 * (requestAnimationFrame): not for a page whose clock the test holds (page.clock).
 */
export async function scrollIntoViewToStay(element: Locator) {
  await expect(async () => {
    await element.scrollIntoViewIfNeeded();
    // Two frames: in the first, a section near the view is found; in the second, laid out.
    const inView = await element.evaluate(
      (el) =>
        new Promise<boolean>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const box = el.getBoundingClientRect();
              resolve(box.bottom > 0 && box.top < innerHeight);
            }),
          ),
        ),
    );
    expect(inView, 'still in view after the sections around it were laid out').toBe(true);
  }).toPass();
}

/** The index of the slide at the left edge of a carousel's viewport, or -1 while it moves. */
export function leadingSlide(carousel: Locator) {
  return carousel.evaluate((root) => {
    const viewport = root.querySelector('.carousel__viewport')!.getBoundingClientRect();
    const slides = [...root.querySelectorAll('.carousel__slide')];
    return slides.findIndex((s) => Math.abs(s.getBoundingClientRect().left - viewport.left) < 2);
  });
}

/**
 * Waits until the island that holds `inside` has hydrated. Until then a form posts natively, by
 * design (first-tap.spec.ts), so a test of what the island does waits for it: on a loaded machine
 * the first keystroke's hydration can still be under way when the test clicks.
 */
export async function islandHydrated(inside: Locator) {
  await expect(inside.locator('xpath=ancestor::astro-island[1]')).not.toHaveAttribute('ssr');
}

/**
 * Opens the Schedule a Call dialog from the header, fills in a call request and waits until its
 * island has hydrated (see islandHydrated); the dialog, ready to send.
 */
export async function openCallRequest(
  page: Page,
  { email = 'ada@example.com', message = 'Can we talk about an iPad app next week?' } = {},
) {
  await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
  await dialog.getByLabel('Name').fill('Ada Lovelace');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Message').fill(message);
  await islandHydrated(dialog.getByRole('button', { name: 'Request a call' }));
  return dialog;
}

/** In the dialog's open time step: the first free time of the `day`th day offered (0: the first); its start. */
export async function chooseFirstTime(dialog: Locator, day: number) {
  const select = dialog.getByLabel('Day');
  await select.selectOption((await select.locator('option').nth(day).getAttribute('value'))!);
  const time = dialog
    .getByRole('group', { name: /^Free times on / })
    .getByRole('radio')
    .first();
  await time.check();
  return (await time.getAttribute('value'))!;
}

/** Records, from before the page's first byte is read, every CSP violation it reports. */
export async function watchViolations(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`.trim()),
    );
  });
}
/**
 * Records, from a page's start, each section of its `main` on the first screen that
 * `content-visibility: auto` skipped and then drew as the page opened: Chromium styles and lays the
 * whole page out a second time in that frame (src/styles/global.css, `main > .section`).
 */
export async function watchFirstScreen(page: Page) {
  await page.addInitScript(() => {
    const drawnLate: string[] = [];
    (window as unknown as { drawnLate: string[] }).drawnLate = drawnLate;
    document.addEventListener(
      'contentvisibilityautostatechange',
      (event) => {
        const section = event.target as Element;
        const { skipped } = event as Event & { skipped: boolean };
        if (skipped || scrollY !== 0 || !section.matches('main > *')) return;
        if (section.getBoundingClientRect().top < innerHeight) drawnLate.push(section.className);
      },
      true,
    );
  });
}
/** The sections of the first screen skipped, then drawn, as the page opened (watchFirstScreen). */
export const drawnLateOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { drawnLate: string[] }).drawnLate);
export const violationsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

/** Scrolls a page to its end, so that what loads or starts on the way (images, carousels) has. */
export const scrollThrough = (page: Page) =>
  page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {
      scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });

/**
 * The page, scrolled to its end, has reported no CSP violation since it was loaded (its page records
 * them: watchViolations, as sharedPage does). Run where a test has loaded a route for its content
 * (routes.spec), so that each route is loaded once for that and for csp.spec's walk.
 */
export async function expectNoCspViolation(page: Page) {
  await scrollThrough(page);
  expect(await violationsOf(page)).toEqual([]);
}

/**
 * A production server of the test's own that mails through an SMTP catcher (its `mails`), on free
 * ports: for the tests that follow an e-mail (a booking's, a sign-in link's). `host` is the name
 * its SITE_URL gives the links; `env` adds to or overrides the server's settings.
 */
export async function startMailingSite(env: Record<string, string> = {}, host = '127.0.0.1') {
  const [port, smtpPort] = [await freePort(), await freePort()];
  const smtp = await startSmtp(smtpPort);
  const server = await startServer({
    PORT: String(port),
    SITE_URL: `http://${host}:${port}`,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
    ENQUIRY_TO: 'sales@agency.example',
    ENQUIRY_FROM: 'website@agency.example',
    JOBS_POLL_MS: '100',
    ...env,
  });
  return { server, smtp, site: `http://${host}:${port}` };
}
