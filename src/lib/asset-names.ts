import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';

export type AssetFolder = 'icons' | 'illustrations' | 'portfolio' | 'logos';

/**
 * The SVG names in one src/assets folder, so that the content schema can
 * reject a misspelt image name with the list of the valid ones.
 */
export function assetNames(folder: AssetFolder): [string, ...string[]] {
  const names = readdirSync(resolve('src/assets', folder))
    .filter((name) => name.endsWith('.svg'))
    .map((name) => name.slice(0, -'.svg'.length))
    .sort();
  if (names.length === 0) throw new Error(`src/assets/${folder} holds no SVG files`);
  return names as [string, ...string[]];
}
