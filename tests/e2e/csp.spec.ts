/**
 * The Content-Security-Policy at work, on pages and on what is not a page: what an attacker could
 * slip into a response (an inline script, a <base>, a form to elsewhere, a plug-in) does nothing,
 * and no other site can frame the site. Watched in the browser, not read from the header's text.
 * And the site's own pages break none of it, with no inline style allowed but their own <style>
 * elements: every page, prerendered and on demand (the booking pages, the staff desk), and the
 * widgets in use, report no violation.
 */
import { expect, type Page } from '@playwright/test';
import { test } from './shared-page';
import { textOf } from '../support/mime';
import { bookableTimes } from '../support/free-times';
import { postForm } from '../support/server';
import {
  chooseFirstTime,
  openCallRequest,
  scrollThrough,
  startMailingSite,
  violationsOf,
  watchViolations,
} from './helpers';

const pages = ['/', '/iphone', '/contact', '/no-such-page'];
const notPages = ['/favicon.svg', '/healthz', '/robots.txt'];

/** Injects an inline script into the document as it is; whether it ran, and what the CSP reported. */
function injectScript(page: Page) {
  return page.evaluate(async () => {
    const reported: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      reported.push(e.effectiveDirective),
    );
    const svg = document.documentElement.namespaceURI === 'http://www.w3.org/2000/svg';
    const script = document.createElementNS(
      svg ? 'http://www.w3.org/2000/svg' : 'http://www.w3.org/1999/xhtml',
      'script',
    );
    script.textContent = 'window.injectedRan = true';
    document.documentElement.append(script);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { ran: 'injectedRan' in window, reported };
  });
}

/**
 * Puts a <base> to another site, a plug-in and a form posting elsewhere (sent) into the document;
 * where the document's links now lead, and what the CSP reported.
 */
function injectOthers(page: Page) {
  return page.evaluate(async () => {
    const reported: string[] = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      reported.push(e.effectiveDirective),
    );
    const base = document.createElement('base');
    base.href = 'https://elsewhere.example/';
    document.head.prepend(base);
    const object = document.createElement('object');
    object.data = '/favicon.svg';
    document.body.append(object);
    const form = document.createElement('form');
    form.action = 'https://elsewhere.example/collect';
    form.method = 'post';
    document.body.append(form);
    form.submit();
    // The plug-in's load is refused when the browser gets to it: on a busy machine after 300 ms.
    const expected = ['base-uri', 'object-src', 'form-action'];
    for (
      let waited = 0;
      waited < 5_000 && !expected.every((d) => reported.includes(d));
      waited += 50
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    return { baseURI: document.baseURI, reported };
  });
}

// One page walks every address (a new context for each cost more than the check): each address is
// still its own step, and a fresh load of it, on which a page is then given the rest.
test('an inline script put into a page or into what is not a page does not run; a <base>, a form to another site and a plug-in do nothing on every kind of page', async ({
  page,
}) => {
  test.setTimeout(60_000);
  for (const path of [...pages, ...notPages]) {
    await test.step(path, async () => {
      const response = await page.goto(path);
      expect(response?.ok() || response?.status() === 404, path).toBe(true);
      const { ran, reported } = await injectScript(page);
      expect(ran, path).toBe(false);
      expect(
        reported.some((directive) => directive.startsWith('script-src')),
        path,
      ).toBe(true);
      if (!pages.includes(path)) return;
      const outcome = await injectOthers(page);
      expect(new URL(outcome.baseURI).origin).toBe(new URL(page.url()).origin);
      expect(outcome.reported, path).toEqual(
        expect.arrayContaining(['base-uri', 'object-src', 'form-action']),
      );
      // The form went nowhere: the page is still the site's.
      expect(new URL(page.url()).pathname).toBe(path);
    });
  }
});

test('the form page answered to a post: an inline script put into it does not run', async ({
  page,
}) => {
  await page.goto('/contact');
  // A post without JavaScript, as a browser without it sends: the answer is the form again.
  await Promise.all([
    page.waitForURL('**/php/email.php'),
    page.evaluate(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/php/email.php';
      const field = document.createElement('input');
      field.name = 'first_name';
      field.value = 'x';
      form.append(field);
      document.body.append(form);
      form.submit();
    }),
  ]);
  const { ran, reported } = await injectScript(page);
  expect(ran).toBe(false);
  expect(reported.some((directive) => directive.startsWith('script-src'))).toBe(true);
});

test('no other page can frame the site', async ({ page, baseURL }) => {
  for (const path of ['/', '/contact']) {
    await page.setContent(`<iframe src="${baseURL}${path}"></iframe>`);
    const frame = page.frames()[1]!;
    await frame.waitForLoadState();
    // A refused frame shows the browser's error page, not the site.
    expect(await frame.evaluate(() => location.origin)).not.toBe(new URL(baseURL!).origin);
  }
});

// The prerendered routes are walked where routes.spec.ts loads them for their content
// (expectNoCspViolation): each is loaded once for both. Here, the pages that are not among them.
test('every page of the site, prerendered or on demand, breaks none of its CSP', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await watchViolations(page);
  // An unknown booking's page answers 404 with its own CSP, not the not-found page's (which
  // refused its styles and scripts).
  const pages = [
    '/speed',
    '/schedule',
    '/offline',
    '/no-such-page',
    '/schedule/booked?ref=00000000-0000-4000-8000-000000000000',
  ];
  const found: Record<string, string[]> = {};
  for (const path of pages) {
    await page.goto(path, { waitUntil: 'load' });
    await scrollThrough(page);
    const seen = await violationsOf(page);
    if (seen.length) found[path] = seen;
  }
  // The booking pages: booked natively on /schedule, then its change and cancel pages (the test
  // server sends no e-mail, so the booked page shows their links).
  await page.goto(
    '/schedule?from=' + new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10),
  );
  const main = page.getByRole('main');
  await main.getByLabel('Name').fill('Ada Lovelace');
  await main.getByLabel('Email').fill('ada@example.com');
  await main.getByLabel('Message').fill('An iPad app for our clinics.');
  await page.getByRole('group', { name: 'Time for the call' }).getByRole('radio').first().check();
  await main.getByRole('button', { name: 'Book this call' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your call is booked');
  const booked = page.url();
  for (const link of ['Change the time', 'Cancel the call']) {
    await page.goto(booked);
    await page.getByRole('link', { name: link }).click();
    await page.waitForLoadState('load');
    const seen = await violationsOf(page);
    if (seen.length) found[new URL(page.url()).pathname] = seen;
  }
  expect(found).toEqual({});
});

test('the widgets in use break none of it: the menu, the dialog and its times, a carousel, the portfolio', async ({
  page,
}) => {
  await watchViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/iphone');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Menu' }).click();
  const dialog = await openCallRequest(page);
  await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
  await chooseFirstTime(dialog, 1);
  await dialog.getByRole('button', { name: 'Close' }).click();
  expect(await violationsOf(page)).toEqual([]);
  // The home page's portfolio carousel (Embla moves it with CSSOM, which the policy allows).
  await page.goto('/');
  const carousel = page.getByRole('region', { name: 'Portfolio' });
  await carousel.scrollIntoViewIfNeeded();
  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await carousel.getByRole('button', { name: 'Previous slide' }).click();
  expect(await violationsOf(page)).toEqual([]);
  await page.goto('/portfolio');
  await page.getByRole('radio', { name: 'Apps' }).click();
  await page.locator('.gallery__item[data-tags~="apps"]').first().getByRole('link').click();
  await page.locator('dialog.lightbox').getByRole('button', { name: 'Next project' }).click();
  expect(await violationsOf(page)).toEqual([]);
});

test('the staff desk breaks none of it', async ({ page }) => {
  test.setTimeout(60_000);
  const { server, smtp } = await startMailingSite({
    BOOKING_SECRET: 'e2e-csp-secret-0123456789abcdef0123456',
  });
  try {
    const { slots } = await bookableTimes(server.url);
    await postForm(`${server.url}/send-mail.php`, {
      name: 'Prospect',
      email: 'p@example.com',
      message: 'An app.',
      slot: slots[0]!.start,
      idempotency_key: crypto.randomUUID(),
    });
    await watchViolations(page);
    await page.goto(`${server.url}/staff`);
    await page.getByLabel('Work e-mail').fill('anna@northgate-digital.example');
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    const signIn = () => smtp.received.filter((m) => m.raw.includes('@staff-sign-in.invalid>'));
    await expect.poll(() => signIn().length, { timeout: 10_000 }).toBe(1);
    expect(await violationsOf(page)).toEqual([]);
    await page.goto(
      /http:\/\/127\.0\.0\.1:\d+\/staff\/sign-in\?token=\S+/.exec(
        textOf(signIn()[0]!.raw) ?? '',
      )![0],
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Calls ahead' })).toBeVisible();
    expect(await violationsOf(page)).toEqual([]);
    await page.getByRole('button', { name: 'Move or cancel' }).first().click();
    await page.waitForLoadState('load');
    expect(await violationsOf(page)).toEqual([]);
  } finally {
    await server.stop();
    await smtp.close();
  }
});

test('no page allows inline styles: no unsafe-inline for style-src, prerendered or on demand', async ({
  request,
}) => {
  for (const path of ['/', '/iphone', '/no-such-page', '/speed', '/schedule', '/staff/sign-in']) {
    const response = await request.get(path);
    const csp = response.headers()['content-security-policy'] ?? '';
    const styles = csp
      .split(';')
      .map((directive) => directive.trim())
      .filter((directive) => directive.startsWith('style-src'));
    expect(styles.length, path).toBeGreaterThan(0);
    for (const directive of styles)
      expect(directive, path).not.toMatch(/'unsafe-inline'|'unsafe-hashes'/);
  }
});
