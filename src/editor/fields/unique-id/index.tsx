/**
 * An item's id in a list whose ids must differ (a host's, which CALENDAR_FEEDS names): the list's
 * `slugField`, so that Keystatic hands it the other items' ids and it says which one is taken.
 */
import type { FormFieldStoredValue, SlugFormField } from '@keystatic/core';
import type { Rule, Span } from '../../../domain/content-rules.ts';
import { FieldError } from '../check.ts';
import { UniqueIdInput } from './ui.tsx';
import { idProblem } from './validate.ts';

export function uniqueIdField(
  label: string,
  description: string | undefined,
  rule: Rule,
  length: Span,
): SlugFormField<string, string, string, string> {
  const problem = idProblem(label, rule, length);
  const validate = (id: string, extra?: { slugField: { slugs: Set<string> } }): string => {
    const found = problem(id, extra?.slugField.slugs);
    if (found) throw new FieldError(found);
    return id;
  };
  const parse = (value: FormFieldStoredValue) => (typeof value === 'string' ? value : '');
  return {
    kind: 'form',
    formKind: 'slug',
    label,
    Input: (props) => (
      <UniqueIdInput
        {...props}
        label={label}
        description={description}
        onChange={(next) => props.onChange(next.trim().toLowerCase())}
        problem={problem}
      />
    ),
    defaultValue: () => '',
    parse,
    serialize: (value) => ({ value }),
    serializeWithSlug: (value) => ({ value, slug: value }),
    validate,
    reader: {
      parse: (value) => validate(parse(value)),
      parseWithSlug: (value) => validate(parse(value)),
    },
  };
}
