import { expect, test } from '@playwright/test';
import { allRoutes } from '../support/site';

// That every internal link and image resolves is plain HTTP: tests/integration/links.test.ts.

/** What the browser renders of every image: its alt text and its dimensions. */
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
