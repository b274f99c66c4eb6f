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
 * A rule is stepped from near the window, not from its start (./recurrence.ts): a series begun in
 * 1900, or one of every second, costs what its occurrences near the window cost. The steps a read may take
 * are counted all the same (maxSteps), and a series holds the rest of the window past its cap there.
 */
import ICAL from 'ical.js';
import { Temporal as Polyfill } from 'temporal-polyfill';
import { findIana } from 'windows-iana';
import { isTimeZone } from '../../domain/time-zone.ts';
import { merge, type Busy } from './busy.ts';
import { feedZone } from './feed-zones.ts';
import { DAY, planOf, wallMs } from './recurrence.ts';

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
  /**
   * The end of the UIDs of the site's own calls (`@calls.example.com`): their events in the feed
   * (written over CalDAV, or an invitation accepted) are not read, since the store holds their time.
   */
  ownUidSuffix?: string;
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
/**
 * What a change of the clocks can move a wall-clock time by, with room to spare, twice: once
 * between an instant and its wall-clock time, once between two occurrences' lengths.
 */
const CLOCK_MARGIN = 4 * 3_600_000;

type Zone =
  { kind: 'instant' } | { kind: 'iana'; name: string } | { kind: 'vtimezone'; zone: ICAL.Timezone };

/** Parses a feed; throws NotACalendar when it is not one. */
export function parseCalendar(feed: string): ICAL.Component {
  // A byte-order mark, which some calendars write first, is no part of the text.
  const text = feed.replace(/^\uFEFF/, '');
  if (!/^\s*BEGIN:VCALENDAR/i.test(text))
    throw new NotACalendar('It does not begin with BEGIN:VCALENDAR.');
  let parsed: unknown;
  try {
    parsed = parseLeniently(text);
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

/**
 * ical.js parses a rule or a period as it reads the text, and one it refuses (`BYSETPOS=400`, a
 * FREQ it does not know) stopped the whole feed's parse: one invitation made its host's calendar
 * unreadable. Such a value is read as text instead (a series of it then holds its time whole).
 */
function parseLeniently(text: string): unknown {
  try {
    return ICAL.parse(text);
  } catch {
    const lines = text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
    return ICAL.parse(lines.map(readableLine).join('\r\n'));
  }
}

/** The content lines whose value ical.js parses at once: the others are parsed when read. */
const EAGER_LINE = /^(?:RRULE|EXRULE|FREEBUSY)[;:]|^[^:]*;VALUE=(?:RECUR|PERIOD)[;:]/i;

function readableLine(line: string): string {
  if (!EAGER_LINE.test(line)) return line;
  try {
    ICAL.parse.property(line);
    return line;
  } catch {
    const name = /^[A-Za-z0-9-]+/.exec(line)?.[0] ?? 'X-UNREAD';
    // The value follows the first colon outside a quoted parameter.
    const value = /^(?:[^:"]|"[^"]*")*:(.*)$/s.exec(line)?.[1] ?? '';
    return `${name};VALUE=TEXT:${value}`;
  }
}

/** A feed's busy times over one interval (a calendar parsed once may be read for several). */
export function readBusyTimes(text: string, options: ReadOptions): ReadCalendar {
  return busyTimes(parseCalendar(text), options);
}

export function busyTimes(calendar: ICAL.Component, options: ReadOptions): ReadCalendar {
  const read = new FeedRead(calendar, options);
  const { series, singles } = eventsByUid(
    calendar.getAllSubcomponents('vevent').filter((event) => !isOwn(event, options.ownUidSuffix)),
  );
  for (const component of singles) readEvent(read, component, () => read.holdEvent(component));
  for (const entry of series.values())
    readEvent(read, entry.master ?? entry.exceptions[0]!, () => holdSeries(read, entry));
  return {
    busy: merge(read.busy),
    events: series.size + singles.length,
    warnings: [...read.warnings],
  };
}

/** [start, end) as instants (epoch ms). */
interface Span {
  from: number;
  to: number;
}

/** How a feed's times read as instants: its zones by TZID, the host's for floating times and dates. */
class FeedClock {
  readonly hostZone: Extract<Zone, { kind: 'iana' }>;
  readonly #timeZone: string;
  readonly #vtimezones = new Map<string, ICAL.Timezone>();
  readonly #warnings: Set<string>;
  /** The last year a feed's own zone converts a time in: any later one is past the window. */
  readonly #lastYear: number;

  constructor(calendar: ICAL.Component, options: ReadOptions, warnings: Set<string>) {
    this.#timeZone = options.timeZone;
    this.#warnings = warnings;
    this.hostZone = { kind: 'iana', name: options.timeZone };
    this.#lastYear = new Date(options.to).getUTCFullYear() + 1;
    const firstYear = new Date(options.from).getUTCFullYear() - 1;
    for (const component of calendar.getAllSubcomponents('vtimezone')) {
      const tzid = component.getFirstPropertyValue('tzid');
      if (typeof tzid !== 'string') continue;
      const zone = feedZone(component, firstYear);
      if (zone) this.#vtimezones.set(tzid, zone);
      else warnings.add(`a time zone "${tzid.slice(0, 60)}" of rules no zone has was not read`);
    }
  }

  /** The zone a property's time is written in: UTC, its TZID's, or (a floating time) the host's. */
  zoneOf(property: ICAL.Property | null): Zone {
    const value = property?.getFirstValue() as ICAL.Time | undefined;
    if (value && !value.isDate && value.zone === ICAL.Timezone.utcTimezone)
      return { kind: 'instant' };
    const tzid = property?.getParameter('tzid');
    if (typeof tzid !== 'string' || tzid === '') return this.hostZone;
    return resolveZone(tzid, this.#vtimezones, this.#timeZone, this.#warnings);
  }

  /** A wall-clock (or UTC) time read from the feed, as an instant. */
  instantOf(time: ICAL.Time, zone: Zone): number {
    if (time.isDate) return startOfDay(time, this.#timeZone);
    if (zone.kind === 'instant') return time.toUnixTime() * 1000;
    if (zone.kind === 'vtimezone') {
      // ical.js would list the zone's changes up to that year: read as UTC, it is past the window
      // all the same.
      if (time.year > this.#lastYear) return wallMs(time);
      const local = time.clone();
      local.zone = zone.zone;
      return local.toUnixTime() * 1000;
    }
    return instantOfWall(wallOf(time), zone);
  }

  /** [start, end) of an event as written (its DTSTART and DTEND or DURATION), as instants. */
  spanOf(component: ICAL.Component): Span | undefined {
    const startProperty = component.getFirstProperty('dtstart');
    const start = startProperty?.getFirstValue() as ICAL.Time | undefined;
    if (!start) return undefined;
    const startZone = this.zoneOf(startProperty);
    const from = this.instantOf(start, startZone);
    const endProperty = component.getFirstProperty('dtend');
    const endValue = endProperty?.getFirstValue() as ICAL.Time | undefined;
    if (endValue) return { from, to: this.instantOf(endValue, this.zoneOf(endProperty)) };
    const duration = component.getFirstPropertyValue('duration') as ICAL.Duration | null;
    const end = start.clone();
    if (duration) end.addDuration(duration);
    // RFC 5545: no DTEND or DURATION is one day for a date, no length for a time.
    else if (start.isDate) end.day += 1;
    return { from, to: this.instantOf(end, startZone) };
  }
}

/** One read of a feed over a window: what it holds so far, and the steps it may still take. */
class FeedRead {
  readonly busy: Busy[] = [];
  readonly warnings = new Set<string>();
  readonly clock: FeedClock;
  readonly from: number;
  readonly to: number;
  /** The most occurrences one series may hold in the window. */
  readonly cap: number;
  readonly #maxSteps: number;
  #steps = 0;

  constructor(calendar: ICAL.Component, options: ReadOptions) {
    this.from = options.from;
    this.to = options.to;
    this.cap = options.maxOccurrencesPerSeries ?? DEFAULT_MAX_OCCURRENCES;
    this.#maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    this.clock = new FeedClock(calendar, options, this.warnings);
  }

  /** Holds [start, end) if it reaches into the window. */
  hold(start: number, end: number) {
    // An event with no length (a reminder at 10:00) still holds that minute.
    const until = end > start ? end : start + 60_000;
    if (until > this.from && start < this.to) this.busy.push({ start, end: until });
  }

  /** An event at its time as written (a single one, a moved occurrence), unless it stops no call. */
  holdEvent(component: ICAL.Component) {
    if (!blocks(component)) return;
    const span = this.clock.spanOf(component);
    if (span) this.hold(span.from, span.to);
  }

  /** Counts one step of a recurrence: past the read's budget, the feed is too large to read. */
  step() {
    if (++this.#steps > this.#maxSteps)
      throw new CalendarTooLarge(`more than ${this.#maxSteps} occurrences to expand`);
  }
}

/** Whether an event is one of the site's own calls (by its UID's end). */
const isOwn = (event: ICAL.Component, suffix: string | undefined) => {
  const uid = event.getFirstPropertyValue('uid');
  return !!suffix && typeof uid === 'string' && uid.toLowerCase().endsWith(suffix.toLowerCase());
};

/** The events of one UID: the series, and its moved or cancelled occurrences (RECURRENCE-ID). */
interface Series {
  master?: ICAL.Component;
  exceptions: ICAL.Component[];
}

/** Events by UID: a series with its exceptions, or single events (no UID, or a UID's second). */
function eventsByUid(vevents: ICAL.Component[]) {
  const series = new Map<string, Series>();
  const singles: ICAL.Component[] = [];
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
  return { series, singles };
}

/** Whether an event stops a call: not free time (TRANSPARENT), not cancelled. */
function blocks(component: ICAL.Component) {
  const transparency = String(component.getFirstPropertyValue('transp') ?? '').toUpperCase();
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  return transparency !== 'TRANSPARENT' && status !== 'CANCELLED';
}

/**
 * Holds one event or series. ical.js reads most values only when asked, and one it refuses (a
 * DTEND of `garbage`) threw out of the whole feed's read: one invitation made its host's calendar
 * unreadable. Such an event holds a day from its start (a series, the rest of the window), or is
 * left out if its start cannot be read either, as a calendar shows no event without a time.
 */
function readEvent(read: FeedRead, component: ICAL.Component, hold: () => void) {
  try {
    hold();
  } catch (error) {
    if (error instanceof CalendarTooLarge) throw error;
    const uid = summaryOf(component);
    let start: number | undefined;
    try {
      const property = component.getFirstProperty('dtstart');
      const time = property?.getFirstValue() as ICAL.Time | undefined;
      if (time) start = read.clock.instantOf(time, read.clock.zoneOf(property));
    } catch {
      // Its start cannot be read either.
    }
    if (start === undefined) {
      read.warnings.add(`an event whose start cannot be read was left out (${uid})`);
      return;
    }
    const series = component.hasProperty('rrule') || component.hasProperty('rdate');
    read.hold(start, series ? Math.max(read.to, start + DAY) : start + DAY);
    read.warnings.add(`an event whose times cannot be read holds them whole (${uid})`);
  }
}

/** A series: its moved occurrences at their new times, and its own but those moved or excluded. */
function holdSeries(read: FeedRead, { master, exceptions }: Series) {
  // A moved occurrence holds its new time only (unless it is cancelled or free).
  const moved = new Set<number>();
  for (const exception of exceptions) {
    const idProperty = exception.getFirstProperty('recurrence-id');
    const id = idProperty?.getFirstValue() as ICAL.Time | undefined;
    if (id) moved.add(read.clock.instantOf(id, read.clock.zoneOf(idProperty)));
    read.holdEvent(exception);
  }
  if (!master || !blocks(master)) return;
  const span = read.clock.spanOf(master);
  if (!span) return;
  const values = master.getAllProperties('rrule').map((property) => property.getFirstValue());
  const rules = values.filter((value) => value instanceof ICAL.Recur);
  const rdates = master.getAllProperties('rdate');
  if (values.length === 0 && rdates.length === 0) {
    if (!moved.has(span.from)) read.hold(span.from, span.to);
    return;
  }
  const occurrences = occurrencesOf(read.clock, master, span, moved);
  // A rule read as text (ical.js refused it): the series holds the window from its start.
  if (rules.length < values.length) holdUnreadRule(read, occurrences);
  // The start is the first instance of the set (RFC 5545), which ical.js leaves out when the
  // set is only RDATEs.
  if (!moved.has(span.from) && !occurrences.excluded.has(span.from)) read.hold(span.from, span.to);
  stepRules(read, occurrences, rules);
  stepRdates(read, occurrences, rdates);
}

/** What each occurrence of a series is measured against. */
interface Occurrences {
  master: ICAL.Component;
  /** DTSTART as written, and the zone it is read in. */
  first: ICAL.Time;
  zone: Zone;
  /** The first occurrence. */
  span: Span;
  /** An occurrence's length on the wall clock, when both its ends are read in one zone. */
  wallLength: Temporal.Duration | undefined;
  /** Its length as elapsed time, else. */
  elapsed: number;
  /** Starts that hold nothing: moved (RECURRENCE-ID) or excluded (EXDATE), as instants. */
  moved: ReadonlySet<number>;
  excluded: ReadonlySet<number>;
  /** The occurrences held in the window so far, against the read's cap. */
  inWindow: number;
}

/** What a series' occurrences are measured against: its start, their length, the starts that hold nothing. */
function occurrencesOf(
  clock: FeedClock,
  master: ICAL.Component,
  span: Span,
  moved: ReadonlySet<number>,
): Occurrences {
  const startProperty = master.getFirstProperty('dtstart')!;
  const zone = clock.zoneOf(startProperty);
  const first = startProperty.getFirstValue() as ICAL.Time;
  // The length of each occurrence: in wall-clock time when start and end are read in one zone (a
  // 09:00-10:00 meeting stays so on a day the clocks change), else as elapsed time.
  const endProperty = master.getFirstProperty('dtend');
  const sameZone =
    !endProperty ||
    first.isDate ||
    endProperty.getParameter('tzid') === startProperty.getParameter('tzid');
  // (A feed's own VTIMEZONE is read by ical.js, and keeps elapsed time.)
  const wallLength =
    sameZone && zone.kind !== 'vtimezone' ? wallDuration(master, first) : undefined;
  const excluded = excludedStarts(clock, master);
  return {
    master,
    first,
    zone,
    span,
    wallLength,
    elapsed: span.to - span.from,
    moved,
    excluded,
    inWindow: 0,
  };
}

/**
 * A series' EXDATEs, as instants: ical.js would compare a UTC one with a local start as if both
 * were UTC, and free the wrong hour.
 */
function excludedStarts(clock: FeedClock, master: ICAL.Component): Set<number> {
  const excluded = new Set<number>();
  for (const property of master.getAllProperties('exdate'))
    for (const value of property.getValues() as ICAL.Time[])
      excluded.add(clock.instantOf(value, clock.zoneOf(property)));
  return excluded;
}

/** A series' RRULEs, each stepped from near the window (./recurrence.ts) until past it. */
function stepRules(read: FeedRead, series: Occurrences, rules: ICAL.Recur[]) {
  // No occurrence that reaches into the window starts before this, on the series' wall clock: its
  // length, and the hours a change of the clocks can move a wall-clock time by, before the window.
  const target =
    wallAt(
      read.from - Math.max(series.elapsed, 0) - CLOCK_MARGIN,
      series.first.isDate ? read.clock.hostZone : series.zone,
    ) - CLOCK_MARGIN;
  for (const rule of rules) {
    if (holdMonthEndDays(read, series, rule)) continue;
    try {
      const plan = planOf(rule, series.first, target);
      if (!plan) continue;
      const iterator = plan.rule.iterator(plan.start);
      for (let next = iterator.next(); next; next = iterator.next()) {
        if (plan.before !== undefined && wallMs(next) >= plan.before) break;
        if (!holdOccurrence(read, series, next, series.zone)) break;
      }
    } catch (error) {
      if (error instanceof CalendarTooLarge) throw error;
      holdUnreadRule(read, series, rule.until);
    }
  }
}

/**
 * A rule ical.js refuses, when parsing (`BYSETPOS=400`) or stepping (RFC 5545 forbids
 * `FREQ=DAILY;BYYEARDAY=100`; `BYDAY=1MO;BYMONTHDAY=-1` it calls malformed), threw out of the
 * whole feed's read: one invitation made its host's calendar unreadable, and the host was offered
 * nothing once its last copy was stale. Such a series holds the window from its start to its
 * UNTIL (if that was read) instead: more than it may, never less.
 */
function holdUnreadRule(read: FeedRead, series: Occurrences, until?: ICAL.Time | null) {
  const end = until
    ? read.clock.instantOf(
        until,
        until.zone === ICAL.Timezone.utcTimezone ? { kind: 'instant' } : series.zone,
      ) + Math.max(series.elapsed, 0)
    : read.to;
  const start = Math.max(series.span.from, read.from);
  if (Math.min(end, read.to) > start) read.hold(start, Math.min(end, read.to));
  read.warnings.add(
    `a series of a rule that cannot be read holds its time whole (${summaryOf(series.master)})`,
  );
}

/**
 * ical.js cannot step a rule of days, hours, minutes or seconds narrowed to days counted from a
 * month's end (`FREQ=DAILY;BYMONTHDAY=-1`): with only such days it never returns (a feed with one
 * such invitation was unreadable, and its host offered nothing once its last copy was stale), with
 * others it leaves them out (a busy day offered). Such a series holds the whole of each of its
 * days of the month in the window instead, from its start: more than it may, never less. Whether
 * `rule` was one.
 */
function holdMonthEndDays(read: FeedRead, series: Occurrences, rule: ICAL.Recur): boolean {
  const days = rule.parts.BYMONTHDAY;
  if (!['DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY'].includes(rule.freq)) return false;
  if (!days?.some((day) => day < 0)) return false;
  const months = rule.parts.BYMONTH;
  // Its days on its own clock; a zone of the feed's own is ical.js's: the host's, a day each side.
  const { zone } = series;
  const name =
    zone.kind === 'iana' ? zone.name : zone.kind === 'instant' ? 'UTC' : read.clock.hostZone.name;
  const margin = zone.kind === 'vtimezone' ? DAY : 0;
  let day = Temporal.Instant.fromEpochMilliseconds(Math.max(read.from, series.span.from) - margin)
    .toZonedDateTimeISO(name)
    .startOfDay();
  while (day.epochMilliseconds < read.to + margin) {
    read.step();
    const next = day.add({ days: 1 });
    const ofMonth = days.some((n) => day.day === (n > 0 ? n : day.daysInMonth + n + 1));
    if (ofMonth && (!months?.length || months.includes(day.month)))
      read.hold(day.epochMilliseconds - margin, next.epochMilliseconds + margin);
    day = next;
  }
  read.warnings.add(
    `a series of days counted from a month's end holds those days whole (${summaryOf(series.master)})`,
  );
  return true;
}

/** A series' RDATEs: each written in UTC, in a zone of its own, or in the start's zone. */
function stepRdates(read: FeedRead, series: Occurrences, rdates: ICAL.Property[]) {
  for (const property of rdates) {
    const tzid = property.getParameter('tzid');
    for (const value of property.getValues() as (ICAL.Time | ICAL.Period)[]) {
      const time = value instanceof ICAL.Period ? value.start : value;
      const zone: Zone =
        time.zone === ICAL.Timezone.utcTimezone
          ? { kind: 'instant' }
          : typeof tzid === 'string' && tzid !== ''
            ? read.clock.zoneOf(property)
            : series.zone;
      holdOccurrence(read, series, time, zone);
    }
  }
}

/**
 * Whether an occurrence of a series holds its time, held if so (not when moved, excluded or outside
 * the window); false once the series' stream is past the window, or past its cap there.
 */
function holdOccurrence(read: FeedRead, series: Occurrences, next: ICAL.Time, zone: Zone) {
  read.step();
  // Only the window is converted and counted. Steps before it are skipped on the wall clock read
  // as UTC, which is within a day of the real instant in any zone.
  const rough = wallMs(next);
  if (rough - DAY >= read.to) return false;
  if (rough + DAY + Math.max(series.elapsed, 0) <= read.from) return true;
  const from = read.clock.instantOf(next, zone);
  // Past the window, but not the series' end: ical.js gives a day's BYHOUR times in the order the
  // rule writes them (BYHOUR=23,3), so an earlier time in the window may still come.
  if (from >= read.to) return true;
  if (from === series.span.from || series.moved.has(from) || series.excluded.has(from)) return true;
  const to = series.wallLength
    ? instantOfWall(wallOf(next).add(series.wallLength), zone)
    : from + series.elapsed;
  if (to <= read.from) return true;
  // Past its cap, a series holds the rest of the window: a time it might hold is never offered.
  if (++series.inWindow > read.cap) {
    read.warnings.add(
      `a series holds the rest of the window past ${read.cap} occurrences (${summaryOf(series.master)})`,
    );
    read.hold(from, read.to);
    return false;
  }
  read.hold(from, to);
  return true;
}

/** A wall-clock time in an IANA zone or UTC (a feed's own VTIMEZONE is ical.js's business). */
const instantOfWall = (wall: Temporal.PlainDateTime, zone: Zone): number =>
  wall.toZonedDateTime(zone.kind === 'iana' ? zone.name : 'UTC', { disambiguation: 'compatible' })
    .epochMilliseconds;

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
