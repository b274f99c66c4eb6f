// The first-tap benchmark (not a test): how long a visitor on a phone waits, from touching a widget to
// the first frame that shows its answer, on a cold first visit. Playwright on the system Chromium,
// 390 x 844 with touch, a fresh context (empty cache) per visit, CDP network throttling (Slow 3G:
// 400 ms RTT, 400 kbit/s; Slow 4G: 150 ms, 1.6 Mbit/s) with the CPU slowed x4, and an unthrottled run.
// Timed inside the page: from the pointerdown (or keydown) event's timeStamp to the first
// requestAnimationFrame in which the change is visible, so the driver's own round trips do not count.
// Median of 3 visits. Also the JavaScript (gzip and transfer sizes, inline scripts included) the page
// had downloaded just before the tap, and 8 s after it.
//
// Usage: npm run bench:tap [-- --runs 3] [-- --url http://127.0.0.1:4321] [-- --only /laravel] (without
// --url it serves the build on a free loopback port and stops it; --only runs the visits to those
// paths on Slow 3G alone). Writes bench/tap.json. Exits 1 when a widget is
// over 100 ms on Slow 3G + CPU x4, or a reader's JavaScript before the first tap is over 5 KB.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath, inlineScriptBytes, serveBuild } from './local.mjs';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    url: { type: 'string' },
    // Only the visits to these paths, and only the first profile: for trying a change quickly.
    only: { type: 'string', multiple: true },
  },
});
const RUNS = Number(args.runs);
const TAP_BUDGET_MS = 100;
const READER_BUDGET = 5 * 1024;

const profiles = [
  { name: 'Slow 3G, CPU x4', latency: 400, kbits: 400, cpu: 4 },
  { name: 'Slow 4G, CPU x4', latency: 150, kbits: 1600, cpu: 4 },
  { name: 'unthrottled', latency: 0, kbits: 0, cpu: 1 },
];

// Each visit is a page and the taps a visitor makes on it, each the first of its control. A tap
// names the state (below) whose change it waits for.
const visits = [
  {
    path: '/iphone',
    taps: [
      { widget: 'menu: open', state: 'menu', control: (p) => p.locator('.menu-toggle') },
      { widget: 'menu: close', state: 'menu', control: (p) => p.locator('.menu-toggle') },
    ],
  },
  {
    path: '/laravel',
    taps: [
      {
        widget: 'Schedule a Call: open, focus inside',
        state: 'dialog',
        control: (p) => p.locator('header .site-header__cta'),
      },
      {
        widget: 'Schedule a Call: close',
        state: 'dialog',
        control: (p) => p.locator('dialog.call-modal button.icon-button'),
      },
    ],
  },
  {
    path: '/contact',
    taps: [
      {
        widget: 'Schedule a Call: open',
        state: 'dialog',
        control: (p) => p.locator('header .site-header__cta'),
      },
      { widget: 'Schedule a Call: Escape', state: 'dialog', key: 'Escape' },
    ],
  },
  {
    path: '/portfolio',
    taps: [
      {
        widget: 'portfolio filter',
        state: 'filter',
        control: (p) => p.getByRole('radio', { name: 'Apps' }),
      },
      {
        widget: 'lightbox: open',
        state: 'lightbox',
        control: (p) => p.locator('.gallery__item:visible .gallery__link').first(),
      },
      {
        widget: 'lightbox: next',
        state: 'lightbox',
        control: (p) => p.getByRole('button', { name: 'Next project' }),
      },
      {
        widget: 'lightbox: previous',
        state: 'lightbox',
        control: (p) => p.getByRole('button', { name: 'Previous project' }),
      },
      {
        widget: 'lightbox: close',
        state: 'lightbox',
        control: (p) => p.locator('dialog.lightbox button[data-dialog-close]'),
      },
    ],
  },
  {
    path: '/',
    prepare: (p) => p.locator('.carousel--projects').scrollIntoViewIfNeeded(),
    taps: [
      {
        widget: 'carousel: next',
        state: 'carousel',
        control: (p) =>
          p.locator('.carousel--projects').getByRole('button', { name: 'Next slide' }),
      },
      {
        widget: 'carousel: previous',
        state: 'carousel',
        control: (p) =>
          p.locator('.carousel--projects').getByRole('button', { name: 'Previous slide' }),
      },
      {
        widget: 'carousel: pause',
        state: 'carousel',
        control: (p) =>
          p.locator('.carousel--projects').getByRole('button', { name: /^Pause portfolio/ }),
      },
    ],
  },
  {
    path: '/about',
    prepare: (p) => p.getByRole('tab', { name: 'Backend' }).scrollIntoViewIfNeeded(),
    taps: [
      {
        widget: 'About tabs',
        state: 'tabs',
        control: (p) => p.getByRole('tab', { name: 'Backend' }),
      },
    ],
  },
  {
    path: '/android',
    prepare: (p) => p.evaluate(() => window.scrollTo(0, document.body.scrollHeight)),
    taps: [
      {
        widget: 'scroll to top',
        state: 'top',
        control: (p) => p.getByRole('link', { name: 'Back to top' }),
      },
    ],
  },
];

// Injected before the page's own scripts (through the browser's devtools protocol, which the page's
// CSP does not govern): what each widget shows, as a string that changes when it answers, and the
// timer armed before each tap.
function instrument() {
  const shown = (el) => !!el && el.checkVisibility({ opacityProperty: true });
  const states = {
    menu: () => String(shown(document.querySelector('#site-menu a'))),
    dialog: () => {
      const d = document.querySelector('dialog.call-modal');
      return String(!!d?.open && shown(d) && d.contains(document.activeElement));
    },
    filter: () =>
      [...document.querySelectorAll('.gallery__item')].map((i) => (shown(i) ? 1 : 0)).join(''),
    lightbox: () => {
      const d = document.querySelector('dialog.lightbox');
      if (!d?.open || !shown(d)) return 'closed';
      return [...d.querySelectorAll('img')].find(shown)?.getAttribute('src') ?? 'empty';
    },
    carousel: () => {
      const c = document.querySelector('.carousel--projects');
      const slide = c.querySelector('.carousel__slide').getBoundingClientRect().left;
      const pause = c.querySelector('[aria-pressed]')?.getAttribute('aria-pressed');
      return `${Math.round(slide)} ${pause}`;
    },
    tabs: () => String(shown(document.getElementById('stack-backend'))),
    top: () => String(Math.round(window.scrollY)),
  };
  window.__bench = {
    arm(state, type) {
      const before = states[state]();
      this.result = new Promise((resolve) => {
        addEventListener(
          type,
          (event) => {
            const start = event.timeStamp;
            const frame = () =>
              requestAnimationFrame(() => {
                if (states[state]() !== before) resolve(performance.now() - start);
                else if (performance.now() - start > 30_000) resolve(null);
                else frame();
              });
            frame();
          },
          { capture: true, once: true },
        );
      });
    },
  };
}

if (!args.url && !existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const server = args.url ? null : await serveBuild();
const base = args.url ?? server.url;
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

/** One cold visit under a profile: every tap's time, and the page's JavaScript before and after. */
async function visit(profile, { path, prepare, taps }) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  await page.addInitScript(instrument);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (profile.kbits) {
    const bytes = (profile.kbits * 1000) / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.latency,
      downloadThroughput: bytes,
      uploadThroughput: bytes,
    });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
  const scripts = new Map();
  page.on('requestfinished', async (request) => {
    if (request.resourceType() !== 'script') return;
    try {
      const { responseBodySize } = await request.sizes();
      // A script the service worker answered has no transfer size (-1): count what it holds, gzip.
      scripts.set(
        request.url(),
        responseBodySize >= 0
          ? responseBodySize
          : gzipSync(await (await request.response()).body()).length,
      );
    } catch {}
  });
  const javascript = async () =>
    (await inlineScriptBytes(page)) + [...scripts.values()].reduce((a, b) => a + b, 0);

  await page.goto(base + path, { waitUntil: 'load', timeout: 120_000 });
  if (prepare) await prepare(page);
  const results = [];
  for (const tap of taps) {
    const before = await javascript();
    // A control the page does not have yet (an older build's, before hydration) is reported as such.
    if (!tap.key && (await tap.control(page).count()) === 0) {
      results.push({ widget: tap.widget, ms: undefined, before });
      continue;
    }
    await page.evaluate(
      ([state, type]) => window.__bench.arm(state, type),
      [tap.state, tap.key ? 'keydown' : 'pointerdown'],
    );
    if (tap.key) await page.keyboard.press(tap.key);
    else await tap.control(page).tap({ timeout: 30_000 });
    const ms = await page.evaluate(() => window.__bench.result);
    results.push({ widget: tap.widget, ms, before });
  }
  await page.waitForTimeout(8000);
  const after = await javascript();
  await context.close();
  return results.map((r) => ({ ...r, after }));
}

const median = (values) => {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
};
const kb = (bytes) => Math.round(bytes / 102.4) / 10;

const rows = [];
for (const profile of args.only ? profiles.slice(0, 1) : profiles) {
  for (const v of visits.filter((v) => !args.only || args.only.includes(v.path))) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await visit(profile, v));
    runs[0].forEach((first, t) => {
      const samples = runs.map((run) => run[t]);
      const absent = samples.every((s) => s.ms === undefined);
      rows.push({
        widget: first.widget,
        profile: profile.name,
        // The first tap of its visit: the page's JavaScript before it is what a reader downloads.
        firstOnPage: t === 0,
        ms: absent ? 'absent' : median(samples.map((s) => s.ms)),
        runs: samples.map((s) => (typeof s.ms === 'number' ? Math.round(s.ms) : (s.ms ?? null))),
        jsBeforeKB: kb(median(samples.map((s) => s.before))),
        jsAfterKB: kb(median(samples.map((s) => s.after))),
      });
    });
  }
}
await browser.close();
await server?.stop();

mkdirSync('bench', { recursive: true });
writeFileSync(
  'bench/tap.json',
  `${JSON.stringify({ date: new Date().toISOString(), url: base, runs: RUNS, rows }, null, 2)}\n`,
);
console.log('First tap to the first frame showing the change (median ms), and the JavaScript');
console.log('(gzip, KB) downloaded before the first tap and 8 s after the last one on that page:');
console.table(
  rows.map((r) => ({
    widget: r.widget,
    profile: r.profile,
    'ms (median)':
      r.ms === null ? 'no change' : r.ms === 'absent' ? 'no control yet' : Math.round(r.ms),
    'JS before': r.jsBeforeKB,
    'JS after': r.jsAfterKB,
  })),
);
const slow = rows.filter(
  (r) => r.profile === profiles[0].name && (typeof r.ms !== 'number' || r.ms > TAP_BUDGET_MS),
);
const heavy = rows.filter((r) => r.firstOnPage && r.jsBeforeKB * 1024 > READER_BUDGET);
if (slow.length) console.log(`Over ${TAP_BUDGET_MS} ms on Slow 3G: ${slow.map((r) => r.widget)}`);
if (heavy.length)
  console.log(`Over 5 KB of JavaScript before the tap: ${heavy.map((r) => r.widget)}`);
process.exitCode = slow.length || heavy.length ? 1 : 0;
