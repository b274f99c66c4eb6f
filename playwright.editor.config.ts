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
    // brought back; a marketer's afternoon.
    {
      name: 'afternoon',
      testMatch: /(deleted|editor)\.spec\.ts/,
      grep: [afternoon, /deleted\.spec\.ts/],
      workers: 1,
      use: { baseURL: origin('first') },
      metadata: { copy: 'first' },
    },
    // In the second copy, one worker, its files in alphabetical order: first the tests that only
    // read (every page of the dev site, every entry in the editor: dev-site and editor-entries, named
    // to come before the others), which no save may reload; then the other tests that save,
    // History in a marketer's words and History's tests (a save undone, a page deleted and brought
    // back, a page moved; here since the first copy, the longest by some 15 s, these tests' time).
    // One project, not two one after the other: a project's worker is a browser of its own, whose
    // start and first load of the editor cost some 20 s of CPU.
    {
      name: 'second',
      testMatch: /[/\\](dev-site|editor-entries|editor|history-words|history)\.spec\.ts$/,
      grepInvert: afternoon,
      workers: 1,
      use: { baseURL: origin('second') },
      metadata: { copy: 'second' },
    },
    // In the third copy: two tabs on one entry, a restored draft and a rename's link move; an upload
    // kept with its draft; what the build refuses refused at Save (a link, a redirect, a restore);
    // the editor's words (here since the second copy, which ran longest, by minutes under load, and
    // this one shortest).
    {
      name: 'conflicts',
      testMatch: /[/\\](conflicts|pending-drafts|save-checks|words)\.spec\.ts$/,
      workers: 1,
      use: { baseURL: origin('third') },
      metadata: { copy: 'third' },
    },
  ],
  // Node 24 from node_modules, not the system's Node (which Astro refuses). One command for the three
  // copies: Playwright starts its web servers one after the other, each once the one before answers
  // (a copy and its dev server's start took some 20 s each on a quiet machine, a minute under
  // load); editor-project.mjs starts them together, refuses a port already in use, and says "Dev
  // servers ready" once each answers /keystatic.
  webServer: {
    command: `./node_modules/.bin/node scripts/editor-project.mjs ${(['first', 'second', 'third'] as const).map((copy) => `--copy ${copy}=${ports[copy]}`).join(' ')} --ready /keystatic -- --mode edit --host 127.0.0.1`,
    wait: { stdout: /Dev servers ready/ },
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    // The three at once: some 120 s each, one after the other, had been given.
    timeout: 240_000,
    // SIGINT first, so that editor-project.mjs stops each `astro dev` and removes its copy and log
    // (without it, Playwright kills the process group, and the copies stayed in the temporary folder).
    gracefulShutdown: { signal: 'SIGINT', timeout: 10_000 },
  },
});
