/**
 * A one-line text checked by the site's own rule for it (a redirect's address, a time zone, a
 * video room), which the site's schema runs too (src/content-model/zod.ts); the base of the other
 * one-line kinds (a date, a list written as one line).
 */
import type { BasicFormField, FormFieldStoredValue } from '@keystatic/core';
import { FieldError, problemOf } from '../check.ts';
import { CheckedText } from './ui.tsx';

/** How a one-line text of the editor is kept in the file. */
export interface Stored {
  parse(value: FormFieldStoredValue): string;
  serialize(text: string): FormFieldStoredValue;
}

/** Kept as the string itself; left out of the file when empty if `optional`. */
export const asString = (kind: string, optional = false): Stored => ({
  parse(value) {
    if (value === undefined) return '';
    if (typeof value !== 'string') throw new FieldError(`must be ${kind}`);
    return value;
  },
  serialize: (text) => (optional && text === '' ? undefined : text),
});

/** A one-line text checked by `check` (which throws the problem), kept in the file as `stored` says. */
export function checkedTextField(
  label: string,
  description: string | undefined,
  check: (text: string) => void,
  stored: Stored,
): BasicFormField<string> {
  const validate = (text: string) => {
    check(text);
    return text;
  };
  return {
    kind: 'form',
    label,
    Input: (props) => (
      <CheckedText
        {...props}
        label={label}
        description={description}
        problem={(text) => problemOf(() => validate(text))}
      />
    ),
    defaultValue: () => '',
    parse: stored.parse,
    serialize: (text) => ({ value: stored.serialize(text) }),
    validate,
    reader: { parse: (value) => validate(stored.parse(value)) },
  };
}

/**
 * A one-line text checked by `problem`, the site's own rule for that value; `optional`, it may be
 * left empty (and is then left out of the file). `kind` says what the value is.
 */
export const checkedField = (
  label: string,
  description: string | undefined,
  problem: (text: string) => string | undefined,
  kind: string,
  { optional = false } = {},
) =>
  checkedTextField(
    label,
    description,
    (value) => {
      const found = value || !optional ? problem(value) : undefined;
      if (found) throw new FieldError(found);
    },
    asString(kind, optional),
  );
