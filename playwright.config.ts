import { defineConfig, devices } from '@playwright/test';

/** Playwright cannot download its own browser here: it drives Debian's Chromium (or CHROMIUM_PATH). */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const port = Number(process.env.TEST_PORT ?? 4399);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? 'list' : 'line',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    // The built production server, on Node 24 from node_modules (not the system's Node).
    command: './node_modules/.bin/node dist/server/entry.mjs',
    url: `http://127.0.0.1:${port}/`,
    env: { HOST: '127.0.0.1', PORT: String(port) },
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
