import type { FormFieldStoredValue } from '@keystatic/core';
import type { Rule } from '../../../domain/content-rules.ts';

/**
 * What is wrong with a page's address: none, not of the rule's form, another page's (`others`), or
 * one `taken` refuses (one of the site's own pages).
 */
export const addressProblem =
  (rule: Rule, taken: (address: string) => string | undefined) =>
  (address: string, others: ReadonlySet<string> = new Set()) => {
    if (address === '') return 'Give the page an address of its own, e.g. "laravel" for /laravel';
    if (!rule.regex.test(address)) return `The address must be ${rule.message}`;
    if (others.has(address))
      return `Another page is already at /${address}: choose another address`;
    return taken(address);
  };

/** The address as the file holds it; a duplicate Keystatic made has none yet. */
export function parseAddress(value: FormFieldStoredValue, extra?: { slug: string }) {
  const address = typeof value === 'string' ? value : '';
  // Keystatic's Duplicate hands the copy the file name "<address>-copy": not an address to keep
  // (addresses may have hyphens, so it is told by that name, not by the rule).
  if (extra && extra.slug !== address && extra.slug.startsWith(`${address}-copy`)) return '';
  return address;
}
