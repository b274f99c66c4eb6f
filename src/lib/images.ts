/**
 * How a content image is sent: an SVG as it is; a PNG, JPEG or WebP as AVIF with a WebP fallback,
 * each at a few widths around the size it is shown at, so that a 375 px phone and a 1280 px
 * screen (at 1x and 2x) each load about what they show. Processed images are cached by Astro in
 * node_modules/.astro between builds.
 */
import type { ImageMetadata } from 'astro';
import { getImage } from 'astro:assets';
import type { ResponsiveImage } from '../domain/portfolio';

/** What an <img> (or a <picture> around it) needs: shared by the static components and the islands. */

const vectorFormats = new Set(['svg']);
/** Multiples of the shown width to offer: small phones, 1x and 2x screens. */
const widthFactors = [0.5, 1, 1.5, 2];

/**
 * The image at `width` CSS pixels wide (its height follows the image's own shape), with the
 * widths a browser may pick from for a raster image.
 */
export async function responsiveImage(
  image: ImageMetadata,
  width: number,
): Promise<ResponsiveImage> {
  const height = Math.round((width * image.height) / image.width);
  if (vectorFormats.has(image.format)) {
    const { src } = await getImage({ src: image, width, height });
    return { src, full: src, width, height };
  }
  const shown = Math.min(width, image.width);
  const widths = [
    ...new Set(widthFactors.map((factor) => Math.min(Math.round(width * factor), image.width))),
  ];
  const [avif, webp] = await Promise.all(
    (['avif', 'webp'] as const).map((format) =>
      getImage({ src: image, format, width: shown, widths }),
    ),
  );
  const widest = webp!.srcSet.values.at(-1)?.url ?? webp!.src;
  return {
    src: webp!.src,
    full: widest,
    width,
    height,
    srcset: webp!.srcSet.attribute,
    sources: [{ type: 'image/avif', srcset: avif!.srcSet.attribute }],
  };
}
