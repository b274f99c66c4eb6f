// The JavaScript budgets (scripts/budgets.mjs): for each page, what a reader downloads when the page is
// loaded and not touched, at 412 px and at 1280 px, before it is idle (5 KB); field data's script, loaded
// once the page has loaded and is idle (4 KB); and everything after scrolling to the bottom and opening
// every widget (90 KB, field data apart). Sizes are gzip, inline scripts included. The service worker
// (/sw.js), fetched by the browser once per build rather than by the page, is measured on its own: budget
// 15 KB. The size test (tests/e2e/size.spec.ts) holds every page to the first two in `npm test`.
//
// Usage: npm run size (builds first if needed; serves the build on a free loopback port and stops it).
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import {
  BEFORE_IDLE_BUDGET,
  BUDGET_ROUTES,
  EVERYTHING_BUDGET,
  FIELD_DATA_BUDGET,
  TIME_STEP_BUDGET,
  WORKER_BUDGET,
  isFieldData,
} from './budgets.mjs';
import { chromiumArgs, chromiumPath, inlineScriptBytes, serveBuild } from './local.mjs';
import { useEverything } from './every-widget.mjs';

if (!existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}

const server = await serveBuild({ BOOKING_SECRET: 'size-script-secret-0123456789abcdef' });
const base = server.url;
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

/** The gzip bytes of every script a page fetches from now on, by address. */
function countScripts(page) {
  const scripts = new Map();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    try {
      scripts.set(response.url(), gzipSync(await response.body()).length);
    } catch {}
  });
  return scripts;
}

/** Loads a page and counts the gzip bytes of every script it fetches, plus its inline scripts. */
async function measure(route, width, exercise) {
  const page = await browser.newPage({ viewport: { width, height: width < 600 ? 823 : 900 } });
  const external = countScripts(page);
  await page.goto(base + route, { waitUntil: 'networkidle' });
  const inlineBytes = await inlineScriptBytes(page);
  // Field data's script, loaded once the page is idle (docs/field-data.md), has its own budget.
  const own = () =>
    inlineBytes +
    [...external].filter(([url]) => !isFieldData(url)).reduce((sum, [, bytes]) => sum + bytes, 0);
  const reader = own();
  const fieldData = [...external].find(([url]) => isFieldData(url))?.[1] ?? 0;
  await exercise(page);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const total = own();
  await page.close();
  return { reader, fieldData, total };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const rows = [];
let over = false;
for (const route of BUDGET_ROUTES) {
  for (const width of [412, 1280]) {
    const { reader, fieldData, total } = await measure(route, width, useEverything);
    const flag =
      reader > BEFORE_IDLE_BUDGET || fieldData > FIELD_DATA_BUDGET || total > EVERYTHING_BUDGET;
    over ||= flag;
    rows.push({
      page: route,
      width,
      'before idle': kb(reader),
      'field data': kb(fieldData),
      everything: kb(total),
      budget: flag ? 'OVER' : 'ok',
    });
  }
}
/** The scripts that 'Choose a time for the call' brings, beyond what the dialog had loaded. */
async function measureTimeStep() {
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
  const scripts = countScripts(page);
  await page.goto(`${base}/iphone`, { waitUntil: 'networkidle' });
  await page.getByRole('banner').getByRole('link', { name: 'Schedule a Call' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Size');
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const before = new Set(scripts.keys());
  await dialog.getByRole('link', { name: 'Choose a time for the call' }).click();
  await dialog.getByLabel('Day').waitFor();
  await page.waitForLoadState('networkidle');
  const added = [...scripts].filter(([url]) => !before.has(url));
  await page.close();
  return added.reduce((sum, [, bytes]) => sum + bytes, 0);
}
const timeStep = await measureTimeStep();

await browser.close();
await server.stop();
console.log(
  `JavaScript per page, gzip (budgets: before idle ${kb(BEFORE_IDLE_BUDGET)}, field data once idle ${kb(FIELD_DATA_BUDGET)}, everything but field data ${kb(EVERYTHING_BUDGET)})`,
);
console.table(rows);
const worker = gzipSync(readFileSync('dist/client/sw.js'), { level: 9 }).length;
over ||= worker > WORKER_BUDGET;
console.log(
  `Service worker, gzip: ${kb(worker)} (budget ${kb(WORKER_BUDGET)}) ${worker > WORKER_BUDGET ? 'OVER' : 'ok'}`,
);
over ||= timeStep > TIME_STEP_BUDGET;
console.log(
  `Dialog's time step (loaded when a time is asked for), gzip: ${kb(timeStep)} (budget ${kb(TIME_STEP_BUDGET)}) ${timeStep > TIME_STEP_BUDGET ? 'OVER' : 'ok'}`,
);
process.exitCode = over ? 1 : 0;
