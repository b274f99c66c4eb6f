import { readdirSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { imageExtensions, type AssetFolder } from '../domain/images.ts';

export type { AssetFolder };

/**
 * The image names (file names without their extension) in one src/assets folder, so that the
 * content schema can reject a misspelt name with the list of the valid ones.
 */
export function assetNames(folder: AssetFolder, assets = 'src/assets'): [string, ...string[]] {
  const seen = new Map<string, string>();
  for (const file of readdirSync(resolve(assets, folder)).sort()) {
    const extension = extname(file).toLowerCase();
    if (!imageExtensions[folder].includes(extension)) continue;
    const name = file.slice(0, -extension.length);
    // Content names an image without its extension, so two files must not share a name.
    if (seen.has(name)) {
      throw new Error(
        `src/assets/${folder} has both ${seen.get(name)} and ${file}: rename one, since content names an image without its extension`,
      );
    }
    seen.set(name, file);
  }
  if (seen.size === 0) {
    throw new Error(`src/assets/${folder} holds no ${imageExtensions[folder].join(', ')} files`);
  }
  return [...seen.keys()].sort() as [string, ...string[]];
}

const current = new Map<string, { changed: number; names: readonly string[] }>();

/**
 * The image names of a folder as it is now: read again once the folder has changed (a file added
 * or removed changes its mtime), so that an image uploaded while `npm run edit` runs is known to
 * the content schema at once, and a build of 2,000 pages still reads each folder once.
 */
export function currentAssetNames(folder: AssetFolder, assets = 'src/assets'): readonly string[] {
  const path = resolve(assets, folder);
  const changed = statSync(path).mtimeMs;
  const cached = current.get(path);
  if (cached?.changed === changed) return cached.names;
  const names = assetNames(folder, assets);
  current.set(path, { changed, names });
  return names;
}
