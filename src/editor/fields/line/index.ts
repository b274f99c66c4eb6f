/**
 * A list of short texts written as one line, comma-separated (empty for none), kept in the file as
 * the list the site reads and checked with the site's own rule, the zod schema of the list
 * (availability.yaml's reminders; a weekday's opening hours, ../week/).
 */
import { checkedTextField } from '../checked/index.tsx';
import { FieldError, type Check } from '../check.ts';
import { listLine, ranges, zodProblem } from './validate.ts';

export function listLineField(
  label: string,
  description: string | undefined,
  rule: Check,
  kind: string,
  /** What the site takes when the file leaves the list out (shown, and written on save). */
  whenLeftOut: readonly string[] = [],
) {
  return checkedTextField(
    label,
    description,
    (text) => {
      const problem = zodProblem(rule, ranges(text));
      if (problem) throw new FieldError(`${label}: ${problem}`);
    },
    { parse: listLine(kind, whenLeftOut), serialize: ranges },
  );
}
