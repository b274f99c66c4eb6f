/**
 * Astro's sharp image service, drawing an SVG at the width asked for (src/lib/images.ts says when an
 * SVG is drawn as a raster). Sharp reads an SVG at 72 dpi, at the width and height the file gives, and
 * Astro neither enlarges an image nor offers a width over its own: a drawing 800 px wide in its file
 * would be no sharper than that on a 3x phone. A drawing has no largest size: here it is drawn at the
 * density that gives the width asked for, then encoded by sharp's service as any picture is.
 */
import type { ImageMetadata, LocalImageService } from 'astro';
import sharpService from 'astro/assets/services/sharp';
import sharp from 'sharp';

// An imported SVG is a component (a function) carrying the image's metadata.
const isDrawing = (src: unknown): src is ImageMetadata =>
  (typeof src === 'object' || typeof src === 'function') &&
  src !== null &&
  (src as ImageMetadata).format === 'svg';

const service: LocalImageService = {
  ...sharpService,
  getSrcSet(options, config, logger) {
    const { src, widths } = options;
    if (!isDrawing(src) || options.format === 'svg' || !widths?.length) {
      return sharpService.getSrcSet!(options, config, logger);
    }
    const scale = Math.max(1, ...widths.map((width) => width / src.width));
    const drawn: ImageMetadata = {
      src: src.src,
      format: src.format,
      width: src.width * scale,
      height: src.height * scale,
    };
    return sharpService.getSrcSet!({ ...options, src: drawn }, config, logger);
  },
  async transform(input, transform, config, logger) {
    const { format, width: wanted } = transform;
    if (format !== 'svg' && wanted) {
      const { format: source, width } = await sharp(input).metadata();
      if (source === 'svg' && width) {
        const density = (72 * wanted) / width;
        input = await sharp(input, { density }).png().toBuffer();
      }
    }
    return sharpService.transform(input, transform, config, logger);
  },
};

export default service;
