/**
 * A host's busy times from one iCalendar feed (what Google, Outlook, iCloud, Fastmail and Nextcloud
 * publish), between two instants: every event that would stop a call, as a person reads their
 * calendar. The server runs it in a worker thread (./worker.ts), never on its main thread.
 *
 * ical.js parses the text and expands recurrences (RRULE, RDATE, EXDATE) in wall-clock time, as
 * RFC 5545 defines them. Wall-clock times become instants here, through the time-zone database
 * (Temporal): a TZID the database knows, or an Outlook Windows zone name mapped to one; else the
 * feed's own VTIMEZONE; a floating time, in the host's zone. Moved occurrences (RECURRENCE-ID) and
 * EXDATEs are matched by instant, so that a feed writing them in UTC against a local DTSTART still
 * frees the old time.
 *
 * A rule is stepped from near the window, not from its start (planOf): a series begun in 1900, or
 * one of every second, costs what its occurrences near the window cost. The steps a read may take
 * are counted all the same (maxSteps), and a series holds the rest of the window past its cap there.
 */
import ICAL from 'ical.js';
import { Temporal as Polyfill } from 'temporal-polyfill';
import { findIana } from 'windows-iana';
import { isTimeZone } from '../../domain/time-zone.ts';
import { merge, type Busy } from './busy.ts';

const Temporal = ((globalThis as { Temporal?: typeof Polyfill }).Temporal ??
  Polyfill) as typeof Polyfill;

export interface ReadOptions {
  /** The host's zone: floating times and all-day events are read in it. */
  timeZone: string;
  /** The interval the busy times are wanted for (epoch ms); nothing outside it is expanded. */
  from: number;
  to: number;
  /** The most occurrences one series may hold in the window (a rule of every minute, say). */
  maxOccurrencesPerSeries?: number;
  /** The most recurrence steps the feed's read may take, those before the window included. */
  maxSteps?: number;
}

export interface ReadCalendar {
  /** Sorted by start, overlapping and touching intervals merged. */
  busy: Busy[];
  /** Events read (each series once), for the log. */
  events: number;
  /** What could not be read as written (an unknown zone, a series cut at its cap), for the log. */
  warnings: string[];
}

/** The text is not an iCalendar feed (an HTML sign-in page, say): nothing in it can be trusted. */
export class NotACalendar extends Error {}

/** The feed would take too long to expand: it is treated as unreadable. */
export class CalendarTooLarge extends Error {}

export const DEFAULT_MAX_OCCURRENCES = 2_000;
export const DEFAULT_MAX_STEPS = 50_000;
/** A COUNT up to this is stepped from the start as written when it cannot be skipped exactly. */
const STEPPED_COUNT = 1_000;
const DAY = 86_400_000;
/**
 * What a change of the clocks can move a wall-clock time by, with room to spare, twice: once
 * between an instant and its wall-clock time, once between two occurrences' lengths.
 */
const CLOCK_MARGIN = 4 * 3_600_000;

type Zone =
  { kind: 'instant' } | { kind: 'iana'; name: string } | { kind: 'vtimezone'; zone: ICAL.Timezone };

/** Parses a feed; throws NotACalendar when it is not one. */
export function parseCalendar(text: string): ICAL.Component {
  if (!/^\s*BEGIN:VCALENDAR/i.test(text))
    throw new NotACalendar('It does not begin with BEGIN:VCALENDAR.');
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch {
    // Not the parser's message: it quotes the line it stopped at, a line of someone's calendar,
    // which the log and /healthz must not show.
    throw new NotACalendar('It could not be parsed as iCalendar.');
  }
  // A text of several calendars parses as a list of them: the first is the feed.
  const first = Array.isArray(parsed) && Array.isArray(parsed[0]) ? parsed[0] : parsed;
  const calendar = new ICAL.Component(first as unknown[]);
  if (calendar.name !== 'vcalendar') throw new NotACalendar('It is not a VCALENDAR.');
  return calendar;
}

/** A feed's busy times over one interval (a calendar parsed once may be read for several). */
export function readBusyTimes(text: string, options: ReadOptions): ReadCalendar {
  return busyTimes(parseCalendar(text), options);
}

export function busyTimes(calendar: ICAL.Component, options: ReadOptions): ReadCalendar {
  const cap = options.maxOccurrencesPerSeries ?? DEFAULT_MAX_OCCURRENCES;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let steps = 0;
  const warnings = new Set<string>();
  const vtimezones = new Map<string, ICAL.Timezone>();
  for (const component of calendar.getAllSubcomponents('vtimezone')) {
    const tzid = component.getFirstPropertyValue('tzid');
    if (typeof tzid === 'string') vtimezones.set(tzid, new ICAL.Timezone(component));
  }
  const hostZone: Zone = { kind: 'iana', name: options.timeZone };

  const zoneOf = (property: ICAL.Property | null): Zone => {
    const value = property?.getFirstValue() as ICAL.Time | undefined;
    if (value && !value.isDate && value.zone === ICAL.Timezone.utcTimezone)
      return { kind: 'instant' };
    const tzid = property?.getParameter('tzid');
    if (typeof tzid !== 'string' || tzid === '') return hostZone;
    return resolveZone(tzid, vtimezones, options.timeZone, warnings);
  };

  /** A wall-clock (or UTC) time read from the feed, as an instant. */
  const instantOf = (time: ICAL.Time, zone: Zone): number => {
    if (time.isDate) return startOfDay(time, options.timeZone);
    if (zone.kind === 'instant') return time.toUnixTime() * 1000;
    if (zone.kind === 'vtimezone') {
      const local = time.clone();
      local.zone = zone.zone;
      return local.toUnixTime() * 1000;
    }
    return instantOfWall(wallOf(time), zone);
  };

  /** A wall-clock time in an IANA zone or UTC (a feed's own VTIMEZONE is ical.js's business). */
  const instantOfWall = (wall: Temporal.PlainDateTime, zone: Zone): number =>
    wall.toZonedDateTime(zone.kind === 'iana' ? zone.name : 'UTC', { disambiguation: 'compatible' })
      .epochMilliseconds;

  const busy: Busy[] = [];
  const add = (start: number, end: number) => {
    // An event with no length (a reminder at 10:00) still holds that minute.
    const until = end > start ? end : start + 60_000;
    if (until > options.from && start < options.to) busy.push({ start, end: until });
  };

  // Events by UID: a series, its moved or cancelled occurrences (RECURRENCE-ID), or single events.
  const series = new Map<string, { master?: ICAL.Component; exceptions: ICAL.Component[] }>();
  const singles: ICAL.Component[] = [];
  const vevents = calendar.getAllSubcomponents('vevent');
  for (const component of vevents) {
    const uid = component.getFirstPropertyValue('uid');
    if (typeof uid !== 'string') {
      singles.push(component);
      continue;
    }
    const entry = series.get(uid) ?? { exceptions: [] };
    if (component.hasProperty('recurrence-id')) entry.exceptions.push(component);
    else if (!entry.master) entry.master = component;
    else singles.push(component);
    series.set(uid, entry);
  }

  /** [start, end) of an event as written (its DTSTART and DTEND or DURATION), as instants. */
  const spanOf = (component: ICAL.Component) => {
    const startProperty = component.getFirstProperty('dtstart');
    const start = startProperty?.getFirstValue() as ICAL.Time | undefined;
    if (!start) return undefined;
    const startZone = zoneOf(startProperty);
    const from = instantOf(start, startZone);
    const endProperty = component.getFirstProperty('dtend');
    const endValue = endProperty?.getFirstValue() as ICAL.Time | undefined;
    if (endValue) return { from, to: instantOf(endValue, zoneOf(endProperty)) };
    const duration = component.getFirstPropertyValue('duration') as ICAL.Duration | null;
    const end = start.clone();
    if (duration) end.addDuration(duration);
    // RFC 5545: no DTEND or DURATION is one day for a date, no length for a time.
    else if (start.isDate) end.day += 1;
    return { from, to: instantOf(end, startZone) };
  };

  const blocks = (component: ICAL.Component) => {
    const transparency = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
    const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
    return transparency !== 'TRANSPARENT' && status !== 'CANCELLED';
  };

  for (const component of singles) {
    if (!blocks(component)) continue;
    const span = spanOf(component);
    if (span) add(span.from, span.to);
  }

  for (const [, { master, exceptions }] of series) {
    // A moved occurrence holds its new time only (unless it is cancelled or free).
    const moved = new Set<number>();
    for (const exception of exceptions) {
      const idProperty = exception.getFirstProperty('recurrence-id');
      const id = idProperty?.getFirstValue() as ICAL.Time | undefined;
      if (id) moved.add(instantOf(id, zoneOf(idProperty)));
      if (!blocks(exception)) continue;
      const span = spanOf(exception);
      if (span) add(span.from, span.to);
    }
    if (!master || !blocks(master)) continue;
    const span = spanOf(master);
    if (!span) continue;
    const rules = master
      .getAllProperties('rrule')
      .map((property) => property.getFirstValue() as ICAL.Recur);
    const rdates = master.getAllProperties('rdate');
    if (rules.length === 0 && rdates.length === 0) {
      if (!moved.has(span.from)) add(span.from, span.to);
      continue;
    }
    const startProperty = master.getFirstProperty('dtstart')!;
    const startZone = zoneOf(startProperty);
    const first = startProperty.getFirstValue() as ICAL.Time;
    // The length of each occurrence: in wall-clock time when start and end are read in one zone (a
    // 09:00-10:00 meeting stays so on a day the clocks change), else as elapsed time.
    const endProperty = master.getFirstProperty('dtend');
    const sameZone =
      !endProperty ||
      first.isDate ||
      endProperty.getParameter('tzid') === startProperty.getParameter('tzid');
    const elapsed = span.to - span.from;
    // (A feed's own VTIMEZONE is read by ical.js, and keeps elapsed time.)
    const wallLength =
      sameZone && startZone.kind !== 'vtimezone' ? wallDuration(master, first) : undefined;
    // EXDATEs are matched by instant: ical.js would compare a UTC one with a local start as if both
    // were UTC, and free the wrong hour.
    const excluded = new Set<number>();
    for (const property of master.getAllProperties('exdate'))
      for (const value of property.getValues() as ICAL.Time[])
        excluded.add(instantOf(value, zoneOf(property)));

    // Only the window is converted and counted. Steps before it are skipped on the wall clock read
    // as UTC, which is within a day of the real instant in any zone.
    const slack = DAY + Math.max(elapsed, 0);
    // The start is the first instance of the set (RFC 5545), which ical.js leaves out when the
    // set is only RDATEs.
    if (!moved.has(span.from) && !excluded.has(span.from)) add(span.from, span.to);
    let inWindow = 0;
    /** One occurrence, held unless excluded; false once its stream is past the window. */
    const occurrence = (next: ICAL.Time, zone: Zone): boolean => {
      if (++steps > maxSteps)
        throw new CalendarTooLarge(`more than ${maxSteps} occurrences to expand`);
      const rough = wallMs(next);
      if (rough - DAY >= options.to) return false;
      if (rough + slack <= options.from) return true;
      const from = instantOf(next, zone);
      if (from >= options.to) return false;
      if (from === span.from || moved.has(from) || excluded.has(from)) return true;
      const to = wallLength ? instantOfWall(wallOf(next).add(wallLength), zone) : from + elapsed;
      if (to <= options.from) return true;
      // Past its cap, a series holds the rest of the window: a time it might hold is never offered.
      if (++inWindow > cap) {
        warnings.add(
          `a series holds the rest of the window past ${cap} occurrences (${summaryOf(master)})`,
        );
        add(from, options.to);
        return false;
      }
      add(from, to);
      return true;
    };

    // No occurrence that reaches into the window starts before this, on the series' wall clock: its
    // length, and the hours a change of the clocks can move a wall-clock time by, before the window.
    const target =
      wallAt(
        options.from - Math.max(elapsed, 0) - CLOCK_MARGIN,
        first.isDate ? hostZone : startZone,
      ) - CLOCK_MARGIN;
    for (const rule of rules) {
      const plan = planOf(rule, first, target);
      if (!plan) continue;
      const iterator = plan.rule.iterator(plan.start);
      for (let next = iterator.next(); next; next = iterator.next()) {
        if (plan.before !== undefined && wallMs(next) >= plan.before) break;
        if (!occurrence(next, startZone)) break;
      }
    }
    for (const property of rdates) {
      const tzid = property.getParameter('tzid');
      for (const value of property.getValues() as (ICAL.Time | ICAL.Period)[]) {
        const time = value instanceof ICAL.Period ? value.start : value;
        // An RDATE may be written in UTC, or in a zone of its own, whatever the start's zone.
        const zone: Zone =
          time.zone === ICAL.Timezone.utcTimezone
            ? { kind: 'instant' }
            : typeof tzid === 'string' && tzid !== ''
              ? zoneOf(property)
              : startZone;
        occurrence(time, zone);
      }
    }
  }

  return { busy: merge(busy), events: series.size + singles.length, warnings: [...warnings] };
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
function planOf(
  rule: ICAL.Recur,
  first: ICAL.Time,
  target: number,
): { rule: ICAL.Recur; start: ICAL.Time; before?: number } | undefined {
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
function wallMs(time: ICAL.Time): number {
  const at = new Date(0);
  at.setUTCFullYear(time.year, time.month - 1, time.day);
  if (!time.isDate) at.setUTCHours(time.hour, time.minute, time.second);
  return at.getTime();
}

/** The wall clock of a zone at an instant, read as UTC, in ms. */
function wallAt(instant: number, zone: Zone): number {
  if (zone.kind === 'instant') return instant;
  if (zone.kind === 'iana')
    return (
      instant +
      Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone.name)
        .offsetNanoseconds /
        1e6
    );
  return wallMs(ICAL.Time.fromJSDate(new Date(instant), true).convertToZone(zone.zone));
}

/** A feed's date or date-time as the wall clock reads it. */
const wallOf = (time: ICAL.Time) =>
  Temporal.PlainDateTime.from({
    year: time.year,
    month: time.month,
    day: time.day,
    hour: time.isDate ? 0 : time.hour,
    minute: time.isDate ? 0 : time.minute,
    second: time.isDate ? 0 : Math.min(time.second, 59),
  });

/** DTEND − DTSTART (or DURATION) of an event, on the wall clock (days stay days). */
function wallDuration(component: ICAL.Component, start: ICAL.Time): Temporal.Duration {
  const duration = component.getFirstPropertyValue('duration') as ICAL.Duration | null;
  if (duration) {
    const sign = duration.isNegative ? -1 : 1;
    return Temporal.Duration.from({
      weeks: sign * duration.weeks,
      days: sign * duration.days,
      hours: sign * duration.hours,
      minutes: sign * duration.minutes,
      seconds: sign * duration.seconds,
    });
  }
  const end = component.getFirstPropertyValue('dtend') as ICAL.Time | null;
  if (!end) return Temporal.Duration.from({ days: start.isDate ? 1 : 0 });
  return wallOf(start).until(wallOf(end), { largestUnit: 'days' });
}

/** The start of a calendar date in a zone. */
function startOfDay(date: ICAL.Time, timeZone: string): number {
  return Temporal.PlainDate.from({ year: date.year, month: date.month, day: date.day })
    .toZonedDateTime({ timeZone })
    .toInstant().epochMilliseconds;
}

/**
 * A TZID as a zone: the database's own name; an Outlook Windows name ("GMT Standard Time"); the
 * database name at the end of a prefixed one ("/mozilla.org/20070129_1/Europe/London"); else the
 * feed's VTIMEZONE of that name; else the host's zone, with a warning.
 */
function resolveZone(
  tzid: string,
  vtimezones: ReadonlyMap<string, ICAL.Timezone>,
  fallback: string,
  warnings: Set<string>,
): Zone {
  if (isTimeZone(tzid)) return { kind: 'iana', name: tzid };
  const windows = findIana(tzid)?.[0];
  if (windows && isTimeZone(windows)) return { kind: 'iana', name: windows };
  const suffix = /([A-Za-z_]+\/[A-Za-z_+-]+(?:\/[A-Za-z_+-]+)?)$/.exec(tzid)?.[1];
  if (suffix && isTimeZone(suffix)) return { kind: 'iana', name: suffix };
  const own = vtimezones.get(tzid);
  if (own) return { kind: 'vtimezone', zone: own };
  warnings.add(`an unknown time zone "${tzid.slice(0, 60)}" was read as ${fallback}`);
  return { kind: 'iana', name: fallback };
}

const summaryOf = (component: ICAL.Component) =>
  String(component.getFirstPropertyValue('uid') ?? 'no UID').slice(0, 60);
