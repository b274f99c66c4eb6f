// Screenshots of pages at phone and desktop widths, for looking at the site as a visitor does.
// Usage: node scripts/screenshots.mjs [baseURL] [outDir] [path ...]
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './local.mjs';

const [base = 'http://127.0.0.1:4321', out = '/tmp/shots', ...paths] = process.argv.slice(2);
const routes = paths.length
  ? paths
  : ['/', '/iphone', '/about', '/portfolio', '/contact', '/service'];
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
for (const width of [375, 1280]) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, bypassCSP: true });
  for (const route of routes) {
    await page.goto(base + route, { waitUntil: 'networkidle' });
    // Lazy images load as they near the viewport: scroll through the page first.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 50));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForLoadState('networkidle');
    // Sections below the screen are laid out only as they come near (`content-visibility: auto`): a
    // full-page capture would show them blank.
    await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
    const name = route === '/' ? 'home' : route.slice(1).replaceAll('/', '-');
    // Long pages are cut into parts that stay readable when viewed.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const part = width < 600 ? 1300 : 2200;
    for (let y = 0, i = 1; y < height; y += part, i++) {
      const clip = { x: 0, y, width, height: Math.min(part, height - y) };
      await page.screenshot({ path: `${out}/${name}-${width}-${i}.png`, fullPage: true, clip });
    }
  }
  await page.close();
}
await browser.close();
console.log(`screenshots in ${out}`);
