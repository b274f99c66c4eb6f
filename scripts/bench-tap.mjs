// The first-tap benchmark (not a test): how long a visitor on a phone waits, from touching a widget to
// the first frame that shows its answer, on a cold first visit. Playwright on the system Chromium,
// 390 x 844 with touch, a fresh context (empty cache) per visit, CDP network throttling (Slow 3G:
// 400 ms RTT, 400 kbit/s; Slow 4G: 150 ms, 1.6 Mbit/s) with the CPU slowed x4, and an unthrottled run.
// Timed inside the page: from the pointerdown (or keydown) event's timeStamp to the first
// requestAnimationFrame in which the change is visible, so the driver's own round trips do not count.
// Median of 3 visits, the pages and the reference visited in turns. Also the JavaScript (gzip and
// transfer sizes, inline scripts included, field data's script apart) the page had downloaded just
// before the tap, and 8 s after it.
//
// Each widget is also reported as a ratio to a reference measured in the same run, under the same
// profile: a bare page (served by this script) with a menu and a <dialog>, one line of inline script
// each, the least any page can do. The ratio, unlike the milliseconds, holds on a busy machine.
//
// Most visits tap once the page has loaded; the first moves are also tapped right after
// DOMContentLoaded (widgets marked "at DOMContentLoaded"), while the page is still fetching and
// decoding the rest, as a visitor who taps at once does.
//
// Usage: npm run bench:tap [-- --runs 3] [-- --url http://127.0.0.1:4321] [-- --only /laravel] (without
// --url it serves the build on a free loopback port and stops it; --only runs the visits to those
// paths on Slow 3G alone, with the reference). Writes bench/tap.json. Exits 1 when a widget is over
// 1.5 times its reference on Slow 3G + CPU x4, or a reader's JavaScript before the first tap is over
// 5 KB (field data apart, as the size budgets count it: scripts/budgets.mjs).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath, inlineScriptBytes, serveBuild } from './local.mjs';
import { BEFORE_IDLE_BUDGET, isFieldData } from './budgets.mjs';
import { frameTimer } from './frame-timer.mjs';
import { scriptArgs } from './script-args.mjs';

const { values: args } = scriptArgs(import.meta.url, {
  options: {
    runs: { type: 'string', default: '3' },
    url: { type: 'string' },
    // Only the visits to these paths, and only the first profile: for trying a change quickly.
    only: { type: 'string', multiple: true },
  },
});
const RUNS = Number(args.runs);
// A widget may take at most this many times its reference's time.
const TAP_BUDGET_RATIO = 1.5;

const profiles = [
  { name: 'Slow 3G, CPU x4', latency: 400, kbits: 400, cpu: 4 },
  { name: 'Slow 4G, CPU x4', latency: 150, kbits: 1600, cpu: 4 },
  { name: 'unthrottled', latency: 0, kbits: 0, cpu: 1 },
];

// The reference: the same controls (by class) as the site's, so that the same states time them. Its
// strip of slides moves by the browser's own smooth scroll, as the carousels' first move does: a
// smooth scroll shows its first step a frame after an instant change (the menu's), so a carousel's
// step is compared with this one, the least a page can do for a step that glides.
const referencePage = `<!doctype html>
<html lang="en"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Reference</title>
<header><button class="menu-toggle" aria-expanded="false">Menu</button>
<a class="site-header__cta" href="/schedule">Schedule a Call</a></header>
<nav id="site-menu" hidden><a href="/">Home</a> <a href="/about">About</a></nav>
<dialog class="call-modal"><button class="icon-button">Close</button> <input aria-label="Name"></dialog>
<div class="carousel carousel--projects"><div class="carousel__viewport" style="display:flex;overflow-x:auto;scroll-snap-type:x mandatory">
${'<div class="carousel__slide" style="flex:0 0 100%;height:200px;scroll-snap-align:start;background:#dde"></div>'.repeat(3)}
</div><button class="carousel__next">Next slide</button></div>
<script>document.querySelector('.menu-toggle').onclick = (e) => { document.getElementById('site-menu').hidden = e.currentTarget.ariaExpanded === 'true'; e.currentTarget.ariaExpanded = String(!document.getElementById('site-menu').hidden) };</script>
<script>document.querySelector('.site-header__cta').onclick = (e) => { e.preventDefault(); document.querySelector('dialog').showModal() }; document.querySelector('dialog button').onclick = () => document.querySelector('dialog').close();</script>
<script>document.querySelector('.carousel__next').onclick = () => { const v = document.querySelector('.carousel__viewport'); v.scrollTo({ left: v.scrollLeft + v.clientWidth, behavior: 'smooth' }) };</script>
</html>`;
// Each kind of tap the pages make first is the first tap of a visit of its own here too: the first
// tap on a page, any page, takes longer than the ones after it (on this machine's Chromium the bare
// page's first tap some 80 ms, its later ones some 40, under Slow 3G and CPU x4), so a page's first
// tap is compared with a first tap, and a second with a second.
const referenceVisits = [
  [
    { widget: 'menu: open', state: 'menu', control: (p) => p.locator('.menu-toggle') },
    { widget: 'menu: close', state: 'menu', control: (p) => p.locator('.menu-toggle') },
  ],
  [
    { widget: 'dialog: open', state: 'dialog', control: (p) => p.locator('.site-header__cta') },
    {
      widget: 'dialog: close',
      state: 'dialog',
      control: (p) => p.locator('dialog.call-modal button'),
    },
  ],
  [{ widget: 'carousel: next', state: 'carousel', control: (p) => p.locator('.carousel__next') }],
].map((taps) => ({ path: '/reference', reference: true, taps }));

// Each visit is a page and the taps a visitor makes on it, each the first of its control. A tap
// names the state (below) whose change it waits for, and the reference tap it is compared with.
const visits = [
  {
    path: '/iphone',
    taps: [
      { widget: 'menu: open', state: 'menu', control: (p) => p.locator('.menu-toggle') },
      { widget: 'menu: close', state: 'menu', control: (p) => p.locator('.menu-toggle') },
    ],
  },
  // The first moves tapped at once, while the page still loads: the menu and the dialog.
  ...['/', '/iphone'].flatMap((path) => [
    {
      path,
      early: true,
      taps: [
        {
          widget: `menu: open (${path}, at DOMContentLoaded)`,
          state: 'menu',
          control: (p) => p.locator('.menu-toggle'),
        },
      ],
    },
    {
      path,
      early: true,
      taps: [
        {
          widget: `Schedule a Call: open (${path}, at DOMContentLoaded)`,
          state: 'dialog',
          control: (p) => p.locator('header .site-header__cta'),
        },
      ],
    },
  ]),
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
    path: '/',
    taps: [
      {
        widget: 'Schedule a Call: open (/)',
        state: 'dialog',
        control: (p) => p.locator('header .site-header__cta'),
      },
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

// Opening a dialog is compared with opening the bare <dialog>, closing one with closing it; a
// carousel's step with the bare strip's smooth step; every other change (an attribute, an item
// shown, a scroll to the top) with the bare menu's.
const referenceOf = ({ widget, state }) => {
  if (state === 'dialog' || (state === 'lightbox' && /open|close/.test(widget)))
    return /close|Escape/.test(widget) ? 'dialog: close' : 'dialog: open';
  if (state === 'carousel' && /next|previous/.test(widget)) return 'carousel: next';
  return /^menu: close/.test(widget) ? 'menu: close' : 'menu: open';
};

// What each widget shows, as a string that changes when it answers (made in the page: frame-timer.mjs).
function states() {
  const shown = (el) => !!el && el.checkVisibility({ opacityProperty: true });
  return {
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
}

if (!args.url && !existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const server = args.url ? null : await serveBuild();
const base = args.url ?? server.url;
const reference = createServer((_request, response) =>
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(referencePage),
);
await new Promise((resolve) => reference.listen(0, '127.0.0.1', resolve));
const referenceBase = `http://127.0.0.1:${reference.address().port}`;
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

/** One cold visit under a profile: every tap's time, and the page's JavaScript before and after. */
async function visit(profile, { path, prepare, taps, reference, early }) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  await page.addInitScript({ content: frameTimer(states) });
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
    if (request.resourceType() !== 'script' || isFieldData(request.url())) return;
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

  await page.goto((reference ? referenceBase : base) + path, {
    waitUntil: early ? 'domcontentloaded' : 'load',
    timeout: 120_000,
  });
  if (prepare) await prepare(page);
  const results = [];
  for (const [index, tap] of taps.entries()) {
    // Each tap on a page at rest, as the bare page's are: a carousel's step moves its slides for
    // a while after the frame it is timed to, and the next tap then landed in the middle of that.
    if (index > 0) await page.evaluate((state) => window.__bench.settled(state), tap.state);
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
  const chosen = [
    ...referenceVisits,
    ...visits.filter((v) => !args.only || args.only.includes(v.path)),
  ];
  // In turns (each visit once, then the next round), so that a busy spell of the machine falls on
  // the reference and the pages alike: run one after the other, the reference's three visits had
  // read 21 to 64 ms for the same tap while the pages' came minutes later.
  const runsOf = chosen.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, v] of chosen.entries()) runsOf[k].push(await visit(profile, v));
  }
  for (const [k, v] of chosen.entries()) {
    const runs = runsOf[k];
    runs[0].forEach((first, t) => {
      const samples = runs.map((run) => run[t]);
      const absent = samples.every((s) => s.ms === undefined);
      rows.push({
        widget: first.widget,
        profile: profile.name,
        reference: v.reference ? undefined : referenceOf(v.taps[t]),
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
reference.close();
// Each widget's time over its reference's, under the same profile.
const referenceRows = rows.filter((r) => !r.reference);
for (const row of rows.filter((r) => r.reference)) {
  const ref = referenceRows.find((r) => r.profile === row.profile && r.widget === row.reference);
  if (typeof row.ms === 'number' && typeof ref?.ms === 'number') {
    row.ratio = Math.round((row.ms / ref.ms) * 10) / 10;
  }
}

mkdirSync('bench', { recursive: true });
writeFileSync(
  'bench/tap.json',
  `${JSON.stringify({ date: new Date().toISOString(), url: base, runs: RUNS, rows }, null, 2)}\n`,
);
console.log('First tap to the first frame showing the change (median ms), as a ratio to the bare');
console.log(
  "reference page's same kind of tap, and the JavaScript (gzip, KB) downloaded before the",
);
console.log('first tap and 8 s after the last one on that page (field data apart):');
console.table(
  rows.map((r) => ({
    widget: r.reference ? r.widget : `reference, ${r.widget}`,
    profile: r.profile,
    'ms (median)':
      r.ms === null ? 'no change' : r.ms === 'absent' ? 'no control yet' : Math.round(r.ms),
    runs: r.runs.join(' '),
    'x reference': r.ratio ?? '',
    'JS before': r.jsBeforeKB,
    'JS after': r.jsAfterKB,
  })),
);
const slow = rows.filter(
  (r) =>
    r.reference &&
    r.profile === profiles[0].name &&
    (typeof r.ratio !== 'number' || r.ratio > TAP_BUDGET_RATIO),
);
const heavy = rows.filter(
  (r) => r.reference && r.firstOnPage && r.jsBeforeKB * 1024 > BEFORE_IDLE_BUDGET,
);
if (slow.length) {
  console.log(`Over ${TAP_BUDGET_RATIO}x the reference on Slow 3G: ${slow.map((r) => r.widget)}`);
}
if (heavy.length)
  console.log(`Over 5 KB of JavaScript before the tap: ${heavy.map((r) => r.widget)}`);
process.exitCode = slow.length || heavy.length ? 1 : 0;
