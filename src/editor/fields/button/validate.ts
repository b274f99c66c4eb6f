import type { FormFieldStoredValue } from '@keystatic/core';
import { heroButtonKinds, lengths, patterns } from '../../../domain/content-rules.ts';
import { FieldError } from '../check.ts';

export type Button = (typeof heroButtonKinds)[number] | { text: string; href: string };

/** What is wrong with a link of its own: its text's length, or a link off the site. */
export const buttonProblem = (value: Button): string | undefined => {
  if (typeof value === 'string') return undefined;
  const { min, max } = lengths.buttonText;
  if (value.text.length < min || value.text.length > max)
    return `Button text must be ${min}-${max} characters`;
  if (!patterns.internalPath.regex.test(value.href)) return `Link ${patterns.internalPath.message}`;
  return undefined;
};

/** The button as the file holds it; left out, "inquire", as the site reads it. */
export function parseButton(value: FormFieldStoredValue): Button {
  if (value === undefined) return 'inquire';
  if (value === 'inquire' || value === 'none') return value;
  if (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).every((key) => key === 'text' || key === 'href') &&
    typeof (value as { text?: unknown }).text === 'string' &&
    typeof (value as { href?: unknown }).href === 'string'
  ) {
    return { text: (value as { text: string }).text, href: (value as { href: string }).href };
  }
  throw new FieldError('must be "inquire", "none" or { text, href }');
}
