/**
 * How a content image is sent: a PNG, JPEG or WebP as AVIF with a WebP fallback, each at a few
 * widths around the size it is shown at, so that a 375 px phone and a 1280 px screen (at 1x and 2x)
 * each load about what they show. An SVG is sent as it is unless asked to be `drawn`. Shown by an
 * <img>, an SVG is a document of its own, parsed, laid out and drawn on the main thread, where a
 * raster is decoded off it: the portfolio's grid asks for its drawings as rasters, a fifth less of
 * /portfolio's main-thread work (docs/benchmarks.md). The first project, in view as the page opens,
 * is drawn as AVIF, the fewest bytes for its largest paint, with the SVG itself as the fallback;
 * the rest as WebP, quicker to make and to decode. Elsewhere (the home page's carousel, the logos)
 * rasters measured no gain, and each width is an address in the page's first response, which must
 * stay within 14 KB. `astro dev` sends SVGs as they are: it would draw them anew on every request.
 * Processed images are cached by Astro in node_modules/.astro between builds.
 */
import type { ImageMetadata } from 'astro';
import { getImage } from 'astro:assets';
import type { ResponsiveImage } from '../domain/portfolio';

/** What an <img> (or a <picture> around it) needs: shared by the static components and the islands. */

const vectorFormats = new Set(['svg']);
/** Multiples of the shown width to offer: small phones, 1x and 2x screens. */
const widthFactors = [0.5, 1, 1.5, 2];

/** How an SVG is sent: as itself, or drawn as a raster (AVIF before the SVG, or WebP alone). */
export type Drawing = 'vector' | 'avif' | 'webp';

/**
 * The image at `width` CSS pixels wide (its height follows the image's own shape), with the
 * widths a browser may pick from for a raster image, and for an SVG `drawn` as a raster.
 */
export async function responsiveImage(
  image: ImageMetadata,
  width: number,
  drawn: Drawing = 'vector',
): Promise<ResponsiveImage> {
  const height = Math.round((width * image.height) / image.width);
  if (vectorFormats.has(image.format)) {
    const vector = () => getImage({ src: image, width, height });
    if (drawn === 'vector' || import.meta.env.DEV) {
      const { src } = await vector();
      return { src, full: src, width, height };
    }
    const widths = widthFactors.map((factor) => Math.round(width * factor));
    if (drawn === 'avif') {
      const [{ src }, avif] = await Promise.all([
        vector(),
        getImage({ src: image, format: 'avif', width, widths }),
      ]);
      return {
        src,
        full: src,
        width,
        height,
        sources: [{ type: 'image/avif', srcset: avif.srcSet.attribute }],
      };
    }
    const webp = await getImage({ src: image, format: 'webp', width, widths });
    return {
      src: webp.src,
      full: webp.srcSet.values.at(-1)?.url ?? webp.src,
      width,
      height,
      srcset: webp.srcSet.attribute,
    };
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
