import { readdirSync } from 'node:fs';
import { extname, resolve } from 'node:path';

export type AssetFolder = 'icons' | 'illustrations' | 'portfolio' | 'logos';

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
