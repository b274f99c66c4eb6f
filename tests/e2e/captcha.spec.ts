/**
 * reCAPTCHA when it is configured: a build with RECAPTCHA_SITE_KEY shows the widget in both forms,
 * allows its hosts in the CSP and sends its token, which the server checks (RECAPTCHA_SECRET)
 * against a local stub of Google's verification endpoint. Google's script itself is stubbed in the
 * browser (this machine has no internet). Without a key, nothing of it loads.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page } from '@playwright/test';
import { test } from './shared-page';
import { freePort, startServer, type RunningServer } from '../support/server';
import { islandHydrated, openCallRequest } from './helpers';
import { configWithout, copyProject, PACKAGING } from '../../scripts/project-copy.mjs';

const SITE_KEY = 'test-site-key';

/** Google's api.js, as far as the forms use it: `render` puts the token field in the widget. */
const stubApi = `
  window.grecaptcha = {
    render(element, options) {
      element.dataset.sitekey = options.sitekey;
      const token = document.createElement('textarea');
      token.name = 'g-recaptcha-response';
      token.hidden = true;
      token.value = window.captchaToken || 'good-token';
      const frame = document.createElement('iframe');
      frame.title = 'reCAPTCHA';
      frame.src = 'https://www.google.com/recaptcha/api2/anchor?k=' + options.sitekey;
      element.append(token, frame);
      return 0;
    },
  };
  window[new URL(document.currentScript.src).searchParams.get('onload')]();
`;

async function stubGoogle(page: Page, token = 'good-token') {
  await page.addInitScript(
    (value) => ((window as { captchaToken?: string }).captchaToken = value),
    token,
  );
  await page.route('https://www.google.com/recaptcha/api.js**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: stubApi }),
  );
  await page.route('https://www.google.com/recaptcha/api2/anchor**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<p>I am not a robot</p>' }),
  );
}

test.describe('with a site key and a secret', () => {
  test.describe.configure({ mode: 'serial', timeout: 60_000 });
  let copy: string;
  let server: RunningServer;
  let verify: Server;
  const checked: string[] = [];

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // The site key is built in (the forms' code, the pages' CSP), so this is a build of a copy with
    // one, without what these tests never load: the steps that package the pages (PACKAGING; the
    // service worker is blocked here, playwright.config.ts), the sitemap and field data's script.
    const root = resolve('.');
    copy = mkdtempSync(join(tmpdir(), 'captcha-build-'));
    copyProject(root, copy);
    const config = configWithout(copy, [...PACKAGING, '@astrojs/sitemap']);
    await promisify(execFile)(
      process.execPath,
      [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--config', config],
      {
        cwd: copy,
        env: {
          ...process.env,
          RECAPTCHA_SITE_KEY: SITE_KEY,
          VITALS: 'off',
          ASTRO_TELEMETRY_DISABLED: '1',
        },
      },
    );
    // Google's verification endpoint: only 'good-token' passes.
    const verifyPort = await freePort();
    verify = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('response') ?? '';
        checked.push(token);
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ success: token === 'good-token' }));
      });
    });
    await new Promise<void>((done) => verify.listen(verifyPort, '127.0.0.1', done));
    server = await startServer({
      DIST_DIR: join(copy, 'dist'),
      RECAPTCHA_SECRET: 'stub-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${verifyPort}/verify`,
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await new Promise((done) => verify?.close(done));
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  async function fillEnquiry(page: Page) {
    const main = page.getByRole('main');
    await main.getByLabel('First name').fill('Grace');
    await main.getByLabel('Last name').fill('Hopper');
    await main.getByLabel('Email').fill('grace@example.com');
    await main.getByLabel('About your project').fill('A booking platform.');
    await islandHydrated(page.getByRole('button', { name: 'Send enquiry' }));
  }

  test('the enquiry form shows the widget, allowed by the CSP, and its token passes', async ({
    page,
  }) => {
    await stubGoogle(page);
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) blocked.push(message.text());
    });
    await page.goto(`${server.url}/contact`);
    await fillEnquiry(page);
    // Google's script ran (the page's CSP let it) and its frame loaded (frame-src let it).
    await expect(page.locator('#captcha [data-sitekey]')).toHaveAttribute('data-sitekey', SITE_KEY);
    await expect(
      page.frameLocator('#captcha iframe[title="reCAPTCHA"]').getByText('I am not a robot'),
    ).toBeVisible();
    expect(blocked).toEqual([]);
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
    expect(checked).toContain('good-token');
  });

  test('a failed check says so and keeps what was typed', async ({ page }) => {
    await stubGoogle(page, 'bad-token');
    await page.goto(`${server.url}/contact`);
    await fillEnquiry(page);
    await expect(page.locator('#captcha [data-sitekey]')).toBeAttached();
    await page.getByRole('button', { name: 'Send enquiry' }).click();
    await expect(page.locator('.error-summary')).toContainText('Confirm that you are not a robot');
    await expect(page.locator('#captcha-error')).toHaveText('Confirm that you are not a robot');
    await expect(page.getByRole('main').getByLabel('First name')).toHaveValue('Grace');
    await expect(page.getByRole('main').getByLabel('About your project')).toHaveValue(
      'A booking platform.',
    );
    expect(checked).toContain('bad-token');
  });

  test('the Schedule a Call form shows the widget and sends its token', async ({ page }) => {
    await stubGoogle(page);
    await page.goto(`${server.url}/iphone`);
    const dialog = await openCallRequest(page, { message: 'Can we talk next week?' });
    await expect(dialog.locator('[data-sitekey]')).toHaveAttribute('data-sitekey', SITE_KEY);
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
  });
});

test('without a site key, nothing of reCAPTCHA loads or is allowed', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const response = await page.goto('/contact');
  expect(response!.headers()['content-security-policy']).not.toContain('google');
  await page.getByRole('main').getByLabel('First name').fill('Grace');
  await islandHydrated(page.getByRole('button', { name: 'Send enquiry' }));
  await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).click();
  await page.waitForLoadState('networkidle');
  expect(requested.filter((url) => url.includes('recaptcha'))).toEqual([]);
  await expect(page.locator('[data-sitekey]')).toHaveCount(0);
});
