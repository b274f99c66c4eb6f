// The screenshots of the visual editor in content-schema.md (docs/editor/*.png), taken in Chromium
// against `astro dev`, 1280 × 800. Nothing is saved: the error screenshot is of a refused value, and
// the image field's is of a tile's dialog, with nothing uploaded.
// Usage: node scripts/editor-screenshots.mjs [port]   (default 4482; the server is started and stopped here)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './local.mjs';

const port = Number(process.argv[2] ?? 4482);
const base = `http://127.0.0.1:${port}`;
const out = 'docs/editor';
mkdirSync(out, { recursive: true });

const server = spawn(
  process.execPath,
  [
    'node_modules/astro/bin/astro.mjs',
    'dev',
    '--mode',
    'edit',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
  ],
  { env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' }, stdio: 'ignore' },
);
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/keystatic`)).ok) break;
    } catch {}
    if (i > 600) throw new Error('astro dev did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const shot = (name) => page.screenshot({ path: `${out}/${name}.png` });
  // The first visit lets Vite bundle the editor's dependencies (it reloads the page once).
  await page.goto(`${base}/keystatic/collection/services`);
  await page.getByRole('row', { name: /^iphone / }).waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.reload();
  await page.getByRole('row', { name: /^iphone / }).waitFor();
  await shot('service-list');

  await page.getByRole('row', { name: /^iphone / }).click();
  await page.getByRole('button', { name: 'Save' }).waitFor();
  await shot('service-page');

  const title = page.getByRole('textbox', { name: 'Service name', exact: true });
  await title.fill(`${await title.inputValue()} for every iPhone, iPad and Apple Watch`);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText(/Service name must be 2-40 characters/).waitFor();
  await shot('field-error');

  // A tile's dialog: its icon chosen from src/assets/icons, or uploaded (nothing is uploaded here).
  await page.getByRole('button', { name: 'Reset changes' }).click();
  await page
    .getByRole('group', { name: /^Tiles/ })
    .getByRole('row')
    .first()
    .click();
  await page.getByRole('button', { name: 'Upload an icon…' }).waitFor();
  await page.waitForTimeout(600); // the dialog's opening animation
  await shot('image-field');
  await browser.close();
  console.log(`screenshots in ${out}`);
} finally {
  server.kill('SIGTERM');
  await once(server, 'exit');
}
