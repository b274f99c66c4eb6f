import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './scripts/local.mjs';

// The visual editor's browser tests (tests/editor/), against `astro dev`, the only place the editor
// runs: `npm run test:editor`. They save through the editor into a copy of the project and put every
// file back after each test (tests/editor/content.ts), so they run one at a time.
const port = Number(process.env.EDITOR_TEST_PORT ?? 4485);

export default defineConfig({
  testDir: 'tests/editor',
  // Not test-results/ itself, which the site's Playwright run, going on beside this one in `npm test`,
  // owns: each run empties its output folder as it starts.
  outputDir: 'test-results/editor',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? 'list' : 'line',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  projects: [
    // Vite bundles the editor's dependencies on the first visit and reloads the page once it has:
    // one visit first, so that no test is reloaded half-way.
    { name: 'warm-up', testMatch: /warm-up\.setup\.ts/ },
    { name: 'editor', dependencies: ['warm-up'] },
  ],
  webServer: {
    // `astro dev` in a copy of the project (scripts/editor-project.mjs): the tests save and upload
    // there, never into the working tree, and a developer's own `npm run dev` can run beside them.
    // Node 24 from node_modules, not the system's Node (which Astro refuses).
    command: `./node_modules/.bin/node scripts/editor-project.mjs -- --host 127.0.0.1 --port ${port}`,
    url: `http://127.0.0.1:${port}/keystatic`,
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    timeout: 120_000,
  },
});
