/**
 * One SVG file holding several of a page's pictures as `<symbol>`s, each shown in the page by
 * `<svg><use href="/_astro/sprite.HASH.svg#id"/></svg>`. Each `<img>` of an SVG is a document of
 * its own, with its loader, its commit and its frame, on the main thread: the home page opened five
 * (its hero and four icons), some 15 % of its main-thread work, where one file is one document
 * (docs/benchmarks.md, "One SVG document a page"). Made twice from the same sources, and checked to
 * agree: by the page as it renders (the address it refers to) and by the build once every page is
 * written (the file, ../integrations/svg-sprites.ts).
 */
import { createHash } from 'node:crypto';
import type { AssetFolder } from '../domain/images.ts';

/** A picture of src/assets: its folder, its name, the text of its SVG file. */
export interface SpritePicture {
  folder: AssetFolder;
  name: string;
  source: string;
}

/** A symbol's id in its sprite, and the fragment that shows it: `illustrations-home`. */
export const symbolId = (folder: AssetFolder, name: string) => `${folder}-${name}`;

/** The folder and name a symbol's id stands for: folders have no dash, names may. */
export function pictureOf(id: string): { folder: string; name: string } {
  const dash = id.indexOf('-');
  return { folder: id.slice(0, dash), name: id.slice(dash + 1) };
}

/**
 * An SVG that can be a symbol: one without styles of its own (a `<style>` element, `style`
 * attributes: what design tools export). Shown through `<use>`, its content is copied into the
 * page, under the page's policy, which allows no such style; such a picture stays an `<img>`.
 */
export const symbolable = (source: string) => !/<style[\s>]|\sstyle\s*=/i.test(source);

/**
 * An SVG's text with every id it declares or refers to given `prefix`, so that two pictures of one
 * page or one sprite cannot take each other's shapes or gradients.
 */
export const prefixIds = (svg: string, prefix: string) =>
  svg
    .replace(/\sid="([^"]+)"/g, ` id="${prefix}-$1"`)
    .replace(/(href="#|url\(#)([^")]+)/g, `$1${prefix}-$2`);

/** The file's text without what a symbol does not take: the XML declaration, comments, a doctype. */
export const svgBody = (source: string) =>
  source.replace(/<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/g, '').trim();

/** The box a picture's drawing is in: its `viewBox`, else its width and height. */
export function viewBoxOf(source: string): string {
  const open = /<svg\b[^>]*>/.exec(source)?.[0] ?? '';
  const viewBox = /\sviewBox="([^"]+)"/.exec(open)?.[1];
  if (viewBox) return viewBox;
  const size = (name: string) =>
    /[\d.]+/.exec(new RegExp(`\\s${name}="([^"]+)"`).exec(open)?.[1] ?? '')?.[0];
  const [width, height] = [size('width'), size('height')];
  if (!width || !height) throw new Error('An SVG with neither a viewBox nor a width and height');
  return `0 0 ${width} ${height}`;
}

/** A picture as a `<symbol>`: the root's attributes (its fill, its strokes) kept, but its size and box. */
function symbolOf({ folder, name, source }: SpritePicture): string {
  const id = symbolId(folder, name);
  const svg = prefixIds(svgBody(source), id);
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) throw new Error(`src/assets/${folder}/${name}.svg is not an SVG`);
  const attributes = open[0]
    .slice(4, -1)
    .replace(/\s(xmlns|width|height|viewBox|id|version|x|y)="[^"]*"/g, '')
    .trim();
  const body = svg.slice(open[0].length).replace(/<\/svg>\s*$/, '');
  return `<symbol id="${id}" viewBox="${viewBoxOf(source)}"${attributes ? ` ${attributes}` : ''}>${body}</symbol>`;
}

/** The sprite of some pictures: its file's name (by its text's hash) and its text. */
export function spriteOf(pictures: SpritePicture[]): { file: string; text: string } {
  const sorted = [...new Map(pictures.map((p) => [symbolId(p.folder, p.name), p])).values()].sort(
    (a, b) => (symbolId(a.folder, a.name) < symbolId(b.folder, b.name) ? -1 : 1),
  );
  const text = `<svg xmlns="http://www.w3.org/2000/svg">${sorted.map(symbolOf).join('')}</svg>\n`;
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 8);
  return { file: `sprite.${hash}.svg`, text };
}
