/**
 * A page's SVG pictures in one file (src/shared/svg-sprite.ts), and the build writing each file
 * its pages show (src/integrations/svg-sprites.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSprites } from '../../src/integrations/svg-sprites';
import { spriteOf, viewBoxOf, type SpritePicture } from '../../src/shared/svg-sprite';

const ring: SpritePicture = {
  folder: 'icons',
  name: 'ring',
  source: `<?xml version="1.0"?>
<!-- drawn by hand -->
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 48 48" fill="none" stroke="#2563eb" stroke-width="2"><defs><linearGradient id="g"/></defs><circle id="c" r="4" fill="url(#g)"/><use href="#c"/></svg>`,
};
const hero: SpritePicture = {
  folder: 'illustrations',
  name: 'home-page',
  source:
    '<svg xmlns="http://www.w3.org/2000/svg" width="560" height="420"><rect width="4" height="4"/></svg>',
};

describe('a sprite of SVG pictures', () => {
  it('holds each picture as a symbol with its box, its drawing attributes and ids of its own', () => {
    const { text } = spriteOf([ring, hero]);
    expect(text).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg">' +
        '<symbol id="icons-ring" viewBox="0 0 48 48" fill="none" stroke="#2563eb" stroke-width="2">' +
        '<defs><linearGradient id="icons-ring-g"/></defs><circle id="icons-ring-c" r="4" fill="url(#icons-ring-g)"/><use href="#icons-ring-c"/></symbol>' +
        '<symbol id="illustrations-home-page" viewBox="0 0 560 420"><rect width="4" height="4"/></symbol>' +
        '</svg>\n',
    );
  });

  it('is named by its text: the same pictures in any order one file, another picture another', () => {
    const one = spriteOf([ring, hero]);
    expect(one.file).toMatch(/^sprite\.[\w-]{8}\.svg$/);
    expect(spriteOf([hero, ring, hero]).file).toBe(one.file);
    expect(spriteOf([ring]).file).not.toBe(one.file);
    expect(spriteOf([ring, { ...hero, source: hero.source.replace('4', '5') }]).file).not.toBe(
      one.file,
    );
  });

  it("takes a picture's box from its width and height when it has no viewBox", () => {
    expect(viewBoxOf(hero.source)).toBe('0 0 560 420');
    expect(viewBoxOf(ring.source)).toBe('0 0 48 48');
    expect(() => viewBoxOf('<svg/>')).toThrow('neither a viewBox nor a width and height');
  });
});

describe('the build writing the sprites its pages show', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const site = (pages: Record<string, string>) => {
    dir = mkdtempSync(join(tmpdir(), 'sprites-'));
    const client = join(dir, 'client');
    mkdirSync(join(client, '_astro'), { recursive: true });
    mkdirSync(join(dir, 'assets', 'icons'), { recursive: true });
    mkdirSync(join(dir, 'assets', 'illustrations'), { recursive: true });
    writeFileSync(join(dir, 'assets', 'icons', 'ring.svg'), ring.source);
    writeFileSync(join(dir, 'assets', 'illustrations', 'home-page.svg'), hero.source);
    for (const [path, html] of Object.entries(pages)) {
      mkdirSync(join(client, path), { recursive: true });
      writeFileSync(join(client, path, 'index.html'), html);
    }
    return { client, assets: pathToFileURL(join(dir, 'assets') + '/') };
  };
  const use = (file: string, id: string) => `<svg><use href="/_astro/${file}#${id}"></use></svg>`;

  it('writes each file from the pictures the pages show of it', async () => {
    const { file, text } = spriteOf([ring, hero]);
    const { client, assets } = site({
      '.': use(file, 'illustrations-home-page') + use(file, 'icons-ring'),
      about: '<p>No sprite</p>',
    });
    expect(await writeSprites(client, assets)).toBe(1);
    expect(readFileSync(join(client, '_astro', file), 'utf8')).toBe(text);
  });

  it('fails the build when a page names a sprite holding a picture it does not show', async () => {
    const { file } = spriteOf([ring, hero]);
    const { client, assets } = site({ '.': use(file, 'icons-ring') });
    await expect(writeSprites(client, assets)).rejects.toThrow(
      `The pages show icons-ring from ${file}, but those pictures make sprite.`,
    );
  });

  it('fails the build when a page shows a symbol that names no picture', async () => {
    const { client, assets } = site({ '.': use('sprite.abcdefgh.svg', 'videos-ring') });
    await expect(writeSprites(client, assets)).rejects.toThrow('names no picture');
  });
});
