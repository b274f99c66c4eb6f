import { expect, test } from '@playwright/test';
import { allRoutes } from '../support/site';

/** Every internal link and image on every page resolves. */
test('internal links and images resolve', async ({ request }) => {
  test.setTimeout(120_000);
  const checked = new Map<string, number>();
  const failures: string[] = [];
  for (const route of allRoutes) {
    const html = await (await request.get(route)).text();
    const targets = [
      ...[...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]!),
      ...[...html.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]!),
      ...[...html.matchAll(/<link [^>]*href="([^"]+)"/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (!target.startsWith('/') || target.startsWith('//')) continue;
      const path = target.split('#')[0]!.split('?')[0]! || route;
      if (!checked.has(path)) checked.set(path, (await request.get(path)).status());
      if (checked.get(path) !== 200) failures.push(`${route} -> ${target} (${checked.get(path)})`);
    }
  }
  expect(failures).toEqual([]);
  expect(checked.size).toBeGreaterThan(40);
});

test('every image has alt text and explicit dimensions', async ({ page }) => {
  test.setTimeout(120_000);
  for (const route of allRoutes) {
    await page.goto(route);
    const bad = await page
      .locator('img')
      .evaluateAll((images) =>
        images
          .filter(
            (img) =>
              img.getAttribute('alt') === null ||
              !img.getAttribute('width') ||
              !img.getAttribute('height'),
          )
          .map((img) => img.outerHTML.slice(0, 120)),
      );
    expect(bad, route).toEqual([]);
  }
});
