/**
 * A calendar date as availability.yaml writes it ("2026-12-25"), checked with the site's own rule
 * (`calendarDate` of src/domain/booking.ts), which refuses a day that does not exist (2026-02-30).
 */
import { asString, checkedTextField } from '../checked/index.tsx';
import { FieldError, type Check } from '../check.ts';

export const calendarDateField = (label: string, description: string | undefined, rule: Check) =>
  checkedTextField(
    label,
    description,
    (value) => {
      const issue = rule.safeParse(value).error?.issues[0];
      if (issue) throw new FieldError(`${label} ${issue.message}`);
    },
    asString('a date like 2026-12-25'),
  );
