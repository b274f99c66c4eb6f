import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './scripts/local.mjs';

// The visual editor's browser tests (tests/editor/), against `astro dev`, the only place the editor
// runs: `npm run test:editor`. Two dev servers, each in a copy of the project of its own
// (scripts/editor-project.mjs): the tests that save through the editor work in one, one at a time
// (each puts every file back afterwards: tests/editor/content.ts); those that only read (every page
// of the dev site, every entry in the editor) run beside them against the other, whose pages no
// save reloads.
const port = Number(process.env.EDITOR_TEST_PORT ?? 4485);
const ports = { editing: port, reading: port + 1 };
const origin = (name: keyof typeof ports) => `http://127.0.0.1:${ports[name]}`;

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
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  projects: [
    // Vite bundles the editor's dependencies on the first visit and reloads the page once it has:
    // one visit to each server first, so that no test is reloaded half-way.
    {
      name: 'warm-up',
      testMatch: /warm-up\.setup\.ts/,
      use: { baseURL: origin('editing') },
      metadata: { origins: [origin('editing'), origin('reading')] },
    },
    {
      name: 'editing',
      testMatch: /editor\.spec\.ts/,
      dependencies: ['warm-up'],
      use: { baseURL: origin('editing') },
    },
    {
      name: 'reading',
      testMatch: /(dev-site|entries)\.spec\.ts/,
      dependencies: ['warm-up'],
      use: { baseURL: origin('reading') },
    },
  ],
  // Node 24 from node_modules, not the system's Node (which Astro refuses).
  webServer: (['editing', 'reading'] as const).map((name) => ({
    command: `./node_modules/.bin/node scripts/editor-project.mjs --copy ${name} -- --host 127.0.0.1 --port ${ports[name]}`,
    url: `${origin(name)}/keystatic`,
    env: { ASTRO_TELEMETRY_DISABLED: '1' },
    reuseExistingServer: false,
    timeout: 120_000,
  })),
});
