/**
 * How a call's time reads, in any zone: Intl only, so that the dialog's time picker (in the browser)
 * and the server's pages, e-mails and staff CLI share it. Working out the times themselves is
 * src/server/booking/free-times.ts's business (Temporal).
 */
import { DEFAULT_TIME_ZONE, type Slot } from './booking.ts';

/**
 * One formatter per locale, zone and options, kept: making one costs some fifty times a use of it,
 * and a day of the time picker, a page of free times or a call's e-mails format dozens of times in
 * the same few zones. At most a few hundred are kept (a zone's name in another case is another key).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 400;

function formatter(locale: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale} ${JSON.stringify(options)}`;
  let kept = formatters.get(key);
  if (!kept) {
    kept = new Intl.DateTimeFormat(locale, options);
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, kept);
  }
  return kept;
}

export const formatIn = (start: string, timeZone: string, options: Intl.DateTimeFormatOptions) =>
  formatter('en-GB', { timeZone, ...options }).format(new Date(start));

/** '09:30' */
export const clock = (start: string, timeZone: string) =>
  formatIn(start, timeZone, { hour: '2-digit', minute: '2-digit' });

/** 'Tuesday 1 December' */
export const dayLabel = (start: string, timeZone: string) =>
  formatIn(start, timeZone, { weekday: 'long', day: 'numeric', month: 'long' });

/** The calendar date of an instant in a zone, '2026-12-01'. */
export const dateIn = (start: string, timeZone: string) =>
  formatter('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(start),
  );

/** 'Greenwich Mean Time': a zone as people say it, when the platform knows its name. */
export const zoneName = (timeZone: string) =>
  formatter('en-GB', { timeZone, timeZoneName: 'long' })
    .formatToParts(new Date())
    .find((part) => part.type === 'timeZoneName')?.value;

/** 'Tuesday 1 December 2026, 09:30 GMT' in a zone: how mails and pages name a call's time. */
export function formatCallTime(start: string, timeZone: string): string {
  const day = formatIn(start, timeZone, { dateStyle: 'full' });
  const time = formatIn(start, timeZone, {
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return `${day}, ${time}`;
}

/** Slots grouped by their date in a zone, in order, leaving out those in `leaveOut`. */
export function byDate(slots: readonly Slot[], timeZone: string, leaveOut: readonly Slot[] = []) {
  const left = new Set(leaveOut.map((slot) => slot.start));
  const days = new Map<string, Slot[]>();
  for (const slot of slots) {
    if (left.has(slot.start)) continue;
    const date = dateIn(slot.start, timeZone);
    days.set(date, [...(days.get(date) ?? []), slot]);
  }
  return days;
}

/**
 * The zones a booked call is shown in, from what was stored with it: the agency's when it was
 * booked, and the visitor's (their browser's; the agency's for a booking made without JavaScript).
 */
export function callZones(data: Record<string, unknown>) {
  const agency =
    typeof data.agency_time_zone === 'string' ? data.agency_time_zone : DEFAULT_TIME_ZONE;
  const visitor = typeof data.time_zone === 'string' ? data.time_zone : agency;
  return { agency, visitor };
}
