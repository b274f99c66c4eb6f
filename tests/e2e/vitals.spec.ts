/**
 * Field data from a real browser, on the production server over a slow phone network: a
 * visit that loads, taps the menu, scrolls and leaves is stored with its LCP, CLS, FCP, TTFB and
 * the tap's INP, under the page's path and nothing that names the visitor; `npm run vitals` reads
 * them; a browser that sends Global Privacy Control sends nothing, and loads nothing for it.
 */
import { execFileSync } from 'node:child_process';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { test } from './shared-page';
import { openStore } from '../../src/server/store/index';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
test.beforeAll(async () => {
  server = await startServer({ VITALS_FLUSH_MS: '50' });
});
test.afterAll(async () => server?.stop());

/** The stored measurements, as the staff's CSV export has them. */
function stored(): Record<string, string>[] {
  const [header, ...rows] = execFileSync(process.execPath, ['src/server/vitals/cli.ts', '--csv'], {
    env: { ...process.env, ENQUIRY_DB: server.database },
  })
    .toString()
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
  return rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])));
}

/** What is stored so far, a line per page and metric (read in this process: it is asked often). */
async function storedMetrics() {
  const store = await openStore({ databasePath: server.database }, { readOnly: true });
  try {
    return (await store.vitalsSince('2000-01-01')).map((r) => `${r.path} ${r.metric}`).sort();
  } finally {
    await store.close();
  }
}

/**
 * A phone on a slow 4G network. Not its slower processor: what is measured does not depend on it,
 * and Chromium's throttling spins the processor it saves (4 s of CPU for this test's two visits).
 */
async function slowPhone(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
}

const phone = {
  viewport: { width: 375, height: 800 },
  screen: { width: 375, height: 800 },
  isMobile: true,
  hasTouch: true,
};

test.describe('field data', () => {
  // Two visits over a slow network, and the store's round trips.
  test.slow();

  test('a visit that loads, taps the menu, scrolls and leaves is stored for its page', async ({
    browser,
  }) => {
    const context = await browser.newContext({ ...phone, serviceWorkers: 'block' });
    const page = await context.newPage();
    await slowPhone(context, page);
    for (const path of ['/iphone', '/about']) {
      const loaded = page.waitForResponse(`${server.url}/field-vitals.js`);
      await page.goto(`${server.url}${path}`);
      await loaded;
      // Arrived is not yet run: on a throttled phone on a busy machine, the page could be left
      // before the script listened for it (a visitor who leaves that soon sends nothing). Importing
      // the page's own module again resolves once it has run.
      await page.evaluate((url) => import(url).then(() => undefined), '/field-vitals.js');
      await page.getByRole('button', { name: 'Menu' }).tap();
      await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      await page.keyboard.press('Escape');
      await page.mouse.wheel(0, 1200);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForTimeout(300);
      // Leaving for another address of the site, as a visitor does: the page is hidden, and sends
      // its beacon (which the browser sends on its own, for no page, so it is seen in the store).
      // The browser stays open meanwhile, as a phone's does: closing it would cancel the beacon
      // still on its slow way up. Not about:blank: leaving for another site's page may end the
      // page's process before a throttled page on a busy machine has run its last handlers.
      await page.goto(`${server.url}/robots.txt`);
    }

    await expect
      .poll(storedMetrics, { timeout: 20_000 })
      .toEqual(
        ['/about', '/iphone']
          .flatMap((path) => ['CLS', 'FCP', 'INP', 'LCP', 'TTFB'].map((m) => `${path} ${m}`))
          .sort(),
      );
    await context.close();
    const rows = stored();
    for (const row of rows) {
      expect(row.device).toBe('phone');
      expect(row.navigation).toBe('navigate');
      expect(['slow-2g', '2g', '3g', '4g', 'unknown']).toContain(row.connection);
      expect(Number(row.value)).toBeGreaterThanOrEqual(0);
    }
    const lcp = rows.find((r) => r.path === '/iphone' && r.metric === 'LCP')!;
    // Throttled: the largest paint waits for at least a round trip of 150 ms.
    expect(Number(lcp.value)).toBeGreaterThan(150);
    expect(lcp.target).not.toBe('');
    const inp = rows.find((r) => r.path === '/iphone' && r.metric === 'INP')!;
    expect(inp.target).toMatch(/button/);
    const phases = [inp.input_delay, inp.processing, inp.presentation].map(Number);
    expect(phases.every((n) => n >= 0)).toBe(true);
    // Nothing that names the visitor: not the address, not the browser.
    expect(JSON.stringify(rows)).not.toMatch(/127\.0\.0\.1|Chrome|Mozilla/);

    // The staff's report has both pages; from one or two visits, a figure is not rated.
    const report = execFileSync(process.execPath, ['src/server/vitals/cli.ts'], {
      env: { ...process.env, ENQUIRY_DB: server.database },
    }).toString();
    expect(report).toMatch(/\/iphone\s+LCP\s+\d+ ms\s+too few visits\s+1\b/);
    expect(report).toMatch(/phone\s+INP\s+\d+ ms\s+too few visits\s+2\b/);
  });

  test('a tap just before leaving, on a phone never idle since, is sent with the page', async ({
    browser,
  }) => {
    const context = await browser.newContext({ ...phone, serviceWorkers: 'block' });
    const page = await context.newPage();
    const loaded = page.waitForResponse(`${server.url}/field-vitals.js`);
    await page.goto(`${server.url}/contact`);
    await loaded;
    await page.evaluate((url) => import(url).then(() => undefined), '/field-vitals.js');
    // Busy from here on, in short tasks: the page is never idle (web-vitals reads what it was handed
    // at the next idle moment, within a second at most), and a tap is still answered.
    await page.evaluate(() => {
      const busy = () => {
        for (const end = performance.now() + 30; performance.now() < end;);
        setTimeout(busy);
      };
      busy();
    });
    await page.getByRole('button', { name: 'Menu' }).tap();
    await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await page.goto(`${server.url}/robots.txt`);
    await expect
      .poll(async () => (await storedMetrics()).filter((line) => line.startsWith('/contact ')), {
        timeout: 20_000,
      })
      .toContain('/contact INP');
    await context.close();
  });

  test('a browser that sends Global Privacy Control loads and sends nothing', async ({
    browser,
  }) => {
    const context = await browser.newContext({ ...phone, serviceWorkers: 'block' });
    await context.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    );
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const before = stored().length;
    await page.goto(`${server.url}/contact`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Menu' }).tap();
    await page.waitForTimeout(1500);
    await page.goto('about:blank');
    await page.waitForTimeout(500);
    await context.close();
    expect(requests.filter((url) => /field-vitals|\/vitals/.test(url))).toEqual([]);
    expect(stored().length).toBe(before);
  });
});
