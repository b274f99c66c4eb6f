import type { AssetFolder } from '../../../domain/images.ts';
import { imageKinds } from '../../../domain/images.ts';
import { isKnownImage, type FolderPictures } from './pictures.ts';

/**
 * What is wrong with an image's name, shown under the field: none chosen (when one must be), or
 * one the folder no longer holds.
 */
export const imageNameProblem =
  (folder: AssetFolder, pictures: FolderPictures, label: string, optional = false) =>
  (value: string) => {
    if (value === '') return optional ? undefined : `Choose ${label.toLowerCase()}`;
    if (!isKnownImage(folder, pictures, value))
      return `There is no ${imageKinds[folder].one} named "${value}" any more: choose another`;
    return undefined;
  };
