/**
 * A week of opening hours, a line a weekday ("09:30-12:30, 13:30-17:00"; empty for none), kept in
 * the file as the lists of ranges the site reads, each checked with the site's own rule
 * (`openingHours` of src/domain/booking.ts): each range opens before it closes, none overlap. A
 * week that may be left out (a host's own; left out, the entry's apply) starts with a checkbox.
 */
import { fields, type BasicFormField } from '@keystatic/core';
import { FieldError, type Check } from '../check.ts';
import { listLineField } from '../line/index.ts';
import { ranges } from '../line/validate.ts';
import { WeekInput } from './ui.tsx';
import { dayLabel } from '../../../content-model/places.ts';
import { DAY_HINT, DAY_KIND, dayProblem, parseWeek, type Week } from './validate.ts';

/** A weekday's opening hours: one line. */
export const openingHoursField = (label: string, rule: Check) =>
  listLineField(label, DAY_HINT, rule, DAY_KIND);

/** A week the file always holds: a line a day, under the week's label. */
export const weekField = (label: string, days: readonly string[], rule: Check) =>
  fields.object(
    Object.fromEntries(days.map((day) => [day, openingHoursField(dayLabel(day), rule)])),
    { label },
  );

/** A week that may be left out of the file: a checkbox, then a line a day. */
export function optionalWeekField<Day extends string>(
  label: string,
  description: string | undefined,
  days: readonly Day[],
  rule: Check,
): BasicFormField<Week<Day>> {
  const problem = (value: Week<Day>) =>
    value ? days.map((day) => dayProblem(rule, day, value[day])).find(Boolean) : undefined;
  const parse = parseWeek(days);
  return {
    kind: 'form',
    label,
    Input: (props) => (
      <WeekInput
        {...props}
        label={label}
        description={description}
        days={days}
        dayProblem={(day, text) => dayProblem(rule, day, text)}
      />
    ),
    defaultValue: () => null,
    parse,
    serialize: (value) => ({
      value: value ? Object.fromEntries(days.map((day) => [day, ranges(value[day])])) : undefined,
    }),
    validate(value) {
      const shown = problem(value);
      if (shown) throw new FieldError(shown);
      return value;
    },
    reader: { parse: (value) => parse(value) },
  };
}
