/**
 * The times a prospect can book a call: the weekly opening hours of
 * src/content/data/availability.yaml, in the agency's time zone, cut into
 * calls with a buffer between them, from the notice period to the days ahead,
 * leaving out closed dates and the calls already booked. A slot is named by
 * its start, an instant in UTC ('2026-12-01T09:30:00Z'); every wall-clock
 * conversion goes through Temporal, so that daylight-saving changes are the
 * time-zone database's business, not this file's.
 */
import { Temporal as Polyfill } from 'temporal-polyfill';
import type { Availability, Slot } from '../../domain/booking.ts';
import { weekdays } from '../../domain/booking.ts';

// The platform's Temporal where it has one (Chromium does, Node 24 does not), else the polyfill.
const Temporal = ((globalThis as { Temporal?: typeof Polyfill }).Temporal ??
  Polyfill) as typeof Polyfill;

/** A booked call, as far as the free slots are concerned. */
export type Booked = Slot;

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

/** Every slot of a date's opening hours, before notice and bookings are taken into account. */
export function slotsOfDate(availability: Availability, date: string): Slot[] {
  const { timeZone, callMinutes, bufferMinutes } = availability;
  if (availability.closed.some((closed) => closed.date === date)) return [];
  const day = Temporal.PlainDate.from(date);
  const slots: Slot[] = [];
  for (const range of availability.hours[weekdays[day.dayOfWeek - 1]!]) {
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
  return slots;
}

const overlaps = (a: Slot, b: Slot) =>
  Temporal.Instant.compare(instant(a.start), instant(b.end)) < 0 &&
  Temporal.Instant.compare(instant(b.start), instant(a.end)) < 0;

/** The earliest start the notice period allows. */
const earliestStart = (availability: Availability, now: number) =>
  instant(now).add({ hours: availability.noticeHours });

/**
 * The free slots from `now` on, for the offered dates between `from` and `to` (agency dates,
 * inclusive; all of them by default), without those that overlap a booked call.
 */
export function freeSlots(
  availability: Availability,
  booked: readonly Booked[],
  now: number,
  range: { from?: string; to?: string } = {},
): Slot[] {
  const earliest = earliestStart(availability, now);
  return offeredDates(availability, now)
    .filter((date) => (!range.from || date >= range.from) && (!range.to || date <= range.to))
    .flatMap((date) => slotsOfDate(availability, date))
    .filter(
      (slot) =>
        Temporal.Instant.compare(instant(slot.start), earliest) >= 0 &&
        !booked.some((call) => overlaps(slot, call)),
    );
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
  const slots = slotsOfDate(availability, date);
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
  return startingAt(slotsOfDate(availability, agencyDate(availability, start)), at);
}

/** The free slots nearest to a wanted start, nearest first. */
export function nearest(free: readonly Slot[], wanted: string, count = 3): Slot[] {
  const at = instant(wanted).epochMilliseconds;
  return [...free]
    .sort(
      (a, b) =>
        Math.abs(instant(a.start).epochMilliseconds - at) -
          Math.abs(instant(b.start).epochMilliseconds - at) || a.start.localeCompare(b.start),
    )
    .slice(0, count);
}
