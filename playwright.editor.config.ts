import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumShellPath } from './scripts/local.mjs';

// The visual editor's browser tests (tests/editor/), against `astro dev --mode edit` as `npm run
// edit` runs it, the only place the editor runs: `npm run test:editor`. Two copies of the project
// (scripts/editor-project.mjs), each with its own dev server and one worker, one browser: in each,
// the tests run one after the other, each putting back every file it changed (tests/editor/content.ts,
// which finds its copy by the project's `metadata.copy`). The phase is the longest path of `npm
// test`. Three copies did a sixth more work than one (each server compiles the site and the editor
// anew, each browser starts and loads the editor); one took some 250 s alone and 440 s beside the
// other phases; two did the same work as one in 180 s alone (docs/testing.md).
const port = Number(process.env.EDITOR_TEST_PORT ?? 4485);
const copies = { first: port, second: port + 1 } as const;
const origin = (copy: keyof typeof copies) => `http://127.0.0.1:${copies[copy]}`;

export default defineConfig({
  testDir: 'tests/editor',
  // Not test-results/ itself, which the site's Playwright run, going on beside this one in `npm test`,
  // owns: each run empties its output folder as it starts.
  outputDir: 'test-results/editor',
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? 'list' : 'line',
  // The tests' limits (this one and each long test's own) are some two and a half times what they
  // take beside `npm test`'s other phases on a quiet 2-core machine: on a machine of the same kind
  // three times slower (2026-11-29), a marketer's afternoon and a deleted page's flows ran out of
  // 240 s, twice each. A test that passes ends when it is done: a limit costs only a failure's time.
  timeout: 300_000,
  // One retry, in a new worker: on a loaded 2-core machine a few of these tests failed now and then
  // (a dev page never done reloading, a Save recorded late), each time a different one. A test that
  // passes only on its retry is reported as flaky, by name, at the end of the run.
  retries: 1,
  // A step's answer (an entry shown after a move inside the editor, a link move's "Done") came after
  // 15 s now and then on a machine three times slower beside the other phases, and its test was run
  // again whole (2-3 minutes of the longest path); an answer that comes ends the wait at once.
  expect: { timeout: 40_000 },
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    // Chromium's headless shell, as most of tests/e2e/: the editor needs nothing it lacks (all 13
    // pass in it), and Chromium did 100 s of CPU for this phase instead of 116 in the whole browser.
    // One renderer process for the site's tabs (`--process-per-site`; the worker's tabs share one
    // context, ./tests/editor/fixtures.ts): a new tab then loads the editor in a process that has
    // its script compiled and its memory in place: some 15 % less of the renderers' CPU a load than
    // in a process of its own, and a quarter fewer page faults (docs/test-runs.md).
    launchOptions: {
      executablePath: chromiumShellPath,
      args: [...chromiumArgs, '--process-per-site'],
    },
  },
  // One project a copy, each one worker (one browser, whose context keeps the editor's compiled code
  // from test to test: ./tests/editor/fixtures.ts, which also loads the editor once as the worker
  // starts, since Vite bundles its dependencies on the first visit and reloads the page, which no
  // test must see half-way). A project's files run in alphabetical order.
  projects: [
    // In each, first the tests that only read (browse-*.spec.ts: every entry in the editor here, every
    // page of the dev site in the second), which met a page mid-reload after a test before them had
    // put its files back. Here then a marketer's afternoon and the editor's other tests, and History's.
    // The two copies' tests take about as long (some 160 s each alone): with every browse-*.spec.ts
    // here, this one took 190 s, the second 140.
    {
      name: 'first',
      testMatch: /[/\\](browse-entries|editor|history-words|history)\.spec\.ts$/,
      workers: 1,
      use: { baseURL: origin('first') },
      metadata: { copy: 'first' },
    },
    // Every page of the dev site, two tabs on one entry, deleted pages, uploads kept with their
    // drafts, what the build refuses refused at Save, the editor's words.
    {
      name: 'second',
      testMatch:
        /[/\\](browse-dev-site|conflicts|deleted|pending-drafts|save-checks|words)\.spec\.ts$/,
      workers: 1,
      use: { baseURL: origin('second') },
      metadata: { copy: 'second' },
    },
  ],
  // Node 24 from node_modules, not the system's Node (which Astro refuses). One command for both
  // copies, which start together (Playwright starts its web servers one after the other); it refuses
  // a port already in use, and says "Dev servers ready" once each answers /keystatic.
  webServer: {
    command: `./node_modules/.bin/node scripts/editor-project.mjs ${Object.entries(copies)
      .map(([copy, at]) => `--copy ${copy}=${at}`)
      .join(' ')} --ready /keystatic -- --mode edit --host 127.0.0.1`,
    wait: { stdout: /Dev servers ready/ },
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    timeout: 120_000,
    // SIGINT first, so that editor-project.mjs stops each `astro dev` and removes its copy and log
    // (without it, Playwright kills the process group, and the copy stayed in the temporary folder).
    gracefulShutdown: { signal: 'SIGINT', timeout: 10_000 },
  },
});
