/**
 * A text: Keystatic's own field, or, for a text the page makes a heading of (a service's name:
 * "Laravel" makes "Laravel Development"), a field that shows that heading as the page will read it.
 */
import { fields, type BasicFormField } from '@keystatic/core';
import type { Span } from '../../../domain/content-rules.ts';
import { asString } from '../checked/index.tsx';
import { FieldError, problemOf } from '../check.ts';
import { HeadingInput } from './ui.tsx';

/** Keystatic's text; an optional one may be empty, which the editor then leaves out of the file. */
export const textField = (
  label: string,
  span: Span | undefined,
  options: { description?: string; multiline?: boolean; optional?: boolean } = {},
) => {
  const { description, multiline, optional } = options;
  const length = span && { min: optional ? 0 : span.min, max: span.max };
  return fields.text({
    label,
    ...(description !== undefined && { description }),
    ...(multiline && { multiline }),
    ...(length && { validation: { length } }),
  });
};

/** A text, with the heading `heading` makes of it shown under the field. */
export function headingField(
  label: string,
  description: string | undefined,
  span: Span,
  heading: (text: string) => string,
): BasicFormField<string> {
  const validate = (text: string) => {
    if (text.length < span.min || text.length > span.max)
      throw new FieldError(`${label} must be ${span.min}-${span.max} characters`);
    return text;
  };
  const { parse } = asString('a text');
  return {
    kind: 'form',
    label,
    Input: (props) => (
      <HeadingInput
        {...props}
        label={label}
        description={description}
        heading={heading}
        problem={(text) => problemOf(() => validate(text))}
      />
    ),
    defaultValue: () => '',
    parse,
    serialize: (text) => ({ value: text }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}
