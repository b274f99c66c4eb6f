import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumShellPath } from './scripts/local.mjs';

// The visual editor's browser tests (tests/editor/), against `astro dev --mode edit` as `npm run
// edit` runs it, the only place the editor runs: `npm run test:editor`. One dev server, in a copy of
// the project of its own (scripts/editor-project.mjs), and one worker, one browser: the tests run
// one after the other, each putting back every file it changed (tests/editor/content.ts, which
// finds the copy by the project's `metadata.copy`). Three copies, each with its own dev server and
// browser, ended the phase sooner alone, but did a sixth more work (each server compiled the site
// and the editor anew, each browser started and loaded the editor), and `npm test` runs beside it
// on two cores whatever it does (docs/testing.md).
const port = Number(process.env.EDITOR_TEST_PORT ?? 4485);
const copy = 'editing';

export default defineConfig({
  testDir: 'tests/editor',
  // Not test-results/ itself, which the site's Playwright run, going on beside this one in `npm test`,
  // owns: each run empties its output folder as it starts.
  outputDir: 'test-results/editor',
  workers: 1,
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
    baseURL: `http://127.0.0.1:${port}`,
    // Chromium's headless shell, as most of tests/e2e/: the editor needs nothing it lacks (all 13
    // pass in it), and Chromium did 100 s of CPU for this phase instead of 116 in the whole browser.
    launchOptions: { executablePath: chromiumShellPath, args: chromiumArgs },
  },
  // One project, so one worker and one browser for the whole run, whose context keeps the editor's
  // compiled code from test to test (./tests/editor/fixtures.ts, which also loads the editor once as
  // the worker starts: Vite bundles its dependencies on the first visit and reloads the page, which
  // no test must see half-way). Its files run in alphabetical order: first the tests that only
  // read (every page of the dev site, every entry in the editor: browse-*.spec.ts), which met a
  // page mid-reload after a test before them had put its files back.
  projects: [{ name: 'editor', metadata: { copy } }],
  // Node 24 from node_modules, not the system's Node (which Astro refuses). editor-project.mjs
  // refuses a port already in use, and says "Dev servers ready" once the server answers /keystatic.
  webServer: {
    command: `./node_modules/.bin/node scripts/editor-project.mjs --copy ${copy}=${port} --ready /keystatic -- --mode edit --host 127.0.0.1`,
    wait: { stdout: /Dev servers ready/ },
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    timeout: 120_000,
    // SIGINT first, so that editor-project.mjs stops `astro dev` and removes its copy and log
    // (without it, Playwright kills the process group, and the copy stayed in the temporary folder).
    gracefulShutdown: { signal: 'SIGINT', timeout: 10_000 },
  },
});
