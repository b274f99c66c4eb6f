/**
 * Where a recurrence rule is stepped from, so that reading a window of a long series costs what its
 * occurrences near the window cost, not what it has held since its start (a series begun in 1900,
 * one of every second). Pure: a rule, its start and a time on the wall clock in, a plan out;
 * ./busy-times.ts steps the plan with ical.js and reads the occurrences as instants.
 *
 * Times here are wall clocks read as UTC, in ms (wallMs): a zone's changes of the clocks are
 * ./busy-times.ts's business, which asks for a target some hours early to leave room for them.
 */
import ICAL from 'ical.js';

export const DAY = 86_400_000;
/** A COUNT up to this is stepped from the start as written when it cannot be skipped exactly. */
const STEPPED_COUNT = 1_000;

/** Step `rule` from `start`; with `before`, stop at the first occurrence at or past it (wall clock). */
export interface Plan {
  rule: ICAL.Recur;
  start: ICAL.Time;
  before?: number;
}

/**
 * Where to step a rule from, so that the occurrences near and in the window are those of the
 * series as written, and few are stepped through before it; undefined: it has none there.
 *
 * The start is moved forward by whole periods (FREQ × INTERVAL on the wall clock: seconds to weeks,
 * months, years) to the last one not after `target`, less what ical.js takes to settle (settling).
 * Every BYxxx part repeats each period, and ical.js takes what a rule leaves out (the day, the
 * weekday, the time) from the start, which the move keeps: the same time of day, weekday (whole
 * weeks), day of the month (a month that has it) and date (a year that has it). With COUNT, the
 * occurrences skipped must be known: one a period (no BYxxx part) counts them; when every period
 * holds one at least, the series is over COUNT periods after its start at the latest; else a
 * small COUNT is stepped from the start as written, and a larger one is read as if there were no
 * COUNT: it may hold times the host is free, never the reverse.
 */
export function planOf(rule: ICAL.Recur, first: ICAL.Time, target: number): Plan | undefined {
  if (!repeatsEachPeriod(rule)) return { rule, start: first };
  const skip = periodsBefore(rule, first, target - settling(rule));
  if (!rule.count) return { rule, start: moveBy(first, rule, skip) };
  if (onePerPeriod(rule, first)) {
    if (skip >= rule.count) return undefined;
    const rest = rule.clone();
    rest.count = rule.count - skip;
    return { rule: rest, start: moveBy(first, rule, skip) };
  }
  // Every period holds one occurrence at least: all are over before this.
  const before = atLeastOnePerPeriod(rule, first)
    ? wallMs(first) + (rule.count + 1) * longestPeriod(rule)
    : undefined;
  if (before !== undefined && before <= target) return undefined;
  if (rule.count <= STEPPED_COUNT) return { rule, start: first };
  const open = rule.clone();
  open.count = null;
  return { rule: open, start: moveBy(first, rule, skip), ...(before !== undefined && { before }) };
}

const fixedPeriods: Partial<Record<string, number>> = {
  SECONDLY: 1000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: DAY,
  WEEKLY: 7 * DAY,
};

const intervalOf = (rule: ICAL.Recur) => rule.interval;

/** The whole periods of `rule` from `first` to the last start not after `target` (wall clock). */
function periodsBefore(rule: ICAL.Recur, first: ICAL.Time, target: number): number {
  const start = wallMs(first);
  if (!(target > start)) return 0;
  const interval = intervalOf(rule);
  const fixed = fixedPeriods[rule.freq];
  if (fixed) return Math.floor((target - start) / (fixed * interval));
  const at = new Date(target);
  const [year, month, day] = [at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate()];
  const clock = (hour: number, minute: number, second: number) =>
    (hour * 60 + minute) * 60 + second;
  const targetClock = clock(at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds());
  const firstClock = first.isDate ? 0 : clock(first.hour, first.minute, first.second);
  if (rule.freq === 'MONTHLY') {
    let months = (year - first.year) * 12 + month - first.month;
    if (day * 86_400 + targetClock < first.day * 86_400 + firstClock) months -= 1;
    let k = Math.floor(months / interval);
    while (k > 0 && first.day > daysInMonthAt(first, k * interval)) k -= 1;
    return Math.max(0, k);
  }
  if (rule.freq === 'YEARLY') {
    let years = year - first.year;
    if (
      (month * 32 + day) * 86_400 + targetClock <
      (first.month * 32 + first.day) * 86_400 + firstClock
    )
      years -= 1;
    let k = Math.floor(years / interval);
    const leapDay = first.month === 2 && first.day === 29;
    while (k > 0 && leapDay && !ICAL.Time.isLeapYear(first.year + k * interval)) k -= 1;
    return Math.max(0, k);
  }
  return 0;
}

const daysInMonthAt = (first: ICAL.Time, months: number) => {
  const index = first.year * 12 + first.month - 1 + months;
  return ICAL.Time.daysInMonth((index % 12) + 1, Math.floor(index / 12));
};

/** `first` moved forward by `periods` periods of `rule`, on the wall clock, in its zone. */
function moveBy(first: ICAL.Time, rule: ICAL.Recur, periods: number): ICAL.Time {
  if (periods <= 0) return first;
  const steps = periods * intervalOf(rule);
  const fixed = fixedPeriods[rule.freq];
  let fields: {
    year: number;
    month: number;
    day: number;
    hour: number;
    minute: number;
    second: number;
  };
  if (fixed) {
    const at = new Date(wallMs(first) + steps * fixed);
    fields = {
      year: at.getUTCFullYear(),
      month: at.getUTCMonth() + 1,
      day: at.getUTCDate(),
      hour: at.getUTCHours(),
      minute: at.getUTCMinutes(),
      second: at.getUTCSeconds(),
    };
  } else {
    const months = rule.freq === 'MONTHLY' ? steps : steps * 12;
    const index = first.year * 12 + first.month - 1 + months;
    fields = {
      year: Math.floor(index / 12),
      month: (index % 12) + 1,
      day: first.day,
      hour: first.hour,
      minute: first.minute,
      second: first.second,
    };
  }
  return ICAL.Time.fromData({ ...fields, isDate: first.isDate }, first.zone);
}

/**
 * Whether ical.js steps `rule` the same from any of its periods. Not so for what it reads by weeks
 * or days of the year (BYWEEKNO, BYYEARDAY), BYSETPOS but within a month or year, or BYMONTH in a
 * monthly rule (it jumps to the next month named, whatever the INTERVAL): those are stepped from
 * their start, within the steps a read may take.
 */
function repeatsEachPeriod(rule: ICAL.Recur): boolean {
  if (!Number.isInteger(rule.interval) || rule.interval < 1) return false;
  const has = (part: keyof ICAL.Recur['parts']) => (rule.parts[part]?.length ?? 0) > 0;
  if (has('BYWEEKNO') || has('BYYEARDAY')) return false;
  if (has('BYSETPOS') && rule.freq !== 'MONTHLY' && rule.freq !== 'YEARLY') return false;
  if (has('BYMONTH') && rule.freq === 'MONTHLY') return false;
  return rule.freq in fixedPeriods || rule.freq === 'MONTHLY' || rule.freq === 'YEARLY';
}

/**
 * How long before the window a moved start must be for ical.js to step as it would have from the
 * series' own start: from a time that does not match a part (an hour not in BYHOUR, say), it
 * passes over the rest of what holds that time (the day). Twice the longest of those, and of the
 * period.
 */
function settling(rule: ICAL.Recur): number {
  const spans: Partial<Record<string, number>> = {
    BYSECOND: 60_000,
    BYMINUTE: 3_600_000,
    BYHOUR: DAY,
    BYDAY: rule.freq === 'YEARLY' ? 366 * DAY : rule.freq === 'MONTHLY' ? 31 * DAY : 7 * DAY,
    BYMONTHDAY: rule.freq === 'YEARLY' ? 366 * DAY : 31 * DAY,
    BYMONTH: 366 * DAY,
  };
  let longest = longestPeriod(rule);
  for (const [part, values] of Object.entries(rule.parts))
    if (Array.isArray(values) && values.length > 0) longest = Math.max(longest, spans[part] ?? 0);
  return 2 * longest;
}

const hasParts = (rule: ICAL.Recur) =>
  Object.values(rule.parts).some((values) => Array.isArray(values) && values.length > 0);

/** Whether each period holds exactly one occurrence, so that periods skipped count occurrences. */
function onePerPeriod(rule: ICAL.Recur, first: ICAL.Time): boolean {
  if (hasParts(rule)) return false;
  // A day a month or year may lack (the 31st, 29 February) is skipped there, and counts nothing.
  if (rule.freq === 'MONTHLY') return first.day <= 28;
  if (rule.freq === 'YEARLY') return !(first.month === 2 && first.day === 29);
  return rule.freq in fixedPeriods;
}

const coarser = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];

/**
 * Whether every period holds one occurrence at least: parts that only add times of day, or
 * weekdays to a week or month, each of which every such period has.
 */
function atLeastOnePerPeriod(rule: ICAL.Recur, first: ICAL.Time): boolean {
  const rank = coarser.indexOf(rule.freq);
  const within = (values: unknown, top: number) =>
    Array.isArray(values) && values.every((v) => Number.isInteger(v) && v >= 0 && v <= top);
  for (const [part, values] of Object.entries(rule.parts)) {
    if (!Array.isArray(values) || values.length === 0) continue;
    if (part === 'BYSECOND' && rank >= 1 && within(values, 59)) continue;
    if (part === 'BYMINUTE' && rank >= 2 && within(values, 59)) continue;
    if (part === 'BYHOUR' && rank >= 3 && within(values, 23)) continue;
    if (
      part === 'BYDAY' &&
      (rule.freq === 'WEEKLY' || rule.freq === 'MONTHLY') &&
      values.every((v) => /^(MO|TU|WE|TH|FR|SA|SU)$/.test(String(v)))
    )
      continue;
    return false;
  }
  if (rule.freq === 'MONTHLY' && !rule.parts.BYDAY?.length) return first.day <= 28;
  if (rule.freq === 'YEARLY') return !(first.month === 2 && first.day === 29);
  return rank >= 0;
}

/** The longest a period of `rule` lasts on the wall clock. */
const longestPeriod = (rule: ICAL.Recur) =>
  intervalOf(rule) * (fixedPeriods[rule.freq] ?? (rule.freq === 'MONTHLY' ? 31 * DAY : 366 * DAY));

/** A feed's date or date-time as a number: its wall clock read as UTC, in ms. */
export function wallMs(time: ICAL.Time): number {
  const at = new Date(0);
  at.setUTCFullYear(time.year, time.month - 1, time.day);
  if (!time.isDate) at.setUTCHours(time.hour, time.minute, time.second);
  return at.getTime();
}
