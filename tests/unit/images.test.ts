// The check of an image added through the visual editor (src/domain/images.ts), which its upload
// field and its endpoint both run, where the editor shows a picture, and the content schema's live list
// of a folder's images.
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import sharp, { type Sharp } from 'sharp';
import {
  imageNameFrom,
  imageProblem,
  maxImageBytes,
  pictureAddress,
  pixelSize,
  tooManyPixels,
} from '../../src/domain/images';
import { currentAssetNames } from '../../src/shared/asset-names';

const bytes = (text: string) => new TextEncoder().encode(text);
const svg = bytes(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M4 4h16"/></svg>',
);
/** A picture of `width` × `height` as an image program writes it (sharp, the build's own). */
const picture = (width: number, height: number, alpha = false) =>
  sharp({
    create: {
      width,
      height,
      channels: alpha ? 4 : 3,
      background: { r: 0, g: 128, b: 255, alpha: 0.5 },
    },
  });
const written = async (image: Sharp) => new Uint8Array(await image.toBuffer());
const png = await written(picture(3, 2).png());
const jpeg = await written(picture(3, 2).jpeg());
const webp = await written(picture(3, 2).webp());

describe('the name content uses for an uploaded file', () => {
  it.each([
    ['Cloud Upload.SVG', 'cloud-upload'],
    ['C:\\Users\\ana\\Desktop\\rocket.svg', 'rocket'],
    ['../../../etc/passwd.svg', 'passwd'],
    ['Café  Menü (final).png', 'cafe-menu-final'],
    ['app.screenshot.webp', 'app-screenshot'],
    ['___.svg', ''],
    ['ダウンロード.svg', ''],
  ])('%s is named "%s"', (file, name) => {
    expect(imageNameFrom(file)).toBe(name);
  });
});

describe('what an upload may be', () => {
  it('takes an SVG icon and the formats of each picture folder', () => {
    expect(imageProblem('icons', 'ring.svg', svg, [])).toBeUndefined();
    expect(imageProblem('portfolio', 'shot.png', png, [])).toBeUndefined();
    expect(imageProblem('portfolio', 'shot.jpeg', jpeg, [])).toBeUndefined();
    expect(imageProblem('illustrations', 'hero.webp', webp, [])).toBeUndefined();
    expect(imageProblem('logos', 'brand.svg', svg, [])).toBeUndefined();
  });

  it('refuses a picture for an icon, saying what to do instead: icons are SVG only', () => {
    expect(imageProblem('icons', 'ring.png', png, [])).toBe(
      'Icons are line drawings in SVG, and "ring.png" is a PNG file. Export the icon as SVG from your design tool (in Figma: Export, then SVG), or choose one of the icons in the list.',
    );
    expect(imageProblem('portfolio', 'shot.gif', png, [])).toBe(
      'Portfolio images can be SVG, PNG, JPEG or WebP files, and "shot.gif" is a GIF file. Save it as PNG or JPEG first (any image program can), then upload that.',
    );
  });

  it("reads a picture's size from its header as the build would, in every format an upload takes", async () => {
    const formats: [string, Sharp, 'png' | 'jpeg' | 'webp'][] = [
      ['PNG', picture(1234, 567).png(), 'png'],
      ['JPEG', picture(1234, 567).jpeg(), 'jpeg'],
      ['progressive JPEG', picture(1234, 567).jpeg({ progressive: true }), 'jpeg'],
      ['lossy WebP', picture(1234, 567).webp(), 'webp'],
      ['lossless WebP', picture(1234, 567).webp({ lossless: true }), 'webp'],
      ['WebP with transparency', picture(1234, 567, true).webp(), 'webp'],
    ];
    for (const [what, image, kind] of formats)
      expect(pixelSize(await written(image), kind), what).toEqual({ width: 1234, height: 567 });
    for (const file of readdirSync('src/assets', { recursive: true, encoding: 'utf8' })) {
      const kind = /\.png$/.test(file)
        ? 'png'
        : /\.jpe?g$/.test(file)
          ? 'jpeg'
          : /\.webp$/.test(file)
            ? 'webp'
            : undefined;
      if (!kind) continue;
      const path = join('src/assets', file);
      const { width, height } = await sharp(path).metadata();
      expect(pixelSize(new Uint8Array(readFileSync(path)), kind), file).toEqual({ width, height });
    }
  });

  it('refuses a canvas no page needs, of few bytes and vast (the build would run out of memory), or none', async () => {
    // A PNG of 3 × 2 whose header says 60,000 × 60,000: what such a file holds is all the build reads first.
    const vast = png.slice();
    new DataView(vast.buffer).setUint32(16, 60_000);
    new DataView(vast.buffer).setUint32(20, 60_000);
    expect(imageProblem('portfolio', 'bomb.png', vast, [])).toBe(
      '"bomb.png" is 60,000 × 60,000 pixels, more than any page needs: save it at most 2,400 pixels on its longest side, in any image program, then upload that',
    );
    expect(tooManyPixels(vast)).toBe(true);
    const wide = await written(picture(8001, 2).png());
    expect(imageProblem('portfolio', 'wide.png', wide, [])).toMatch(
      /is 8,001 × 2 pixels, more than/,
    );
    // A camera's photo passes: the build makes it smaller.
    expect(tooManyPixels(await written(picture(6000, 4000).jpeg({ quality: 1 })))).toBe(false);
    const sizeless = jpeg.slice(0, 4);
    expect(imageProblem('portfolio', 'cut.jpeg', sizeless, [])).toBe(
      '"cut.jpeg" does not say its size in pixels: save it again from an image program',
    );
  });

  it('refuses a file whose bytes are not what its name says', () => {
    expect(imageProblem('portfolio', 'shot.png', jpeg, [])).toBe('"shot.png" is not a PNG image');
    expect(imageProblem('icons', 'ring.svg', bytes('<html><body>hi</body></html>'), [])).toBe(
      '"ring.svg" is not a SVG image',
    );
    expect(imageProblem('icons', 'ring.svg', new Uint8Array(), [])).toBe('"ring.svg" is empty');
  });

  it('never replaces an image of the folder', () => {
    expect(imageProblem('icons', 'Cloud.svg', svg, ['cloud', 'lock'])).toMatch(
      /already another icon named "cloud"/,
    );
  });

  it('refuses a name with nothing usable left', () => {
    expect(imageProblem('icons', '###.svg', svg, [])).toMatch(/leaves no name to use/);
  });

  it('refuses a file larger than its folder takes', () => {
    const big = new Uint8Array(maxImageBytes.icons + 1);
    big.set(svg);
    expect(imageProblem('icons', 'ring.svg', big, [])).toBe(
      '"ring.svg" is 65 KB: icons can be at most 64 KB. To make it smaller, export it again as a plain SVG, without pictures embedded in it.',
    );
    const photo = new Uint8Array(5 * 1024 * 1024);
    photo.set(png);
    expect(imageProblem('illustrations', 'team.png', photo, [])).toBe(
      '"team.png" is 5.0 MB: illustrations can be at most 2.0 MB. To make it smaller, save it at most 2,400 pixels on its longest side, as JPEG or WebP (quality 80 is plenty), in any image program or an online compressor such as squoosh.app.',
    );
  });

  it.each([
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>',
    '<!DOCTYPE svg [<!ATTLIST svg onload CDATA "alert(1)">]><svg><path/></svg>',
  ])(
    'refuses an SVG with a DOCTYPE that declares anything (entities), before anything parses it: %s',
    (text) => {
      expect(imageProblem('icons', 'ring.svg', bytes(text), [])).toBe(
        '"ring.svg" holds a DOCTYPE with declarations (entities), which no drawing needs: export it again as a plain SVG',
      );
    },
  );

  it('leaves scripts in an SVG to the endpoint, which cleans every SVG (svg-clean.test.ts)', () => {
    const scripted = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><path/></svg>';
    expect(imageProblem('icons', 'ring.svg', bytes(scripted), [])).toBeUndefined();
  });
});

describe('where the editor shows a picture of a folder', () => {
  it('is the file itself in `astro dev`, which serves src/assets', () => {
    expect(pictureAddress('portfolio', 'fleetdesk.svg', true)).toBe(
      '/src/assets/portfolio/fleetdesk.svg',
    );
    // A file copied in by hand, whatever its name: its name encoded, not cut at "#" or "?".
    expect(pictureAddress('logos', 'logo #2?é.svg', true)).toBe(
      '/src/assets/logos/logo%20%232%3F%C3%A9.svg',
    );
  });

  it("is the image endpoint on the live site, by the picture's name, which sends the draft's file", () => {
    expect(pictureAddress('portfolio', 'fleetdesk-v2.png', false)).toBe(
      '/api/editor/images?folder=portfolio&preview=fleetdesk-v2',
    );
  });
});

describe("the content schema's list of a folder's images", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('knows an image added after it was first read, and one removed', () => {
    root = mkdtempSync(join(tmpdir(), 'asset-names-'));
    mkdirSync(join(root, 'icons'));
    writeFileSync(join(root, 'icons', 'lock.svg'), '');
    expect(currentAssetNames('icons', root)).toEqual(['lock']);
    writeFileSync(join(root, 'icons', 'ring.svg'), '');
    // The folder's mtime may not tick within one test on a coarse clock: move it on.
    utimesSync(join(root, 'icons'), new Date(), new Date(Date.now() + 2_000));
    expect(currentAssetNames('icons', root)).toEqual(['lock', 'ring']);
    rmSync(join(root, 'icons', 'lock.svg'));
    utimesSync(join(root, 'icons'), new Date(), new Date(Date.now() + 4_000));
    expect(currentAssetNames('icons', root)).toEqual(['ring']);
  });
});
