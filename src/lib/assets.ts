/** Resolves the image names used in content to the images of astro:assets. */
import type { ImageMetadata } from 'astro';
import type { AssetFolder } from '../shared/asset-names';

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
  throw new Error(`No image named "${name}" in src/assets/${folder}`);
}
