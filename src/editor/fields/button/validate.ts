import type { FormFieldStoredValue } from '@keystatic/core';
import { heroButtonKinds, lengths, patterns } from '../../../domain/content-rules.ts';
import type { Site } from '../../site.ts';
import { FieldError } from '../check.ts';
import { linkProblem } from '../link/validate.ts';

export type Button = (typeof heroButtonKinds)[number] | { text: string; href: string };

const hrefProblem = linkProblem('Link', patterns.internalPath);

/**
 * What is wrong with a link of its own: its text's length, a link off the site, or (`site`, once
 * the editor knows its pages) a link to no page of it, in the build's words.
 */
export const buttonProblem = (value: Button, site?: Site): string | undefined => {
  if (typeof value === 'string') return undefined;
  const { min, max } = lengths.buttonText;
  if (value.text.length < min || value.text.length > max)
    return `Button text must be ${min}-${max} characters`;
  return hrefProblem(value.href, site);
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
