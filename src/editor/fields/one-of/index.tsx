/**
 * One of a fixed list, with no default: a new entry starts with none chosen and cannot be saved
 * until one is (Keystatic's select always starts on its first option, which then went unnoticed).
 */
import type { BasicFormField, FormFieldStoredValue } from '@keystatic/core';
import { FieldError, problemOf } from '../check.ts';
import { OneOfInput } from './ui.tsx';

export function oneOf(
  label: string,
  options: readonly { value: string; label: string }[],
  description?: string,
): BasicFormField<string> {
  const values = options.map((option) => option.value);
  const validate = (value: string) => {
    if (!values.includes(value)) throw new FieldError(`${label}: choose one`);
    return value;
  };
  const parse = (value: FormFieldStoredValue) => {
    if (value === undefined) return '';
    if (typeof value !== 'string' || !values.includes(value))
      throw new FieldError(`must be one of ${values.join(', ')}`);
    return value;
  };
  return {
    kind: 'form',
    label,
    Input: ({ value, onChange, forceValidation }) => (
      <OneOfInput
        label={label}
        description={description}
        options={options}
        value={value}
        onChange={onChange}
        problem={forceValidation ? problemOf(() => validate(value)) : undefined}
      />
    ),
    defaultValue: () => '',
    parse,
    serialize: (value) => ({ value }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}
