/** A week of opening hours: a line of ranges a day, each checked with the site's own rule. */
import type { FormFieldStoredValue } from '@keystatic/core';
import { dayLabel } from '../../../content-model/places.ts';
import { FieldError, type Check } from '../check.ts';
import { listLine, ranges, zodProblem } from '../line/validate.ts';

export type Week<Day extends string> = Record<Day, string> | null;

/** Under each day's line. */
export const DAY_HINT =
  'Opening and closing times on a 24-hour clock, comma-separated; empty for none.';
/** What a day's hours are, for a file that holds something else. */
export const DAY_KIND = 'times like "09:30-12:30"';

/** What is wrong with a day's line, named by the day. */
export const dayProblem = (rule: Check, day: string, text: string) => {
  const problem = zodProblem(rule, ranges(text));
  return problem && `${dayLabel(day)}: ${problem}`;
};

/** The week as the file holds it (left out: null) → a line a day. */
export const parseWeek =
  <Day extends string>(days: readonly Day[]) =>
  (value: FormFieldStoredValue): Week<Day> => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'object' || Array.isArray(value))
      throw new FieldError('must be a list of hours per weekday');
    const record = value as Record<string, FormFieldStoredValue>;
    const unknown = Object.keys(record).find((key) => !days.includes(key as Day));
    if (unknown) throw new FieldError(`has no weekday "${unknown}"`);
    return Object.fromEntries(days.map((day) => [day, listLine(DAY_KIND)(record[day])])) as Record<
      Day,
      string
    >;
  };
