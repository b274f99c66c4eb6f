/**
 * A hero's picture sits in its column, whatever its format: the home page's hero as it is (an SVG,
 * from the page's sprite) and with its image made a raster image's <picture> of AVIF and WebP sources, as
 * ContentImage renders a PNG or JPEG. At 1280 px the image is beside the text; at 375 px below it.
 */
import { expect, type Page } from '@playwright/test';
import { test } from './shared-page';

/**
 * The hero's picture made a raster image's markup, <picture><source>…<img></picture>, in its place
 * (on the home page the build shows it from the page's sprite, an <svg>).
 */
const asPicture = (page: Page) =>
  page.locator('.page-hero__image').evaluate((shown) => {
    const picture = document.createElement('picture');
    const img = document.createElement('img');
    img.className = shown.getAttribute('class')!;
    img.width = 560;
    img.height = 420;
    img.alt = shown.getAttribute('aria-label') ?? '';
    img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
    for (const type of ['image/avif', 'image/webp']) {
      const source = document.createElement('source');
      source.type = type;
      source.srcset = img.src;
      picture.append(source);
    }
    shown.replaceWith(picture);
    picture.append(img);
  });

const boxes = async (page: Page) => ({
  text: (await page.locator('.page-hero__text').boundingBox())!,
  image: (await page.locator('.page-hero__image').boundingBox())!,
});

test("the hero's picture, SVG or raster, sits beside the text on a laptop, below it on a phone", async ({
  page,
}) => {
  for (const raster of [false, true]) {
    await test.step(raster ? 'raster picture' : 'SVG', async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto('/');
      if (raster) await asPicture(page);
      const wide = await boxes(page);
      expect(wide.image.x).toBeGreaterThan(wide.text.x + wide.text.width - 1);
      expect(wide.image.y).toBeLessThan(wide.text.y + wide.text.height);
      await page.setViewportSize({ width: 375, height: 800 });
      const narrow = await boxes(page);
      expect(narrow.image.y).toBeGreaterThan(narrow.text.y + narrow.text.height - 1);
    });
  }
});
