/** Resolves the image names used in content to the images of astro:assets. */
import type { ImageMetadata } from 'astro';
import { htmlText } from '../domain/html-text';
import type { AssetFolder } from '../shared/asset-names';
import {
  prefixIds,
  spriteOf,
  svgBody,
  symbolable,
  symbolId,
  viewBoxOf,
  type SpritePicture,
} from '../shared/svg-sprite';

type Modules = Record<string, { default: ImageMetadata }>;

// import.meta.glob takes literal patterns only, hence one line per folder.
const folders: Record<AssetFolder, Modules> = {
  icons: import.meta.glob<{ default: ImageMetadata }>('../assets/icons/*.svg', { eager: true }),
  illustrations: import.meta.glob<{ default: ImageMetadata }>(
    '../assets/illustrations/*.{svg,png,jpg,jpeg,webp,PNG,JPG,JPEG,WEBP}',
    { eager: true },
  ),
  portfolio: import.meta.glob<{ default: ImageMetadata }>(
    '../assets/portfolio/*.{svg,png,jpg,jpeg,webp,PNG,JPG,JPEG,WEBP}',
    { eager: true },
  ),
  logos: import.meta.glob<{ default: ImageMetadata }>(
    '../assets/logos/*.{svg,png,jpg,jpeg,webp,PNG,JPG,JPEG,WEBP}',
    {
      eager: true,
    },
  ),
};

/** The image a content field names (a file name without its extension) in one src/assets folder. */
export function asset(folder: AssetFolder, name: string): ImageMetadata {
  const prefix = `../assets/${folder}/${name}.`;
  for (const [path, module] of Object.entries(folders[folder])) {
    if (path.startsWith(prefix) && !path.slice(prefix.length).includes('.')) return module.default;
  }
  throw noImage(folder, name);
}

const noImage = (folder: AssetFolder, name: string) =>
  new Error(`No image named "${name}" in src/assets/${folder}`);

// The icons' own text, to be written into the page (`iconMarkup`).
const iconSources = import.meta.glob<string>('../assets/icons/*.svg', {
  eager: true,
  query: '?raw',
  import: 'default',
});

/**
 * An icon named in content as an `<svg>` element for the page, `size` CSS pixels square: named by
 * `alt` (an image), or hidden from assistive technology when `alt` is empty (beside its own words).
 * Written in rather than shown by an `<img>`, which makes each SVG a document of its own, parsed,
 * laid out and drawn on the main thread: a service page's sixteen icons cost a fifth of its
 * main-thread work that way (docs/benchmarks.md). Its ids are prefixed with its name, so that two
 * icons on one page cannot take each other's shapes. The files are cleaned at upload
 * (src/domain/svg-clean.ts, which reads them as a page's HTML parser does). An icon with styles of
 * its own (a `<style>` element, `style` attributes: what design tools export) gives undefined, and is
 * shown as an image: in the page, its style sheet would reach every element of it, other icons'
 * too, and the page's policy allows no style attribute.
 */
export function iconMarkup(name: string, size: number, alt: string): string | undefined {
  const source = iconSources[`../assets/icons/${name}.svg`];
  if (source === undefined) throw noImage('icons', name);
  return svgForPage(source, name, size, alt);
}

/** An SVG file's text as an element of a page, unless it has styles of its own: see `iconMarkup`. */
export function svgForPage(
  source: string,
  name: string,
  size: number,
  alt: string,
): string | undefined {
  if (!symbolable(source)) return undefined;
  const svg = prefixIds(svgBody(source), `icon-${name}`);
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) throw new Error(`The icon ${name} is not an SVG`);
  const tag = open[0]
    .replace(/\s(xmlns|width|height)="[^"]*"/g, '')
    .replace(/^<svg/, `<svg width="${size}" height="${size}" ${pictureLabel(alt)}`);
  return tag + svg.slice(open[0].length);
}

/** An `<svg>`'s attributes that make it an image named `alt`, or hide it beside its own words. */
const pictureLabel = (alt: string) =>
  alt ? `role="img" aria-label="${htmlText(alt)}"` : 'aria-hidden="true"';

// The illustrations' own text, read only by a page that puts one in its sprite.
const illustrationSources = import.meta.glob<string>('../assets/illustrations/*.svg', {
  query: '?raw',
  import: 'default',
});

async function svgSource(folder: 'icons' | 'illustrations', name: string) {
  if (folder === 'icons') return iconSources[`../assets/icons/${name}.svg`];
  return illustrationSources[`../assets/illustrations/${name}.svg`]?.();
}

/** A picture of a page's sprite: the address that shows it (the file and its symbol), its box. */
export interface SpritePart {
  href: string;
  viewBox: string;
}

/** A page's sprite: each picture it holds; undefined for one it does not (shown as an `<img>`). */
export type Sprite = (folder: AssetFolder, name: string) => SpritePart | undefined;

/**
 * One file for the SVG pictures a page shows as it opens (src/shared/svg-sprite.ts says why), of
 * those named: the SVGs without styles of their own. None with fewer than two (one file is one
 * document either way, and an `<img>` can be the largest paint, which an `<svg>` cannot), nor in
 * `astro dev`, whose pages are not written to files the build could read the sprite from.
 */
export async function pageSprite(
  pictures: Partial<Record<'icons' | 'illustrations', (string | undefined)[]>>,
): Promise<Sprite | undefined> {
  if (import.meta.env.DEV) return undefined;
  const held: SpritePicture[] = [];
  for (const folder of ['illustrations', 'icons'] as const) {
    for (const name of pictures[folder] ?? []) {
      const source = name && (await svgSource(folder, name));
      if (name && source && symbolable(source)) held.push({ folder, name, source });
    }
  }
  if (held.length < 2) return undefined;
  const href = `/_astro/${spriteOf(held).file}`;
  const parts = new Map(
    held.map((p) => {
      const id = symbolId(p.folder, p.name);
      return [id, { href: `${href}#${id}`, viewBox: viewBoxOf(p.source) }];
    }),
  );
  return (folder, name) => parts.get(symbolId(folder, name));
}
