import type { FormFieldStoredValue } from '@keystatic/core';
import { lengths } from '../../../domain/content-rules.ts';
import { FieldError } from '../check.ts';
import { isKnownImage, type FolderPictures } from '../image/pictures.ts';

export type Illustration = { image: string; alt: string } | null;

/** What is wrong with an illustration: none of the folder's, or its alt text's length. */
export const illustrationProblem = (pictures: FolderPictures) => (value: Illustration) => {
  if (value === null) return undefined;
  if (!isKnownImage('illustrations', pictures, value.image)) return 'Choose an illustration';
  const { min, max } = lengths.alt;
  if (value.alt.length < min || value.alt.length > max)
    return `Alt text must be ${min}-${max} characters`;
  return undefined;
};

/** `{ image, alt }` as the file holds it; left out, none. */
export function parseIllustration(value: FormFieldStoredValue): Illustration {
  if (value === undefined || value === null) return null;
  const record = value as Record<string, unknown>;
  if (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(record).every((key) => key === 'image' || key === 'alt') &&
    typeof record.image === 'string' &&
    typeof record.alt === 'string'
  ) {
    return { image: record.image, alt: record.alt };
  }
  throw new FieldError('must be { image, alt }');
}
