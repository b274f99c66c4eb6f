/**
 * An image named as content names it (a file of one src/assets folder, without its extension),
 * chosen from the folder's pictures or uploaded into it. The upload is kept pending by the editor's
 * endpoint (src/editor/dev-server/images.ts), shown from there, and chosen for the field; saving
 * the entry then names it, and the Save moves it into the folder itself, where every page can use
 * it (src/editor/dev-server/pending.ts); unsaved, it never reaches the folder. The file is checked here
 * first, with the rule the endpoint checks it with again (src/domain/images.ts); the endpoint then
 * rewrites an SVG without what could run a script (src/domain/svg-clean.ts), and what it took out is
 * said beside the upload. The endpoint also lists which images nothing uses, which the field offers
 * to remove.
 */
import type { BasicFormField, FormFieldStoredValue } from '@keystatic/core';
import { imageKinds, type AssetFolder } from '../../../domain/images.ts';
import { FieldError } from '../check.ts';
import type { FolderPictures } from './pictures.ts';
import { ImageChooser } from './ui.tsx';
import { imageNameProblem } from './validate.ts';

/**
 * A required or optional image of one folder, as the site's schema takes it. A required one starts
 * empty: no picture is a sensible default for a new tile or logo. `altBeside`: an Alt text follows
 * it, which a new picture asks to be checked.
 */
export function imageField(
  folder: AssetFolder,
  label: string,
  pictures: FolderPictures,
  options: { description?: string; optional?: boolean; altBeside?: boolean } = {},
): BasicFormField<string> {
  const kind = imageKinds[folder];
  const problem = imageNameProblem(folder, pictures, label, options.optional);
  const validate = (value: string) => {
    const found = problem(value);
    if (found) throw new FieldError(`${label}: ${found[0]!.toLowerCase()}${found.slice(1)}`);
    return value;
  };
  const parse = (value: FormFieldStoredValue) => {
    if (value === undefined) return '';
    if (typeof value !== 'string') throw new FieldError(`must be the name of ${kind.one}`);
    return value;
  };
  return {
    kind: 'form',
    label,
    Input: ({ value, onChange, forceValidation }) => (
      <ImageChooser
        folder={folder}
        pictures={pictures}
        label={label}
        description={options.description}
        value={value}
        onChange={onChange}
        optional={options.optional}
        altBeside={options.altBeside}
        errorMessage={forceValidation ? problem(value) : undefined}
      />
    ),
    defaultValue: () => '',
    parse,
    serialize: (value) => ({ value: value === '' && options.optional ? undefined : value }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}
