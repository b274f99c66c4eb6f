/**
 * The content's images: the src/assets folders content names images from, the files each takes,
 * and the check of an image added through the visual editor, which its upload field runs in the
 * browser (an answer at once) and its dev-only endpoint runs again before writing the file
 * (src/editor/dev-server/images.ts), which also cleans an SVG (./svg-clean.ts).
 */
import { grouped } from './numbers.ts';

/** Where the visual editor uploads an image to, in `astro dev` only. */
export const imageUploadPath = '/api/editor/images';

export const imageFolders = ['icons', 'illustrations', 'portfolio', 'logos'] as const;
export type AssetFolder = (typeof imageFolders)[number];

/**
 * Where the editor's endpoint sends a folder's picture by its name, under the policy of src/assets:
 * an upload no Save has named yet, else the folder's file.
 */
export const picturePreviewAddress = (folder: AssetFolder, name: string) =>
  `${imageUploadPath}?${new URLSearchParams({ folder, preview: name })}`;

/** The name content gives a picture: its file's name, without the folder or the extension. */
export const pictureName = (file: string) => file.replace(/^.*\//, '').replace(/\.[^.]*$/, '');

/**
 * Where the editor shows a file of a folder: in `astro dev` the dev server serves src/assets
 * itself; the live site's editor has no such address, and its endpoint sends the draft's file. A
 * file copied in by hand may be called anything ("logo #2.svg"): its name is encoded.
 */
export const pictureAddress = (folder: AssetFolder, file: string, dev: boolean) =>
  dev
    ? `/src/assets/${folder}/${encodeURIComponent(file)}`
    : picturePreviewAddress(folder, pictureName(file));

/** One image of a folder as the editor's endpoint lists it: its name, where the dev server serves it, whether anything shows it. */
export interface FolderImage {
  name: string;
  url: string;
  used: boolean;
}

/** What a folder's images are called where a person reads about them (the editor, its messages). */
export const imageKinds: Record<AssetFolder, { one: string; many: string }> = {
  icons: { one: 'icon', many: 'icons' },
  illustrations: { one: 'illustration', many: 'illustrations' },
  portfolio: { one: 'portfolio image', many: 'portfolio images' },
  logos: { one: 'logo', many: 'logos' },
};

/**
 * The image files each folder takes: icons are line drawings (SVG only); the others also take
 * screenshots and photos, which the build turns into responsive AVIF and WebP.
 */
export const imageExtensions: Record<AssetFolder, readonly string[]> = {
  icons: ['.svg'],
  illustrations: ['.svg', '.png', '.jpg', '.jpeg', '.webp'],
  portfolio: ['.svg', '.png', '.jpg', '.jpeg', '.webp'],
  logos: ['.svg', '.png', '.jpg', '.jpeg', '.webp'],
};

/** The largest file each folder takes: an icon is a few hundred bytes; a screenshot, a few hundred KB. */
export const maxImageBytes: Record<AssetFolder, number> = {
  icons: 64 * 1024,
  illustrations: 2 * 1024 * 1024,
  portfolio: 4 * 1024 * 1024,
  logos: 1024 * 1024,
};

/** How content names an image: its file name without the extension. */
export const imageName = {
  regex: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  message: 'lowercase letters, digits and single dashes, such as "cloud-upload"',
  max: 60,
} as const;

const extensionOf = (fileName: string) => /\.[^.]*$/.exec(fileName)?.[0].toLowerCase() ?? '';

/**
 * The name content will use for an uploaded file: "Cloud Upload.SVG" becomes "cloud-upload". Empty
 * when nothing usable is left, which `imageProblem` then refuses.
 */
export function imageNameFrom(fileName: string): string {
  const file = fileName.replace(/^.*[\\/]/, '');
  return file
    .slice(0, file.length - extensionOf(file).length)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, imageName.max)
    .replace(/-+$/, '');
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  signature.every((byte, index) => bytes[at + index] === byte);

/** What the bytes are, whatever the file is called. */
function sniff(bytes: Uint8Array): 'svg' | 'png' | 'jpeg' | 'webp' | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'webp';
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096));
  if (
    /^(?:\uFEFF)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(
      text,
    )
  )
    return 'svg';
  return undefined;
}

const kindOfExtension: Record<string, ReturnType<typeof sniff>> = {
  '.svg': 'svg',
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.webp': 'webp',
};

/** The longest side, in pixels, a photo needs: twice the widest any page shows one at. */
export const largestSide = 2400;

/**
 * The most pixels a picture taken as it is may have, a side and in all: a camera's photo within the
 * folder's bytes passes (the build makes it smaller); a file of few bytes and a vast canvas (a PNG
 * of 60,000 × 60,000 is 437 KB) would take the build's memory, and fail it, at every publish.
 */
const mostPixels = { side: 8000, all: 40_000_000 };

/** A PNG's, a JPEG's or a WebP's width and height, as its header says; undefined if it says none. */
export function pixelSize(bytes: Uint8Array, kind: ReturnType<typeof sniff>) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const uint16 = (at: number, little = false) => view.getUint16(at, little);
  const uint24le = (at: number) => view.getUint16(at, true) | (view.getUint8(at + 2) << 16);
  if (kind === 'png' && bytes.length >= 24)
    return { width: view.getUint32(16), height: view.getUint32(20) };
  if (kind === 'jpeg') {
    // The markers after SOI, each with its length, up to a frame's (SOF0 to SOF15 but DHT, JPG, DAC).
    for (let at = 2; at + 9 < bytes.length;) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at++;
        continue;
      }
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
        return { height: uint16(at + 5), width: uint16(at + 7) };
      at += 2 + uint16(at + 2);
    }
    return undefined;
  }
  if (kind === 'webp' && bytes.length >= 30) {
    const chunk = String.fromCharCode(...bytes.subarray(12, 16));
    if (chunk === 'VP8 ')
      return { width: uint16(26, true) & 0x3fff, height: uint16(28, true) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = view.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') return { width: uint24le(24) + 1, height: uint24le(27) + 1 };
  }
  return undefined;
}

const tooMany = ({ width, height }: { width: number; height: number }) =>
  width > mostPixels.side || height > mostPixels.side || width * height > mostPixels.all;

/** Whether a photo has more pixels than it may be taken with (the editor makes it smaller first). */
export function tooManyPixels(bytes: Uint8Array) {
  const size = pixelSize(bytes, sniff(bytes));
  return size !== undefined && tooMany(size);
}

/** Why a picture's canvas is refused, or undefined: unreadable, or more pixels than any page needs. */
function canvasProblem(fileName: string, bytes: Uint8Array, kind: ReturnType<typeof sniff>) {
  if (kind === 'svg') return undefined;
  const size = pixelSize(bytes, kind);
  if (!size || size.width === 0 || size.height === 0)
    return `"${fileName}" does not say its size in pixels: save it again from an image program`;
  if (tooMany(size))
    return `"${fileName}" is ${grouped(size.width)} × ${grouped(size.height)} pixels, more than any page needs: save it at most ${grouped(largestSide)} pixels on its longest side, in any image program, then upload that`;
  return undefined;
}

/** A size for a person: "5,120 KB", "1.8 MB". */
export const sizeInWords = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${grouped(Math.ceil(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A file larger than its folder takes, as a sentence with the way to make it fit: "Icons can be at
 * most 64 KB". A photo (PNG, JPEG, WebP) the editor makes smaller itself where the browser can
 * (src/editor/fields/image/shrink.ts); this is what is said where it cannot.
 */
export const tooLarge = (folder: AssetFolder, fileName: string, size?: number) => {
  const limit = `${imageKinds[folder].many} can be at most ${sizeInWords(maxImageBytes[folder])}`;
  const what =
    size === undefined ? `"${fileName}" is too large` : `"${fileName}" is ${sizeInWords(size)}`;
  const how = /\.svg$/i.test(fileName)
    ? 'export it again as a plain SVG, without pictures embedded in it'
    : `save it at most ${grouped(largestSide)} pixels on its longest side, as JPEG or WebP (quality 80 is plenty), in any image program or an online compressor such as squoosh.app`;
  return `${what}: ${limit}. To make it smaller, ${how}.`;
};

/** What a file of the wrong kind says, with what to do instead. */
function wrongKind(folder: AssetFolder, fileName: string, extension: string) {
  const what = extension ? `a ${extension.slice(1).toUpperCase()} file` : 'not a picture';
  if (folder === 'icons')
    return `Icons are line drawings in SVG, and "${fileName}" is ${what}. Export the icon as SVG from your design tool (in Figma: Export, then SVG), or choose one of the icons in the list.`;
  return `${capitalised(imageKinds[folder].many)} can be SVG, PNG, JPEG or WebP files, and "${fileName}" is ${what}. Save it as PNG or JPEG first (any image program can), then upload that.`;
}

const capitalised = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/**
 * What is wrong with adding this file to a folder, as a sentence for the person who chose it, or
 * undefined. `existing` are the names the folder holds already with other pictures: an upload never
 * replaces an image other pages may show (the endpoint takes the same file again as a no-op).
 */
export function imageProblem(
  folder: AssetFolder,
  fileName: string,
  bytes: Uint8Array,
  existing: readonly string[],
): string | undefined {
  const extension = extensionOf(fileName);
  const allowed = imageExtensions[folder];
  const kind = imageKinds[folder];
  if (!allowed.includes(extension)) return wrongKind(folder, fileName, extension);
  const name = imageNameFrom(fileName);
  if (!imageName.regex.test(name))
    return `"${fileName}" leaves no name to use: rename the file with ${imageName.message}`;
  if (existing.includes(name))
    return `There is already another ${kind.one} named "${name}": choose it from the list, or rename your file`;
  if (bytes.length === 0) return `"${fileName}" is empty`;
  if (bytes.length > maxImageBytes[folder]) return tooLarge(folder, fileName, bytes.length);
  if (extension === '.svg') {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    // Entities (billion laughs, a file read from disk) are refused before any parser is asked to
    // read the file. Scripts and the like are for the endpoint to take out: it rewrites every SVG
    // with DOMPurify (./svg-clean.ts); a deny-list of them here let through what it did not foresee.
    if (/<!ENTITY|<!DOCTYPE[^>]*\[/i.test(text))
      return `"${fileName}" holds a DOCTYPE with declarations (entities), which no drawing needs: export it again as a plain SVG`;
  }
  const sniffed = sniff(bytes);
  if (sniffed !== kindOfExtension[extension])
    return `"${fileName}" is not a ${extension.slice(1).toUpperCase()} image`;
  return canvasProblem(fileName, bytes, sniffed);
}
