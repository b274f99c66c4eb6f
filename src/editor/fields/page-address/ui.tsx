import { TextField } from '@keystar/ui/text-field';
import { useState } from 'react';
import type { Rule } from '../../../domain/content-rules.ts';

/** The address, lowercased as it is typed, with the page it makes and its problem once left. */
export function AddressInput(props: {
  label: string;
  description?: string;
  rule: Rule;
  existing: readonly string[];
  value: string;
  onChange(value: string): void;
  forceValidation: boolean;
  problem(address: string, others: ReadonlySet<string>): string | undefined;
}) {
  const { value, rule } = props;
  const [left, setLeft] = useState(false);
  // The pages there were when the editor opened, less this one (as it was when opened): Save
  // checks against Keystatic's own list, which this field cannot read.
  const [own] = useState(value);
  const others = new Set(props.existing.filter((address) => address !== own));
  const shown = props.forceValidation || left ? props.problem(value, others) : undefined;
  return (
    <TextField
      label={props.label}
      description={`${props.description ?? ''} ${value && rule.regex.test(value) ? `This page: /${value}` : ''}`.trim()}
      value={value}
      onChange={(next) => props.onChange(next.trim().toLowerCase())}
      onBlur={() => setLeft(true)}
      errorMessage={shown}
      width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
    />
  );
}
