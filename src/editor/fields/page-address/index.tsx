/**
 * A service page's address ("laravel" for /laravel), which is also its file's name: one value, so
 * that two pages can never share an address without the editor saying so. Keystatic's own slug
 * field keeps the two apart, and its Duplicate copied the address to a new file name, replacing
 * the live page. A copy starts with no address and must be given its own.
 */
import type { SlugFormField } from '@keystatic/core';
import type { Rule } from '../../../domain/content-rules.ts';
import { FieldError } from '../check.ts';
import { AddressInput } from './ui.tsx';
import { addressProblem, parseAddress } from './validate.ts';

export function pageAddressField(
  label: string,
  description: string | undefined,
  rule: Rule,
  taken: (address: string) => string | undefined,
  existing: readonly string[],
): SlugFormField<string, string, string, string> {
  const problem = addressProblem(rule, taken);
  const validate = (address: string, extra?: { slugField: { slugs: Set<string> } }): string => {
    const found = problem(address, extra?.slugField.slugs);
    if (found) throw new FieldError(found);
    return address;
  };
  return {
    kind: 'form',
    formKind: 'slug',
    label,
    Input: ({ value, onChange, forceValidation }) => (
      <AddressInput
        label={label}
        description={description}
        rule={rule}
        existing={existing}
        value={value}
        onChange={onChange}
        forceValidation={forceValidation}
        problem={problem}
      />
    ),
    defaultValue: () => '',
    parse: parseAddress,
    serialize: (value) => ({ value }),
    serializeWithSlug: (value) => ({ value, slug: value }),
    validate,
    reader: {
      parse: (value) => validate(parseAddress(value)),
      parseWithSlug: (value, extra) => validate(parseAddress(value, extra)),
    },
  };
}
