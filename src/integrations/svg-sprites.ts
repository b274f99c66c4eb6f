/**
 * Writes the SVG sprites the build's pages refer to (src/shared/svg-sprite.ts): each
 * `/_astro/sprite.HASH.svg#folder-name` a page shows is a symbol of that file. A page names its
 * sprite by the hash of the text made from its pictures (src/lib/assets.ts, pageSprite); the file
 * is made here again from the symbols the pages show, and a hash that differs fails the build (a
 * sprite holding a picture no page shows from it, or a source that changed under the build).
 * Runs before precompress, so that a sprite is served compressed like the build's other files.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { imageFolders, type AssetFolder } from '../domain/images.ts';
import { pictureOf, spriteOf, type SpritePicture } from '../shared/svg-sprite.ts';

const USE = /\/_astro\/(sprite\.[\w-]{8}\.svg)#([a-z0-9-]+)/g;

async function* htmlFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(path);
    else if (entry.name.endsWith('.html')) yield path;
  }
}

/** Each sprite file the pages of `clientDir` refer to, with the ids of the symbols they show. */
async function spritesShown(clientDir: string): Promise<Map<string, Set<string>>> {
  const shown = new Map<string, Set<string>>();
  for await (const file of htmlFiles(clientDir)) {
    for (const [, sprite, id] of (await readFile(file, 'utf8')).matchAll(USE)) {
      if (!shown.has(sprite!)) shown.set(sprite!, new Set());
      shown.get(sprite!)!.add(id!);
    }
  }
  return shown;
}

/** Writes every sprite the pages show into `clientDir/_astro/`; the number written. */
export async function writeSprites(clientDir: string, assetsDir: URL): Promise<number> {
  const shown = await spritesShown(clientDir);
  for (const [file, ids] of shown) {
    const pictures: SpritePicture[] = await Promise.all(
      [...ids].map(async (id) => {
        const { folder, name } = pictureOf(id);
        if (!imageFolders.includes(folder as AssetFolder))
          throw new Error(`A page shows ${file}#${id}, which names no picture`);
        const source = await readFile(new URL(`${folder}/${name}.svg`, assetsDir), 'utf8');
        return { folder: folder as AssetFolder, name, source };
      }),
    );
    const sprite = spriteOf(pictures);
    if (sprite.file !== file)
      throw new Error(
        `The pages show ${[...ids].join(', ')} from ${file}, but those pictures make ${sprite.file}: a page's sprite must hold exactly the pictures it shows from it`,
      );
    await writeFile(join(clientDir, '_astro', file), sprite.text);
  }
  return shown.size;
}

export default function svgSprites(): AstroIntegration {
  let assetsDir: URL;
  return {
    name: 'svg-sprites',
    hooks: {
      'astro:config:done': ({ config }) => {
        assetsDir = new URL('src/assets/', config.root);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const count = await writeSprites(fileURLToPath(dir), assetsDir);
        if (count) logger.info(`Wrote ${count} SVG sprite${count === 1 ? '' : 's'}.`);
      },
    },
  };
}
