/**
 * A hero's picture sits in its column, whatever its format: the home page's hero as it is (an SVG,
 * an <img>) and with its image made a raster image's <picture> of AVIF and WebP sources, as
 * ContentImage renders a PNG or JPEG. At 1280 px the image is beside the text; at 375 px below it.
 */
import { expect, type Page } from '@playwright/test';
import { test } from './shared-page';

/** The hero's image as a raster image's markup: <picture><source>…<img></picture>. */
const asPicture = (page: Page) =>
  page.locator('.page-hero__image').evaluate((img) => {
    const picture = document.createElement('picture');
    for (const type of ['image/avif', 'image/webp']) {
      const source = document.createElement('source');
      source.type = type;
      source.srcset = (img as HTMLImageElement).src;
      picture.append(source);
    }
    img.replaceWith(picture);
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
