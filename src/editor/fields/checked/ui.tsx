import { TextField } from '@keystar/ui/text-field';
import { useState } from 'react';

/**
 * A one-line text field that shows its problem once it has been left or a save was tried, as
 * Keystatic's own fields do (a list item's dialog closes with its problems, so leaving the field is
 * when they can be seen there).
 */
export function CheckedText(props: {
  label: string;
  description?: string;
  value: string;
  onChange(value: string): void;
  forceValidation: boolean;
  problem(value: string): string | undefined;
}) {
  const [left, setLeft] = useState(false);
  return (
    <TextField
      label={props.label}
      description={props.description}
      value={props.value}
      onChange={props.onChange}
      onBlur={() => setLeft(true)}
      errorMessage={props.forceValidation || left ? props.problem(props.value) : undefined}
      // The whole width, as Keystatic's own text fields: an e-mail address or a video room's
      // address was cut short in the narrow width of a number's field.
      width="auto"
    />
  );
}
