/**
 * The tab's icon, drawn at build time from public/favicon.svg (the one drawing). A browser reads a
 * page's icon after the load on the page's own main thread, and an SVG icon is a whole document to
 * make there (some 10 ms of a slow phone's); a small PNG is decoded in a fraction of one.
 */
import type { APIRoute } from 'astro';
import sharp from 'sharp';
import drawing from '../../public/favicon.svg?raw';

/** Sharp enough for a tab at three device pixels to the CSS pixel (16 px drawn at 48). */
const SIZE = 64;

export const GET: APIRoute = async () => {
  const svg = Buffer.from(drawing);
  // Drawn at the size it is shown, not scaled up from the drawing's own width (SVG's 72 dpi).
  const { width = SIZE } = await sharp(svg).metadata();
  const png = await sharp(svg, { density: (72 * SIZE) / width })
    .resize(SIZE, SIZE)
    .png({ compressionLevel: 9, palette: true })
    .toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
