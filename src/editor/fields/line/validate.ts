/** A list written as one line: read, written, and checked with the site's rule of the list. */
import type { FormFieldStoredValue } from '@keystatic/core';
import { FieldError, type Check } from '../check.ts';

/** What a zod schema refuses in a value, as one line naming the list item when there is one. */
export function zodProblem(schema: Check, value: string[]) {
  const issue = schema.safeParse(value).error?.issues[0];
  if (!issue) return undefined;
  const index = issue.path[0];
  return typeof index === 'number' ? `"${value[index]}" ${issue.message}` : issue.message;
}

/** "09:30-12:30, 13:30-17:00" → the items as the file lists them. */
export const ranges = (text: string) =>
  text
    .split(',')
    .map((range) => range.trim())
    .filter(Boolean);

/** A list of texts as the file holds it → the line the editor shows (`kind`: what each item is). */
export const listLine =
  (kind: string, whenLeftOut: readonly string[] = []) =>
  (value: FormFieldStoredValue): string => {
    if (value === undefined) return whenLeftOut.join(', ');
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
      throw new FieldError(`must be a list of ${kind}`);
    return value.join(', ');
  };
