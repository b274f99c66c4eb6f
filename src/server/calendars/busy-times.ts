/**
 * A host's busy times from one iCalendar feed (what Google, Outlook, iCloud, Fastmail and Nextcloud
 * publish), between two instants: every event that would stop a call, as a person reads their
 * calendar.
 *
 * ical.js parses the text and expands recurrences (RRULE, RDATE, EXDATE) in wall-clock time, as
 * RFC 5545 defines them. Wall-clock times become instants here, through the time-zone database
 * (Temporal): a TZID the database knows, or an Outlook Windows zone name mapped to one; else the
 * feed's own VTIMEZONE; a floating time, in the host's zone. Moved occurrences (RECURRENCE-ID) and
 * EXDATEs are matched by instant, so that a feed writing them in UTC against a local DTSTART still
 * frees the old time.
 */
import ICAL from 'ical.js';
import { Temporal as Polyfill } from 'temporal-polyfill';
import { findIana } from 'windows-iana';
import { isTimeZone } from '../../domain/booking.ts';
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
  /** The most recurrence steps a feed may take, those before the window included. */
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
export const DEFAULT_MAX_STEPS = 500_000;
const DAY = 86_400_000;

type Zone =
  { kind: 'instant' } | { kind: 'iana'; name: string } | { kind: 'vtimezone'; zone: ICAL.Timezone };

/** Parses a feed; throws NotACalendar when it is not one. */
function parseCalendar(text: string): ICAL.Component {
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

export function readBusyTimes(text: string, options: ReadOptions): ReadCalendar {
  const calendar = parseCalendar(text);
  const cap = options.maxOccurrencesPerSeries ?? DEFAULT_MAX_OCCURRENCES;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let steps = 0;
  const warnings = new Set<string>();
  const vtimezones = new Map<string, ICAL.Timezone>();
  for (const component of calendar.getAllSubcomponents('vtimezone')) {
    const tzid = component.getFirstPropertyValue('tzid');
    if (typeof tzid === 'string') vtimezones.set(tzid, new ICAL.Timezone(component));
  }

  const zoneOf = (property: ICAL.Property | null): Zone => {
    const value = property?.getFirstValue() as ICAL.Time | undefined;
    if (value && !value.isDate && value.zone === ICAL.Timezone.utcTimezone)
      return { kind: 'instant' };
    const tzid = property?.getParameter('tzid');
    if (typeof tzid !== 'string' || tzid === '') return { kind: 'iana', name: options.timeZone };
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
    // EXDATEs are matched here, by instant: ical.js would compare a UTC one with a local start as
    // if both were UTC, and free the wrong hour.
    const expanded = new ICAL.Component(structuredClone(master.toJSON()));
    expanded.removeAllProperties('exdate');
    const event = new ICAL.Event(expanded);
    if (!event.isRecurring()) {
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
    const iterator = event.iterator();
    let inWindow = 0;
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (++steps > maxSteps)
        throw new CalendarTooLarge(`more than ${maxSteps} occurrences to expand`);
      const rough = next.toUnixTime() * 1000;
      if (rough - DAY >= options.to) break;
      if (rough + slack <= options.from) continue;
      // An RDATE may be written in UTC whatever the start's zone.
      const zone =
        next.zone === ICAL.Timezone.utcTimezone ? ({ kind: 'instant' } as const) : startZone;
      const from = instantOf(next, zone);
      if (from >= options.to) break;
      if (from === span.from || moved.has(from) || excluded.has(from)) continue;
      const to = wallLength ? instantOfWall(wallOf(next).add(wallLength), zone) : from + elapsed;
      if (to <= options.from) continue;
      // Past its cap, a series holds the rest of the window: a time it might hold is never offered.
      if (++inWindow > cap) {
        warnings.add(
          `a series holds the rest of the window past ${cap} occurrences (${summaryOf(master)})`,
        );
        add(from, options.to);
        break;
      }
      add(from, to);
    }
  }

  return { busy: merge(busy), events: series.size + singles.length, warnings: [...warnings] };
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
