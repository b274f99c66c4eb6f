/**
 * The site without a connection: the service worker (src/offline/worker.ts) and the enquiries kept
 * on the device (src/offline/device-queue.ts). The network goes with `context.setOffline`, or one request
 * fails or hangs with `page.route`; what reached the server is read with the staff CLI.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type BrowserContext, type Locator, type Page, type Route } from '@playwright/test';
import { test } from './shared-page';
import { readStore, startServer } from '../support/server';
import { chooseFirstTime, islandHydrated, openCallRequest, violations } from './helpers';
import { e2eDatabase } from '../support/site';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 60_000 });
// The page registers its worker 5 s after it has loaded (BaseLayout.astro): each page's clock is
// Playwright's (it runs as the real one until a test moves it on), so that offlineReady can skip
// those 5 s as a visitor who waits them does, rather than wait them out in every test.
test.beforeEach(({ page }) => page.clock.install());

/**
 * Moves the loaded page's clock past the 5 s after which it registers its worker, and waits until
 * the worker controls the page and has kept the page itself on the device.
 */
async function offlineReady(page: Page) {
  await page.clock.fastForward(5000);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  await expect
    .poll(() => page.evaluate(() => caches.match(location.href).then(Boolean)))
    .toBe(true);
}

/** The paths of everything the worker keeps on the device, in any of its caches. */
const keptPaths = (page: Page) =>
  page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        paths.push(new URL(request.url).pathname + new URL(request.url).search);
      }
    }
    return paths;
  });

/** Enquiries kept on the device (IndexedDB), without creating the database if there is none. */
const keptOnDevice = (page: Page) =>
  page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'enquiry-outbox')) return 0;
    return new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('enquiry-outbox');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const count = open.result.transaction('enquiries').objectStore('enquiries').count();
        count.onsuccess = () => resolve(count.result);
      };
    });
  });

/**
 * How many stored enquiries have this e-mail address, read in this process as booking.spec reads its
 * calls: it is polled, and a CLI process per look cost more than the rest of the test (the CLI's
 * own listing has its tests in tests/integration/).
 */
const storedWith = async (email: string, database = e2eDatabase) =>
  (await readStore(database)).filter((enquiry) => enquiry.email === email).length;

/**
 * The page's next tries, 30 s apart on its clock, until one is sent: the try it makes as it keeps a
 * post can still be on its way when the test's clock moves (a loaded machine), and the next try is
 * then 30 s on.
 */
async function nextTriesUntilSent(page: Page, status: Locator) {
  await expect(async () => {
    await page.clock.runFor(30_000);
    await expect(status).toContainText('Sent. We have your call request', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

/**
 * A server of the test's own whose connection really drops: the context goes offline and the server
 * stops. Offline emulation alone is not enough: a service worker woken while the context is offline
 * can start before Playwright's emulation reaches it, and on CI its Background Sync post got through.
 */
async function siteThatDrops(context: BrowserContext) {
  let server = await startServer();
  const { url, database } = server;
  return {
    url,
    storedWith: (email: string) => storedWith(email, database),
    async drop() {
      await context.setOffline(true);
      await server.stop();
    },
    async restore() {
      server = await startServer({ PORT: new URL(url).port, ENQUIRY_DB: database });
      await context.setOffline(false);
    },
    // The server first: a test that ran out of time has had its context closed, and setOffline throws.
    [Symbol.asyncDispose]: async () => {
      await server.stop();
      await context.setOffline(false).catch(() => {});
    },
  };
}

const uniqueEmail = (name: string) =>
  `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;

async function fillEnquiry(page: Page, email: string) {
  const main = page.getByRole('main');
  await main.getByLabel('First name').fill('Grace');
  await main.getByLabel('Last name').fill('Hopper');
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Phone number').fill('+44 20 7946 0958');
  await page.getByRole('checkbox', { name: 'Web Development' }).check();
  await main.getByLabel('About your project').fill('A booking platform for 12 clinics.');
}

test.describe('pages without a connection', () => {
  test('a page opened before opens again offline, with its pictures', async ({ page, context }) => {
    // The home page: its hero and its service columns' icons are one SVG file's symbols (its
    // sprite), its carousels' pictures and its testimonials' logos images.
    await page.goto('/');
    await offlineReady(page);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The sprite is one file kept, whatever symbol of it each picture shows.
    const sprites = await page
      .locator('main svg use')
      .evaluateAll((uses) => uses.map((use) => use.getAttribute('href')!.split('#')[0]!));
    expect(sprites.length).toBeGreaterThan(1);
    expect(new Set(sprites).size).toBe(1);
    expect((await keptPaths(page)).filter((path) => path.includes('/_astro/sprite.'))).toEqual([
      sprites[0],
    ]);
    // Every picture of the page is there for it, the pictures in the carousels' slides out of view
    // (lazy, asked for only when a slide comes into view) included.
    const images = await page
      .locator('main img')
      .evaluateAll((images) => images.map((img) => (img as HTMLImageElement).src));
    expect(images.length).toBeGreaterThan(1);
    for (const source of [sprites[0]!, ...images])
      expect(
        await page.evaluate(async (src) => {
          const answer = await fetch(src).catch(() => undefined);
          return !!answer?.ok && (await answer.blob()).type.startsWith('image/');
        }, source),
        source,
      ).toBe(true);
  });

  test('a screenshot in the portfolio opens offline, whatever size the screen then asks for', async ({
    page,
    context,
  }) => {
    await page.goto('/portfolio');
    await offlineReady(page);
    // One size of it is kept with the page, not every size and format its srcset offers.
    await expect
      .poll(async () =>
        (await keptPaths(page)).filter((path) => path.startsWith('/_astro/northgate-website.')),
      )
      .toHaveLength(1);

    // Offline, with nothing in the browser's own cache, and a window of another size.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await context.setOffline(true);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    const image = page
      .locator('.gallery__item', { hasText: 'Northgate Digital website' })
      .locator('img');
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  });

  // Both from one page made ready offline (a context and a worker of its own for each cost more).
  test('offline, an address the site does not have shows the not-found page, and a page never opened the offline page, with the agency’s e-mail and address', async ({
    page,
    context,
  }) => {
    await page.goto('/about');
    await offlineReady(page);
    await context.setOffline(true);
    await test.step('an address the site does not have shows the not-found page offline', async () => {
      const response = await page.goto('/no-such-page');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'We could not find that page',
      );
    });
    await test.step('a page never opened shows the offline page, with the agency’s e-mail and address', async () => {
      await page.goto('/iphone');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'This page is not on your device yet',
      );
      await expect(
        page.getByRole('main').getByRole('link', { name: 'hello@northgate-digital.example' }),
      ).toHaveAttribute('href', 'mailto:hello@northgate-digital.example');
      await expect(page.getByRole('main').locator('address')).toContainText(
        '120 Cranbrook Road, Ilford',
      );
      expect(await violations(page)).toEqual([]);
      // Once the connection is back, 'Try again' opens the page that was asked for.
      await context.setOffline(false);
      await page.getByRole('link', { name: 'Try again' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('iPhone App Development');
    });
  });

  test('posts, their answers, the health check and the booking pages are never kept', async ({
    page,
  }) => {
    await page.goto('/contact');
    await offlineReady(page);
    await page.evaluate(async () => {
      await fetch('/healthz');
      await fetch('/send-mail.php', { method: 'POST', body: new FormData() });
      await fetch('/schedule/slots.json');
    });
    // Free times change by the minute, and a booking's pages are someone's own: under any spelling
    // the server answers to, since the worker keeps only the build's own pages.
    await page.goto('/schedule');
    await page.goto('/sch%65dule');
    await page.goto('/schedule/');
    await page.goto('/schedule//booked?ref=00000000-0000-4000-8000-000000000000');
    await page.goto('/schedule/booked?ref=00000000-0000-4000-8000-000000000000');
    await page.goto('/contact');
    // A native post (the form without its script): the server answers with the form and its errors.
    await page.evaluate(() =>
      document.querySelector<HTMLFormElement>('form[action="/send-mail.php"]')!.submit(),
    );
    await expect(page.getByText('Name is required.').first()).toBeVisible();
    const kept = await keptPaths(page);
    expect(kept.length).toBeGreaterThan(0);
    expect(
      kept.filter((url) => /healthz|send-mail\.php|email\.php|schedule|sch%65dule/.test(url)),
    ).toEqual([]);
  });

  test('a page the server says not to store (an editor’s preview of a draft) is not kept, open as the worker starts or later', async ({
    page,
    context,
  }) => {
    // The live editor's preview answers the public addresses with the draft, `no-store`.
    await context.route('**/about', async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'cache-control': 'no-store' },
      });
    });
    await page.goto('/about');
    await page.clock.fastForward(5000);
    // Activated: the pages open before it are kept, or not, by then.
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
    await page.reload();
    expect((await keptPaths(page)).filter((path) => path.startsWith('/about'))).toEqual([]);
  });
});

/**
 * A call request (with the first free time, `withTime`) sent from /iphone's dialog with no connection:
 * kept on the phone, the dialog closed, the connection still off.
 */
async function keepCallOffline(
  page: Page,
  context: BrowserContext,
  who: string,
  { withTime = false } = {},
) {
  await page.goto('/iphone');
  await offlineReady(page);
  const dialog = await openCallRequest(page, { email: uniqueEmail(who) });
  if (withTime) {
    await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
    await dialog
      .getByRole('group', { name: /^Free times on / })
      .getByRole('radio')
      .first()
      .check();
  }
  await context.setOffline(true);
  await dialog
    .getByRole('button', { name: withTime ? 'Book this call' : 'Request a call' })
    .click();
  await expect(dialog.getByRole('status')).toContainText('Saved on this phone');
  await dialog.getByRole('button', { name: 'Close' }).click();
}

test.describe('enquiries without a connection', () => {
  // Sent by the worker's Background Sync once the connection returns: the page reloaded offline is
  // never told it is back (Chromium's emulated network), and the headless shell has no Background
  // Sync, so this one runs in the whole browser (playwright.config.ts).
  test(
    'an enquiry sent offline is kept on the phone, survives a reload and is stored once when the connection returns',
    { tag: '@whole-browser' },
    async ({ page, context }) => {
      await using site = await siteThatDrops(context);
      const email = uniqueEmail('grace');
      await page.goto(`${site.url}/contact`);
      await offlineReady(page);
      await fillEnquiry(page, email);
      await site.drop();
      await islandHydrated(page.getByRole('button', { name: 'Send enquiry' }));
      await page.getByRole('button', { name: 'Send enquiry' }).click();

      const status = page.getByRole('main').getByRole('status');
      await expect(status).toContainText('Saved on this phone');
      await expect(status).toContainText('sent automatically');
      await expect(status).toBeFocused();
      await expect(page.locator('.form__failure')).toHaveCount(0);
      expect(await keptOnDevice(page)).toBe(1);

      // Still offline, the page comes from the device, and says the enquiry is waiting.
      await page.reload();
      const notice = page.locator('.outbox');
      await expect(notice).toContainText('Saved on this phone');
      expect(await keptOnDevice(page)).toBe(1);
      expect(await site.storedWith(email)).toBe(0);
      expect(await violations(page)).toEqual([]);

      await site.restore();
      await expect(notice).toContainText('Sent. We have your enquiry');
      await expect.poll(() => site.storedWith(email)).toBe(1);
      expect(await keptOnDevice(page)).toBe(0);
      // The page, the worker's Background Sync and the next visit may all have tried: still one.
      await page.reload();
      await page.waitForTimeout(1000);
      expect(await site.storedWith(email)).toBe(1);
      await expect(notice).toBeEmpty();
    },
  );

  test('a call request sent offline is kept, shown once its dialog is closed, and sent once', async ({
    page,
    context,
  }) => {
    await using site = await siteThatDrops(context);
    const email = uniqueEmail('ada');
    await page.goto(`${site.url}/iphone`);
    await offlineReady(page);
    const dialog = await openCallRequest(page, { email });
    await site.drop();
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(dialog.getByRole('status')).toContainText(
      'Saved on this phone. There is no connection just now, so your call request will be sent',
    );
    expect(await violations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    const notice = page.locator('.outbox');
    await expect(notice).toContainText('Saved on this phone');

    await site.restore();
    await expect(notice).toContainText('Sent. We have your call request');
    await expect.poll(() => site.storedWith(email)).toBe(1);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toBeEmpty();
  });

  test('a kept call request the server then refuses is shown with what was written, until dismissed, in every tab', async ({
    page,
    context,
  }) => {
    await keepCallOffline(page, context, 'refused');
    // A second tab of the site, opened from the phone while still offline, shows it waiting.
    const other = await context.newPage();
    await other.goto('/iphone');
    const otherNotice = other.locator('.outbox');
    await expect(otherNotice).toContainText('Saved on this phone');
    // Back online, the server refuses it (the page's post and the worker's alike).
    await context.route('**/send-mail.php', (route) =>
      route.fulfill({ status: 422, json: { errors: { email: 'Valid email is required.' } } }),
    );
    await context.setOffline(false);
    const notice = page.locator('.outbox');
    await expect(notice).toContainText(
      'Your call request could not be sent. Valid email is required.',
    );
    await expect(notice).toContainText('Can we talk about an iPad app next week?');
    expect(await keptOnDevice(page)).toBe(1);
    expect(await violations(page)).toEqual([]);
    await expect(otherNotice).toContainText('Your call request could not be sent.');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toBeEmpty();
    await expect.poll(() => keptOnDevice(page)).toBe(0);
    // Dismissed here, gone from the other tab too, without a reload.
    await expect(otherNotice).toBeEmpty();
  });

  test('a kept booking whose time is taken meanwhile says so, and books another time from what was written', async ({
    page,
    context,
  }) => {
    await keepCallOffline(page, context, 'taken', { withTime: true });
    // Back online, someone else has the time: the server refuses it with the nearest free ones.
    const taken = (route: Route) =>
      route.fulfill({
        status: 409,
        json: {
          errors: { slot: 'That time was just taken. Here are the nearest free ones.' },
          alternatives: [{ start: '2027-01-05T10:00:00.000Z', end: '2027-01-05T10:30:00.000Z' }],
        },
      });
    await context.route('**/send-mail.php', taken);
    await context.setOffline(false);
    const notice = page.locator('.outbox');
    // Not "here are the nearest free ones", which the notice does not have.
    await expect(notice).toContainText(
      'Your call could not be booked. Its time was taken by someone else while it waited on this phone. Choose another time',
    );
    await expect(notice).not.toContainText('Here are');
    await expect(notice).toContainText('Can we talk about an iPad app next week?');
    expect(await violations(page)).toEqual([]);
    // Kept until dismissed, on the next page too; without JavaScript the link leads to /schedule.
    await page.reload();
    const again = notice.getByRole('link', { name: 'Choose another time' });
    await expect(again).toHaveAttribute('href', '/schedule');
    await context.unroute('**/send-mail.php', taken);

    // The dialog, with what was written in its form, and the free times asked for.
    await again.click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a Call' });
    await expect(dialog.getByLabel('Name')).toHaveValue('Ada Lovelace');
    await expect(dialog.getByLabel('Email')).toHaveValue(/^taken/);
    await expect(dialog.getByLabel('Message')).toHaveValue(
      'Can we talk about an iPad app next week?',
    );
    const day = dialog.getByLabel('Day');
    await expect(day).toBeFocused();
    expect(page.url()).not.toMatch(/\/schedule$/);
    expect(await violations(page)).toEqual([]);
    await chooseFirstTime(dialog, 1);
    await dialog.getByRole('button', { name: 'Book this call' }).click();
    await expect(page).toHaveURL(/\/schedule\/booked\?token=/);
    // The refused request is done with: gone from the device and from the notice.
    await expect.poll(() => keptOnDevice(page)).toBe(0);
    await page.goto('/iphone');
    await expect(notice).toBeEmpty();
  });

  test('a post that gets no answer in time is kept, and sent later', async ({ page, context }) => {
    const email = uniqueEmail('hedy');
    await page.goto('/iphone');
    await offlineReady(page);
    // The server answers no post, the page's or the worker's.
    await context.route('**/send-mail.php', () => {});
    const dialog = await openCallRequest(page, { email });
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(dialog.getByRole('button', { name: 'Sending…' })).toBeVisible();
    await page.clock.runFor(15_000);
    await expect(dialog.getByRole('status')).toContainText('Saved on this phone');
    expect(await keptOnDevice(page)).toBe(1);

    // The connection seems up, so no `online` event will come: the page tries again every 30 s.
    await context.unroute('**/send-mail.php');
    await nextTriesUntilSent(page, dialog.getByRole('status'));
    await expect.poll(() => storedWith(email)).toBe(1);
  });

  test('a post the server cannot take just now (503: its database is down) is kept, and sent once it can', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('mary');
    await page.goto('/iphone');
    await offlineReady(page);
    // The server answers as it does when its database is down, to the page and to the worker.
    await context.route('**/send-mail.php', (route) =>
      route.fulfill({
        status: 503,
        json: {
          error:
            'Enquiries cannot be taken right now, and nothing was sent. Please try again in a minute.',
        },
        headers: { 'Retry-After': '30' },
      }),
    );
    const dialog = await openCallRequest(page, { email });
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(dialog.getByRole('status')).toContainText(
      'Saved on this phone. We could not take your call request just now',
    );
    expect(await keptOnDevice(page)).toBe(1);
    expect(await storedWith(email)).toBe(0);

    await context.unroute('**/send-mail.php');
    await nextTriesUntilSent(page, dialog.getByRole('status'));
    await expect.poll(() => storedWith(email)).toBe(1);
  });

  test('a post a proxy answers 502 (the server restarting, not the site) is kept, and sent later', async ({
    page,
    context,
  }) => {
    const email = uniqueEmail('radia');
    await page.goto('/iphone');
    await offlineReady(page);
    // As Caddy answers while the only process restarts: a page of its own, not the site's JSON.
    let restarting = true;
    await context.route('**/send-mail.php', (route) =>
      restarting
        ? route.fulfill({
            status: 502,
            contentType: 'text/html',
            body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
          })
        : route.fallback(),
    );
    const dialog = await openCallRequest(page, { email });
    await dialog.getByRole('button', { name: 'Request a call' }).click();
    await expect(dialog.getByRole('status')).toContainText('Saved on this phone');
    expect(await keptOnDevice(page)).toBe(1);
    expect(await storedWith(email)).toBe(0);

    // The server is back: the page's next try (every 30 s) gets it there, once.
    restarting = false;
    await nextTriesUntilSent(page, dialog.getByRole('status'));
    await expect.poll(() => storedWith(email)).toBe(1);
    expect(await keptOnDevice(page)).toBe(0);
  });

  // One page answered each way in turn (a context and a worker of its own for each cost more than
  // the check); each answer a step, on a fresh load.
  test('a 429 or a 422 answer is shown as today and nothing is kept', async ({ page }) => {
    for (const [status, body, shown] of [
      [
        429,
        // The server's own words (src/server/requests/post-gate.ts).
        {
          error: 'You have sent several messages in a short time. Please try again in 8 minutes.',
        },
        'Please try again in 8 minutes.',
      ],
      [422, { errors: { email: 'Valid email is required.' } }, 'Valid email is required.'],
    ] as const) {
      await test.step(`a ${status} answer is shown as today and nothing is kept`, async () => {
        await page.goto('/iphone');
        await offlineReady(page);
        await page.unrouteAll();
        await page.route('**/send-mail.php', (route) =>
          route.fulfill({ status, json: body, headers: { 'Content-Type': 'application/json' } }),
        );
        const dialog = await openCallRequest(page, { email: uniqueEmail('refused') });
        await dialog.getByRole('button', { name: 'Request a call' }).click();
        await expect(dialog.getByText(shown).first()).toBeVisible();
        // One time to come back, the server's: not "in 8 minutes" and "in a moment" together.
        expect(await dialog.innerText()).not.toContain('in a moment');
        await expect(dialog.getByRole('status')).toHaveCount(0);
        expect(await keptOnDevice(page)).toBe(0);
      });
    }
  });
});

/**
 * Runs a wait on the service worker; if it fails, its error says which workers the page's
 * registration has, and in what state (a new one installing, waiting, or none came), for the next
 * reader of a failure seen only on a loaded machine.
 */
async function withWorkerStates(page: Page, wait: () => Promise<unknown>) {
  try {
    await wait();
  } catch (error) {
    const states = await page
      .evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        const state = (worker?: ServiceWorker | null) => worker?.state ?? 'none';
        return `installing ${state(registration?.installing)}, waiting ${state(registration?.waiting)}, active ${state(registration?.active)}`;
      })
      .catch((reason: unknown) => `not read: ${String(reason)}`);
    (error as Error).message += `\nThe page's service workers: ${states}`;
    throw error;
  }
}

test('a new build’s page replaces the copy on the device once the network answers', async ({
  page,
  context,
}) => {
  // Two servers' starts, two loads and a new worker's install (below): more than the 60 s a test has.
  test.setTimeout(180_000);
  // A build of our own to change: a copy of dist/ inside the project (its server code resolves
  // node_modules from there), served by a server of its own.
  mkdirSync('test-results', { recursive: true });
  const dist = mkdtempSync(join('test-results', 'offline-build-'));
  cpSync('dist', dist, { recursive: true });
  let server = await startServer({ DIST_DIR: dist });
  try {
    await page.goto(`${server.url}/about`);
    await offlineReady(page);
    const oldCaches = await page.evaluate(() => caches.keys());
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meet the company');
    await context.setOffline(false);

    // The next deploy: new copy on the page, and a worker of a new build (its caches' names change).
    await server.stop();
    const about = join(dist, 'client/about/index.html');
    writeFileSync(
      about,
      readFileSync(about, 'utf8').replace('Meet the company', 'Meet the new company'),
    );
    rmSync(`${about}.br`);
    rmSync(`${about}.gz`);
    const worker = join(dist, 'client/sw.js');
    const code = readFileSync(worker, 'utf8');
    const buildId = /sw-[0-9a-f]{12}/.exec(code)![0];
    writeFileSync(worker, code.replaceAll(buildId, 'sw-000000000000'));
    rmSync(`${worker}.br`);
    rmSync(`${worker}.gz`);
    server = await startServer({ DIST_DIR: dist, PORT: new URL(server.url).port });

    await page.goto(`${server.url}/about`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meet the new company');
    // The new worker takes over and drops the old build's caches: found by the browser's own check
    // after the navigation (skipping the page's 5 s before it registers, as offlineReady does; on a
    // loaded machine that check alone took over 15 s). Its install and activation fetch the page it
    // keeps: beside two CPU burners and the rest of `npm test` (2026-12-03) that took over 30 s, so
    // the wait has 90 (a wait that succeeds ends at once). When that one check is put off or lost
    // (Chromium defers it while the old worker is busy; once in a stress run, 2026-12-05, no new
    // worker came in 90 s), the page asks again after 20 s, as the visitor's next page would.
    await page.waitForLoadState('load');
    await page.clock.fastForward(5000);
    const waitFrom = Date.now();
    await withWorkerStates(page, () =>
      expect
        .poll(
          async () => {
            const names = await page.evaluate(() => caches.keys());
            if (!names.includes('pages-sw-000000000000') && Date.now() - waitFrom > 20_000) {
              await page.evaluate(() =>
                navigator.serviceWorker
                  .getRegistration()
                  .then((registration) => registration?.update()),
              );
            }
            return names;
          },
          { timeout: 90_000, intervals: [250, 500, 1000, 2000, 5000] },
        )
        .toContain('pages-sw-000000000000'),
    );
    const now = await page.evaluate(() => caches.keys());
    expect(now.filter((name) => oldCaches.includes(name) && name.includes(buildId))).toEqual([]);
    await expect
      .poll(() => page.evaluate(() => caches.match(location.href).then(Boolean)))
      .toBe(true);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meet the new company');
  } finally {
    await context.setOffline(false);
    await server.stop();
    rmSync(dist, { recursive: true, force: true });
  }
});
