/**
 * A service hero's button: "inquire", "none", or a link of its own, { text, href }: a value that is
 * either a word or an object, which Keystatic's own fields would write differently.
 */
import type { BasicFormField } from '@keystatic/core';
import { currentSite } from '../../site.ts';
import { FieldError } from '../check.ts';
import { ButtonInput } from './ui.tsx';
import { buttonProblem, parseButton, type Button } from './validate.ts';

export function heroButton(label: string, description: string | undefined): BasicFormField<Button> {
  return {
    kind: 'form',
    label,
    Input: (props) => <ButtonInput {...props} label={label} description={description} />,
    defaultValue: () => 'inquire',
    parse: parseButton,
    serialize: (value) => ({ value: typeof value === 'string' ? value : { ...value } }),
    validate(value) {
      const problem = buttonProblem(value, currentSite());
      if (problem) throw new FieldError(problem);
      return value;
    },
    reader: { parse: (value) => parseButton(value) },
  };
}
