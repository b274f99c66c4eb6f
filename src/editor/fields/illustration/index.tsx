/**
 * An optional `{ image, alt }` (a page hero's illustration): left out of the file when empty, an
 * object Keystatic's own fields would always write.
 */
import type { BasicFormField } from '@keystatic/core';
import { FieldError } from '../check.ts';
import type { FolderPictures } from '../image/pictures.ts';
import { IllustrationInput } from './ui.tsx';
import { illustrationProblem, parseIllustration, type Illustration } from './validate.ts';

export function optionalIllustration(
  label: string,
  pictures: FolderPictures,
  description: string | undefined,
): BasicFormField<Illustration> {
  const problem = illustrationProblem(pictures);
  return {
    kind: 'form',
    label,
    Input: ({ value, onChange, forceValidation }) => (
      <IllustrationInput
        label={label}
        description={description}
        pictures={pictures}
        value={value}
        onChange={onChange}
        problem={forceValidation ? problem(value) : undefined}
      />
    ),
    defaultValue: () => null,
    parse: parseIllustration,
    serialize: (value) => ({ value: value === null ? undefined : { ...value } }),
    validate(value) {
      const shown = problem(value);
      if (shown) throw new FieldError(shown);
      return value;
    },
    reader: { parse: (value) => parseIllustration(value) },
  };
}
