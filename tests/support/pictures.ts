/**
 * Whether the pictures a tab shows have arrived: the editor's thumbnails, in `astro dev`
 * (tests/editor/) and on the live site (tests/integration/live-editor.test.ts).
 */
import type { Page } from '@playwright/test';

/**
 * The pictures a tab shows (those with an address): `undefined` while some are still coming, else
 * how many there are and the addresses of those that are broken.
 */
export const shownPictures = (tab: Page) =>
  tab.evaluate(() => {
    const pictures = [...document.images].filter((image) => image.getAttribute('src'));
    if (pictures.some((image) => !image.complete)) return undefined;
    const broken = pictures.filter((image) => !image.naturalWidth).map((image) => image.src);
    return { count: pictures.length, broken };
  });
