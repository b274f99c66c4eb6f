/** Several choices of a fixed list, at least one of them (a project's portfolio tags). */
import type { BasicFormField, FormFieldStoredValue } from '@keystatic/core';
import { FieldError, problemOf } from '../check.ts';
import { SomeOfInput } from './ui.tsx';

export function someOf(
  label: string,
  options: readonly string[],
  description?: string,
): BasicFormField<string[]> {
  const validate = (value: string[]) => {
    if (value.length === 0) throw new FieldError(`${label}: choose at least one`);
    return value;
  };
  const parse = (value: FormFieldStoredValue) => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((item) => options.includes(item as string)))
      throw new FieldError(`must be a list of ${options.join(', ')}`);
    return value as string[];
  };
  return {
    kind: 'form',
    label,
    Input: ({ value, onChange, forceValidation }) => (
      <SomeOfInput
        label={label}
        description={description}
        options={options}
        value={value}
        onChange={onChange}
        problem={
          forceValidation || value.length === 0 ? problemOf(() => validate(value)) : undefined
        }
      />
    ),
    defaultValue: () => [],
    parse,
    serialize: (value) => ({ value: [...value] }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}
