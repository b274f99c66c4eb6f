// The check of an image added through the visual editor (src/domain/images.ts), which its upload
// field and its endpoint both run, where the editor shows a picture, and the content schema's live list
// of a folder's images.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  imageNameFrom,
  imageProblem,
  maxImageBytes,
  pictureAddress,
} from '../../src/domain/images';
import { currentAssetNames } from '../../src/shared/asset-names';

const bytes = (text: string) => new TextEncoder().encode(text);
const svg = bytes(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M4 4h16"/></svg>',
);
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const webp = new Uint8Array([...bytes('RIFF'), 0, 0, 0, 0, ...bytes('WEBPVP8 ')]);

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
