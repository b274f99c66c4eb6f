/**
 * The times a prospect can book a call: each host's weekly hours (theirs, or
 * the entry's) of src/content/data/availability.yaml, in the agency's time
 * zone, cut into calls with a buffer between them, from the notice period to
 * the days ahead, leaving out closed dates; a time is offered while at least
 * one host is free then, in their calls and in their calendars. A slot is
 * named by its start, an instant in UTC ('2026-12-01T09:30:00Z'); every
 * wall-clock conversion goes through Temporal, so that daylight-saving changes
 * are the time-zone database's business, not this file's.
 */
import { Temporal as Polyfill } from 'temporal-polyfill';
import type { Availability, Host, Slot } from '../../domain/booking.ts';
import { weekdays } from '../../domain/booking.ts';
import { merge, type Busy, type CalendarBusy } from '../calendars/busy.ts';

// The platform's Temporal where it has one (Chromium does, Node 24 does not), else the polyfill.
const Temporal = ((globalThis as { Temporal?: typeof Polyfill }).Temporal ??
  Polyfill) as typeof Polyfill;

/**
 * A booked call, as far as the free slots are concerned: with its host, or with none when it was
 * booked before there were hosts (it then holds every host).
 */
export interface Booked extends Slot {
  host?: string | null;
}

const noCalendars: CalendarBusy = new Map();

const instant = (value: number | string) =>
  typeof value === 'number'
    ? Temporal.Instant.fromEpochMilliseconds(value)
    : Temporal.Instant.from(value);

/** '09:30-12:30' → its two times; the schema has checked the form. */
export const parseRange = (range: string) => {
  const [from, to] = range.split('-') as [string, string];
  return { from: Temporal.PlainTime.from(from), to: Temporal.PlainTime.from(to) };
};

/** The agency's calendar date of an instant. */
export const agencyDate = (availability: Availability, at: number | string) =>
  instant(at).toZonedDateTimeISO(availability.timeZone).toPlainDate().toString();

/** The dates offered: from today (in the agency's zone) to `daysAhead` days later. */
export function offeredDates(availability: Availability, now: number): string[] {
  const today = Temporal.PlainDate.from(agencyDate(availability, now));
  return Array.from({ length: availability.daysAhead + 1 }, (_, i) =>
    today.add({ days: i }).toString(),
  );
}

/**
 * Days laid out already, by everything a layout depends on: every request lays out the same three
 * weeks for each host, and Temporal's polyfill makes that most of a request's time.
 */
const layouts = new Map<string, readonly Slot[]>();
const MAX_LAYOUTS = 5_000;

/** Every slot of a date's opening hours, before notice and bookings are taken into account. */
export function slotsOfDate(
  availability: Availability,
  date: string,
  hours: Availability['hours'] = availability.hours,
): Slot[] {
  const { timeZone, callMinutes, bufferMinutes } = availability;
  if (availability.closed.some((closed) => closed.date === date)) return [];
  const day = Temporal.PlainDate.from(date);
  const ranges = hours[weekdays[day.dayOfWeek - 1]!];
  const key = `${date} ${timeZone} ${callMinutes} ${bufferMinutes} ${ranges.join(',')}`;
  const known = layouts.get(key);
  if (known) return [...known];
  const slots: Slot[] = [];
  for (const range of ranges) {
    const { from, to } = parseRange(range);
    // Wall-clock opening and closing to instants; a time the clocks skip becomes the one after the
    // change. Calls are then laid out in real minutes, so none overlaps on a day the clocks change.
    const open = day.toZonedDateTime({ timeZone, plainTime: from }).toInstant();
    const close = day.toZonedDateTime({ timeZone, plainTime: to }).toInstant();
    for (
      let start = open;
      Temporal.Instant.compare(start.add({ minutes: callMinutes }), close) <= 0;
      start = start.add({ minutes: callMinutes + bufferMinutes })
    ) {
      slots.push({ start: start.toString(), end: start.add({ minutes: callMinutes }).toString() });
    }
  }
  if (layouts.size >= MAX_LAYOUTS) layouts.clear();
  layouts.set(key, slots);
  return [...slots];
}

/** A host's week: their own hours in their own zone, or the entry's. */
export const scheduleOf = (availability: Availability, host: Host): Availability => ({
  ...availability,
  timeZone: host.timeZone ?? availability.timeZone,
  hours: host.hours ?? availability.hours,
});

/**
 * A host's slots whose start falls on one of the agency's `dates` (ascending). A host in the agency's
 * zone lays out those days; one in another zone, their own days around them, kept by the agency's
 * date of each start.
 */
function hostSlotsOn(availability: Availability, host: Host, dates: readonly string[]): Slot[] {
  const schedule = scheduleOf(availability, host);
  if (schedule.timeZone === availability.timeZone)
    return dates.flatMap((date) => slotsOfDate(schedule, date));
  if (dates.length === 0) return [];
  const wanted = new Set(dates);
  const slots: Slot[] = [];
  const last = Temporal.PlainDate.from(dates.at(-1)!).add({ days: 1 });
  for (
    let day = Temporal.PlainDate.from(dates[0]!).subtract({ days: 1 });
    Temporal.PlainDate.compare(day, last) <= 0;
    day = day.add({ days: 1 })
  )
    for (const slot of slotsOfDate(schedule, day.toString()))
      if (wanted.has(agencyDate(availability, slot.start))) slots.push(slot);
  return slots;
}

/** The slots of a date on any host's hours, by start. */
function offeredOnDate(availability: Availability, date: string): Slot[] {
  const byStart = new Map<string, Slot>();
  for (const host of availability.hosts)
    for (const slot of hostSlotsOn(availability, host, [date])) byStart.set(slot.start, slot);
  return [...byStart.values()].sort((a, b) => a.start.localeCompare(b.start));
}

/** The starts (epoch ms) of every host's slots over the offered dates of one agency date, by entry. */
const windowStarts = new WeakMap<Availability, { today: string; starts: Float64Array }>();

/**
 * The offered window's times: every (host, slot) pair the opening hours offer from the notice
 * period to the days ahead, whatever is booked or busy (the share of them that calls waiting for
 * confirmation may hold, BOOKING_UNCONFIRMED_SHARE, is of these). Laid out once a day per entry;
 * then a count of the starts past the notice.
 */
export function offeredTimes(availability: Availability, now: number): number {
  const today = agencyDate(availability, now);
  let laid = windowStarts.get(availability);
  if (laid?.today !== today) {
    const dates = offeredDates(availability, now);
    const starts = availability.hosts.flatMap((host) =>
      hostSlotsOn(availability, host, dates).map((slot) => Date.parse(slot.start)),
    );
    laid = { today, starts: Float64Array.from(starts) };
    windowStarts.set(availability, laid);
  }
  const earliest = now + availability.noticeHours * 3_600_000;
  let count = 0;
  for (const start of laid.starts) if (start >= earliest) count++;
  return count;
}

/** The earliest start the notice period allows. */
const earliestStart = (availability: Availability, now: number) =>
  instant(now).add({ hours: availability.noticeHours });

/**
 * What holds each host: their calls (with the buffer after each; a call with no host holds every
 * host) and their calendars' busy times, sorted and merged; a host whose calendar is 'unknown' is
 * left out, and so offered nothing.
 */
export function busyByHost(
  availability: Availability,
  booked: readonly Booked[],
  calendars: CalendarBusy = noCalendars,
): Map<string, Busy[]> {
  const buffer = availability.bufferMinutes * 60_000;
  const result = new Map<string, Busy[]>();
  for (const host of availability.hosts) {
    const calendar = calendars.get(host.id);
    if (calendar === 'unknown') continue;
    const busy: Busy[] = [...(calendar ?? [])];
    for (const call of booked)
      if (!call.host || call.host === host.id)
        busy.push({ start: ms(call.start), end: ms(call.end) + buffer });
    result.set(host.id, merge(busy));
  }
  return result;
}

const ms = (iso: string) => Temporal.Instant.from(iso).epochMilliseconds;

/** Whether [start, end) meets none of the sorted, merged busy intervals. */
function isFree(busy: readonly Busy[], start: number, end: number): boolean {
  // The first interval that ends after `start` (ends are sorted too, once merged).
  let low = 0;
  let high = busy.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (busy[middle]!.end <= start) low = middle + 1;
    else high = middle;
  }
  return low === busy.length || busy[low]!.start >= end;
}

/**
 * Whether a host can take a call at a slot of their hours: the call and the buffer after it meet
 * none of their busy times.
 */
const hostIsFree = (availability: Availability, busy: readonly Busy[], slot: Slot) =>
  isFree(busy, ms(slot.start), ms(slot.end) + availability.bufferMinutes * 60_000);

/**
 * The free slots from `now` on, for the offered dates between `from` and `to` (agency dates,
 * inclusive; all of them by default): the slots of each host's hours at which that host is free.
 */
export function freeSlots(
  availability: Availability,
  booked: readonly Booked[],
  now: number,
  range: { from?: string; to?: string } = {},
  calendars: CalendarBusy = noCalendars,
): Slot[] {
  const earliest = earliestStart(availability, now);
  const busy = busyByHost(availability, booked, calendars);
  const dates = offeredDates(availability, now).filter(
    (date) => (!range.from || date >= range.from) && (!range.to || date <= range.to),
  );
  const free = new Map<string, Slot>();
  for (const host of availability.hosts) {
    const hostBusy = busy.get(host.id);
    if (!hostBusy) continue;
    for (const slot of hostSlotsOn(availability, host, dates))
      if (
        !free.has(slot.start) &&
        Temporal.Instant.compare(instant(slot.start), earliest) >= 0 &&
        hostIsFree(availability, hostBusy, slot)
      )
        free.set(slot.start, slot);
  }
  return [...free.values()].sort((a, b) => a.start.localeCompare(b.start));
}

/**
 * The hosts who can take a call at `slot`, the one to give it first: on their hours then, free in
 * their calls and calendars; the fewest calls booked among `booked` first (the offered window's),
 * then in the file's order.
 */
export function freeHosts(
  availability: Availability,
  booked: readonly Booked[],
  slot: Slot,
  calendars: CalendarBusy = noCalendars,
): Host[] {
  const busy = busyByHost(availability, booked, calendars);
  const date = [agencyDate(availability, slot.start)];
  const calls = (host: Host) => booked.filter((call) => call.host === host.id).length;
  return availability.hosts
    .map((host, order) => ({ host, order, calls: calls(host) }))
    .filter(({ host }) => {
      const hostBusy = busy.get(host.id);
      return (
        hostBusy !== undefined &&
        hostSlotsOn(availability, host, date).some((own) => own.start === slot.start) &&
        hostIsFree(availability, hostBusy, slot)
      );
    })
    .sort((a, b) => a.calls - b.calls || a.order - b.order)
    .map(({ host }) => host);
}

/**
 * The free slots (as freeSlots has them), each with the hosts free then, ordered as freeHosts
 * orders them (the fewest calls first, then the file's order): by start. A host's free slots are
 * worked out once, over every date, not once a slot.
 */
export function freeSlotHosts(
  availability: Availability,
  booked: readonly Booked[],
  now: number,
  calendars: CalendarBusy = noCalendars,
): Map<string, string[]> {
  const calls = (host: Host) => booked.filter((call) => call.host === host.id).length;
  const ordered = availability.hosts
    .map((host, order) => ({ host, order, calls: calls(host) }))
    .sort((a, b) => a.calls - b.calls || a.order - b.order);
  const hosts = new Map<string, string[]>();
  for (const { host } of ordered)
    for (const slot of freeSlots({ ...availability, hosts: [host] }, booked, now, {}, calendars))
      hosts.set(slot.start, [...(hosts.get(slot.start) ?? []), host.id]);
  return hosts;
}

/**
 * Whether every host whose hours have `slot` has a calendar that cannot be read now (and there is
 * one): no one can be given it, and not because it was taken.
 */
export function unreadableAt(
  availability: Availability,
  slot: Slot,
  calendars: CalendarBusy = noCalendars,
): boolean {
  const date = [agencyDate(availability, slot.start)];
  const working = availability.hosts.filter((host) =>
    hostSlotsOn(availability, host, date).some((own) => own.start === slot.start),
  );
  return working.length > 0 && working.every((host) => calendars.get(host.id) === 'unknown');
}

/** Why a start cannot be booked, whatever is booked already; undefined when it is an offered slot. */
export function refusal(
  availability: Availability,
  start: string,
  now: number,
): string | undefined {
  let at: Temporal.Instant;
  try {
    at = Temporal.Instant.from(start);
  } catch {
    return 'Choose one of the times offered.';
  }
  if (Temporal.Instant.compare(at, instant(now)) <= 0) return 'That time has already passed.';
  if (Temporal.Instant.compare(at, earliestStart(availability, now)) < 0) {
    const hours = availability.noticeHours;
    return `Calls need at least ${hours} hour${hours === 1 ? '' : 's'}' notice: choose a later time.`;
  }
  const date = agencyDate(availability, start);
  if (!offeredDates(availability, now).includes(date))
    return `Calls can be booked up to ${availability.daysAhead} days ahead: choose an earlier time.`;
  const slots = offeredOnDate(availability, date);
  if (slots.length === 0) return 'We have no calls that day: choose another day.';
  if (!startingAt(slots, at))
    return 'That time is outside our opening hours: choose one of the times offered.';
  return undefined;
}

const startingAt = (slots: readonly Slot[], at: Temporal.Instant) =>
  slots.find((slot) => Temporal.Instant.compare(instant(slot.start), at) === 0);

/** The offered slot that starts at `start` (normalised), if there is one. */
export function offeredSlot(availability: Availability, start: string): Slot | undefined {
  let at: Temporal.Instant;
  try {
    at = Temporal.Instant.from(start);
  } catch {
    return undefined;
  }
  return startingAt(offeredOnDate(availability, agencyDate(availability, start)), at);
}

/**
 * The `count` free slots nearest to a wanted start (the earlier of two equally near), in time
 * order: a prospect reads them as a list of times, not of distances.
 */
export function nearest(free: readonly Slot[], wanted: string, count = 3): Slot[] {
  const at = instant(wanted).epochMilliseconds;
  const time = (slot: Slot) => instant(slot.start).epochMilliseconds;
  return [...free]
    .sort((a, b) => Math.abs(time(a) - at) - Math.abs(time(b) - at) || time(a) - time(b))
    .slice(0, count)
    .sort((a, b) => time(a) - time(b));
}
