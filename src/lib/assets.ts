/** Resolves the image names used in content to the optimised assets of astro:assets. */
import type { ImageMetadata } from 'astro';
import type { AssetFolder } from './asset-names';

type Modules = Record<string, { default: ImageMetadata }>;

const folders: Record<AssetFolder, Modules> = {
  icons: import.meta.glob<{ default: ImageMetadata }>('../assets/icons/*.svg', { eager: true }),
  illustrations: import.meta.glob<{ default: ImageMetadata }>('../assets/illustrations/*.svg', {
    eager: true,
  }),
  portfolio: import.meta.glob<{ default: ImageMetadata }>('../assets/portfolio/*.svg', {
    eager: true,
  }),
  logos: import.meta.glob<{ default: ImageMetadata }>('../assets/logos/*.svg', { eager: true }),
};

export function asset(folder: AssetFolder, name: string): ImageMetadata {
  const module = folders[folder][`../assets/${folder}/${name}.svg`];
  if (!module) throw new Error(`No image src/assets/${folder}/${name}.svg`);
  return module.default;
}
