import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumShellPath } from './scripts/local.mjs';

// The visual editor's browser tests (tests/editor/), against `astro dev --mode edit` as `npm run
// edit` runs it, the only place the editor runs: `npm run test:editor`. One dev server, in a copy of
// the project of its own (scripts/editor-project.mjs), whose Vite warms the editor's ~190 modules
// once (a second server in a second copy cost its own start, its own bundling of the editor's
// dependencies and its own compiling of every module: a third of the phase's processor time). First
// the tests that only read (every page of the dev site, every entry in the editor), which no save
// may reload; then, one at a time in one worker (one browser context, whose cache keeps the editor's
// compiled code), the tests that save: a marketer's afternoon first, whose build of a copy runs
// beside the next tests (tests/editor/editor.spec.ts), then History's. Each test that saves puts
// every file back afterwards (tests/editor/content.ts, which finds the copy by its project's
// `metadata.copy`).
const port = Number(process.env.EDITOR_TEST_PORT ?? 4485);
const origin = `http://127.0.0.1:${port}`;
const copy = 'editing';

export default defineConfig({
  testDir: 'tests/editor',
  // Not test-results/ itself, which the site's Playwright run, going on beside this one in `npm test`,
  // owns: each run empties its output folder as it starts.
  outputDir: 'test-results/editor',
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? 'list' : 'line',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    // Chromium's headless shell, as most of tests/e2e/: the editor needs nothing it lacks (all 13
    // pass in it), and Chromium did 100 s of CPU for this phase instead of 116 in the whole browser.
    launchOptions: { executablePath: chromiumShellPath, args: chromiumArgs },
  },
  projects: [
    // Vite bundles the editor's dependencies on the first visit and reloads the page once it has:
    // one visit first, so that no test is reloaded half-way.
    { name: 'warm-up', testMatch: /warm-up\.setup\.ts/, use: { baseURL: origin } },
    {
      name: 'reading',
      testMatch: /(dev-site|entries)\.spec\.ts/,
      dependencies: ['warm-up'],
      use: { baseURL: origin },
      metadata: { copy },
    },
    // In file order, in one worker: editor.spec.ts (the afternoon first), then history.spec.ts.
    {
      name: 'saving',
      testMatch: /(editor|history)\.spec\.ts/,
      dependencies: ['reading'],
      workers: 1,
      use: { baseURL: origin },
      metadata: { copy },
    },
  ],
  // Node 24 from node_modules, not the system's Node (which Astro refuses).
  webServer: {
    command: `./node_modules/.bin/node scripts/editor-project.mjs --copy ${copy} -- --mode edit --host 127.0.0.1 --port ${port}`,
    url: `${origin}/keystatic`,
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    timeout: 120_000,
    // SIGINT first, so that editor-project.mjs stops `astro dev` and removes its copy and log
    // (without it, Playwright kills the process group, and the copies stayed in the temporary folder).
    gracefulShutdown: { signal: 'SIGINT', timeout: 10_000 },
  },
});
