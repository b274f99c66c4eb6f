// The Schedule a Call benchmark (not a test): how long a prospect on a slow phone waits for the dialog,
// tapped right after DOMContentLoaded, and then for the first free time after "Choose a time for the
// call". Playwright on the system Chromium, 375 x 812 with touch, a New York visitor (en-US), a fresh
// context (empty cache) per visit, the CPU slowed x4, and CDP network throttling at 50 KB/s with
// 400 ms and with 2,000 ms round trips (Slow 3G as Puppeteer defines it). Timed inside the page, from
// the pointerdown's timeStamp to the first frame that shows the change. Median of 3 visits.
//
// Each figure is set beside a bare page's, measured in the same run under the same profile: a <dialog>
// opened by one line of script, whose "Choose a time" asks the site's /schedule/slots.json for the first
// days only then and shows them as radio buttons: the least a page can do.
//
// Usage: npm run bench:times [-- --runs 3] [-- --url http://127.0.0.1:4321] (without --url it serves
// the build on a free loopback port and stops it). Writes bench/times.json. Exits 1 when a median is
// over its target: the dialog within 150 ms, the first time within 2.5 s (400 ms) or 4.5 s (2,000 ms).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath, serveBuild } from './local.mjs';
import { frameTimer } from './frame-timer.mjs';
import { scriptArgs } from './script-args.mjs';

const { values: args } = scriptArgs(import.meta.url, {
  options: { runs: { type: 'string', default: '3' }, url: { type: 'string' } },
});
const RUNS = Number(args.runs);
const DIALOG_TARGET_MS = 150;
const profiles = [
  { name: '400 ms RTT, 50 KB/s, CPU x4', latency: 400, timesTargetMs: 2500 },
  { name: '2,000 ms RTT, 50 KB/s, CPU x4', latency: 2000, timesTargetMs: 4500 },
];
const PAGE = '/laravel';
const REFERENCE = '/bench-reference';

const referencePage = `<!doctype html>
<html lang="en"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Reference</title>
<a class="site-header__cta" href="/schedule">Schedule a Call</a>
<dialog class="call-modal"><input aria-label="Name"><a href="/schedule" id="choose">Choose a time for the call</a><div id="times"></div></dialog>
<script>
document.querySelector('.site-header__cta').onclick = (e) => { e.preventDefault(); document.querySelector('dialog').showModal() };
document.getElementById('choose').onclick = (e) => { e.preventDefault(); fetch('/schedule/slots.json?days=3').then((r) => r.json()).then(({ slots }) => {
  for (const s of slots) { const l = document.createElement('label'); l.innerHTML = '<input type=radio name=slot> ' + new Date(s.start).toLocaleTimeString(); document.getElementById('times').append(l) } }) };
</script>
</html>`;

// What each step shows, as a string that changes when it answers (made in the page: frame-timer.mjs).
function states() {
  const shown = (el) => !!el && el.checkVisibility({ opacityProperty: true });
  return {
    dialog: () => {
      const d = document.querySelector('dialog.call-modal');
      return String(!!d?.open && shown(d));
    },
    times: () =>
      String([...document.querySelectorAll('dialog.call-modal input[name=slot]')].some(shown)),
  };
}

if (!args.url && !existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const server = args.url ? null : await serveBuild();
const base = args.url ?? server.url;
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

/** One cold visit: the dialog's time and the first free time's, tapped as soon as the page allows. */
async function visit(profile, path) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
    locale: 'en-US',
    timezoneId: 'America/New_York',
  });
  // The bare page, served as the site's own (its request for the free times is the same one).
  await context.route(base + REFERENCE, (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: referencePage }),
  );
  const page = await context.newPage();
  await page.addInitScript({ content: frameTimer(states, 60_000) });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latency,
    downloadThroughput: 50 * 1024,
    uploadThroughput: 50 * 1024,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(base + path, { waitUntil: 'domcontentloaded', timeout: 180_000 });
  const time = async (state, control) => {
    await page.evaluate((s) => window.__bench.arm(s, 'pointerdown'), state);
    await control.tap({ timeout: 60_000 });
    return page.evaluate(() => window.__bench.result);
  };
  const dialog = await time('dialog', page.locator('.site-header__cta').first());
  const times = await time(
    'times',
    page.locator('dialog.call-modal').getByRole('link', { name: 'Choose a time for the call' }),
  );
  await context.close();
  return { dialog, times };
}

const median = (values) => {
  const sorted = values.filter((v) => typeof v === 'number').sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.floor((sorted.length - 1) / 2)]) : null;
};

const rows = [];
for (const profile of profiles) {
  for (const path of [REFERENCE, PAGE]) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await visit(profile, path));
    for (const step of ['dialog', 'times'])
      rows.push({
        page: path === REFERENCE ? 'bare page' : path,
        step: step === 'dialog' ? 'dialog shown' : 'first time shown',
        profile: profile.name,
        ms: median(runs.map((r) => r[step])),
        runs: runs.map((r) => (r[step] === null ? 'never' : Math.round(r[step]))).join(' '),
        target:
          path === REFERENCE ? '' : step === 'dialog' ? DIALOG_TARGET_MS : profile.timesTargetMs,
      });
  }
}
await browser.close();
await server?.stop();

mkdirSync('bench', { recursive: true });
writeFileSync(
  'bench/times.json',
  `${JSON.stringify({ date: new Date().toISOString(), url: base, runs: RUNS, rows }, null, 2)}\n`,
);
console.log(
  'From the tap to the first frame showing it (median ms of cold visits, 375 px, en-US, New York):',
);
console.table(rows);
const over = rows.filter((r) => r.target !== '' && (r.ms === null || r.ms > r.target));
if (over.length)
  console.log(`Over target: ${over.map((r) => `${r.step} (${r.profile})`).join(', ')}`);
process.exitCode = over.length ? 1 : 0;
