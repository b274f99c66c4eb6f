/**
 * A photo too large for its folder, made smaller in the browser before it is uploaded, as a person
 * would in an image program: at most `largestSide` pixels on its longest side, as WebP (which the
 * build turns into AVIF and WebP at the widths the pages show, as any photo), smaller still until it
 * fits. Undefined when the browser cannot read or write the picture: the field then says how to do
 * it by hand (src/domain/images.ts, `tooLarge`).
 */
import { largestSide } from '../../../domain/images.ts';

export interface Shrunk {
  file: File;
  width: number;
  height: number;
}

const RASTER = /\.(png|jpe?g|webp)$/i;
/** WebP's quality: a photo looks the same, at a fraction of the bytes. */
const QUALITY = 0.8;

export async function shrink(file: File, maxBytes: number): Promise<Shrunk | undefined> {
  if (!RASTER.test(file.name) || typeof createImageBitmap !== 'function') return undefined;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return undefined;
  }
  try {
    let scale = Math.min(1, largestSide / Math.max(bitmap.width, bitmap.height));
    for (let attempt = 0; attempt < 8; attempt++, scale *= 0.75) {
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      canvas.getContext('2d')?.drawImage(bitmap, 0, 0, width, height);
      const blob = await new Promise<Blob | null>((done) =>
        canvas.toBlob(done, 'image/webp', QUALITY),
      );
      // A browser that writes no WebP gives a PNG instead: no smaller, so none.
      if (!blob || blob.type !== 'image/webp') return undefined;
      if (blob.size <= maxBytes)
        return {
          file: new File([blob], file.name.replace(RASTER, '.webp'), { type: 'image/webp' }),
          width,
          height,
        };
    }
    return undefined;
  } finally {
    bitmap.close();
  }
}
