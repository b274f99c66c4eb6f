import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumShellPath } from './scripts/local.mjs';

// The visual editor's browser tests (tests/editor/), against `astro dev --mode edit` as `npm run
// edit` runs it, the only place the editor runs: `npm run test:editor`. Three dev servers, each in a
// copy of the project of its own (scripts/editor-project.mjs), one worker each: most of a test's
// time is waiting (for a Save to be written and recorded, the dev server to reload, the editor to
// load), so three copies end the phase in about half the time of two, for one more dev server's
// start. The tests that save run one at a time in their copy and put every file back afterwards
// (tests/editor/content.ts, which finds a test's copy by its project's `metadata.copy`).
const port = Number(process.env.EDITOR_TEST_PORT ?? 4485);
const ports = { first: port, second: port + 1, third: port + 2 };
const origin = (copy: keyof typeof ports) => `http://127.0.0.1:${ports[copy]}`;
const afternoon = /a marketer's afternoon/;

export default defineConfig({
  testDir: 'tests/editor',
  // Not test-results/ itself, which the site's Playwright run, going on beside this one in `npm test`,
  // owns: each run empties its output folder as it starts.
  outputDir: 'test-results/editor',
  workers: 3,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? 'list' : 'line',
  timeout: 120_000,
  // One retry, in a new worker: on a loaded 2-core machine a few of these tests failed now and then
  // (a dev page never done reloading, a Save recorded late), each time a different one. A test that
  // passes only on its retry is reported as flaky, by name, at the end of the run.
  retries: 1,
  expect: { timeout: 15_000 },
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    // Chromium's headless shell, as most of tests/e2e/: the editor needs nothing it lacks (all 13
    // pass in it), and Chromium did 100 s of CPU for this phase instead of 116 in the whole browser.
    launchOptions: { executablePath: chromiumShellPath, args: chromiumArgs },
  },
  // One worker a project (`workers: 1`: one test at a time in each copy, its files in alphabetical
  // order), each worker one browser whose context keeps the editor's compiled code from test to test
  // (./tests/editor/fixtures.ts, which also loads the editor once as the worker starts: Vite bundles
  // its dependencies on the first visit and reloads the page, which no test must see half-way).
  projects: [
    // In the first copy, in the order of their files: a deleted page another page's address takes,
    // brought back; a marketer's afternoon; History's tests (a save undone, a page deleted and
    // brought back, a page moved).
    {
      name: 'afternoon',
      testMatch: /(deleted|editor|history)\.spec\.ts/,
      grep: [afternoon, /(deleted|history)\.spec\.ts/],
      workers: 1,
      use: { baseURL: origin('first') },
      metadata: { copy: 'first' },
    },
    // In the second copy: first the tests that only read (every page of the dev site, every entry
    // in the editor), which no save may reload, then the other tests that save, History in a
    // marketer's words and the editor's words last.
    {
      name: 'reading',
      testMatch: /(dev-site|entries)\.spec\.ts/,
      workers: 1,
      use: { baseURL: origin('second') },
      metadata: { copy: 'second' },
    },
    {
      name: 'saving',
      testMatch: /(editor|history-words|words)\.spec\.ts/,
      grepInvert: afternoon,
      dependencies: ['reading'],
      workers: 1,
      use: { baseURL: origin('second') },
      metadata: { copy: 'second' },
    },
    // In the third copy: two tabs on one entry, a restored draft and a rename's link move; an upload
    // kept with its draft; what the build refuses refused at Save (a link, a redirect, a restore).
    {
      name: 'conflicts',
      testMatch: /(conflicts|pending-drafts|save-checks)\.spec\.ts/,
      workers: 1,
      use: { baseURL: origin('third') },
      metadata: { copy: 'third' },
    },
  ],
  // Node 24 from node_modules, not the system's Node (which Astro refuses).
  webServer: (['first', 'second', 'third'] as const).map((copy) => ({
    command: `./node_modules/.bin/node scripts/editor-project.mjs --copy ${copy} -- --mode edit --host 127.0.0.1 --port ${ports[copy]}`,
    url: `${origin(copy)}/keystatic`,
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    timeout: 120_000,
    // SIGINT first, so that editor-project.mjs stops `astro dev` and removes its copy and log
    // (without it, Playwright kills the process group, and the copies stayed in the temporary folder).
    gracefulShutdown: { signal: 'SIGINT', timeout: 10_000 },
  })),
});
