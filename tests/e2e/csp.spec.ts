/**
 * The Content-Security-Policy at work, on pages and on what is not a page: what an attacker could
 * slip into a response (an inline script, a <base>, a form to elsewhere, a plug-in) does nothing,
 * and no other site can frame the site. Watched in the browser, not read from the header's text.
 */
import { expect, test, type Page } from '@playwright/test';

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

for (const path of [...pages, ...notPages]) {
  test(`${path}: an inline script put into it does not run`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.ok() || response?.status() === 404, path).toBe(true);
    const { ran, reported } = await injectScript(page);
    expect(ran).toBe(false);
    expect(reported.some((directive) => directive.startsWith('script-src'))).toBe(true);
  });
}

for (const path of pages) {
  test(`${path}: a <base> or a form to another site and a plug-in do nothing`, async ({ page }) => {
    await page.goto(path);
    const outcome = await page.evaluate(async () => {
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
    expect(new URL(outcome.baseURI).origin).toBe(new URL(page.url()).origin);
    expect(outcome.reported).toEqual(
      expect.arrayContaining(['base-uri', 'object-src', 'form-action']),
    );
    // The form went nowhere: the page is still the site's.
    expect(new URL(page.url()).pathname).toBe(path);
  });
}

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
