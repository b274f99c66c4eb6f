/**
 * The free times a test may book: what a server's /schedule/slots.json lists, less the times that
 * leave the notice period while the test goes on. Both the integration tests and the browser tests
 * book through it.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface Slot {
  start: string;
  end: string;
}

/** The notice period the servers under test keep (availability.yaml, which the build reads). */
const NOTICE_MS =
  (
    parse(readFileSync('src/content/data/availability.yaml', 'utf8')) as {
      entries: { noticeHours: number }[];
    }
  ).entries[0]!.noticeHours * 3_600_000;

/**
 * How long before it leaves the notice period a time is no longer handed to a test: a test books a
 * time some seconds after it was listed (minutes on a loaded machine), and one listed at the
 * period's edge was refused by then (422: too soon; a run at 10:15 UTC, a time at 10:15 the next day).
 */
const LAPSE_MARGIN_MS = 10 * 60_000;

/** The times among `slots` that stay bookable for the next `LAPSE_MARGIN_MS`. */
export const lasting = <T extends { start: string }>(slots: T[]) =>
  slots.filter((slot) => Date.parse(slot.start) >= Date.now() + NOTICE_MS + LAPSE_MARGIN_MS);

/**
 * /schedule/slots.json of the server at `origin` (with a query such as `?from=2026-12-01`), which
 * must answer 200; its slots those that stay bookable while the test goes on (`lasting`).
 */
export async function bookableTimes(origin: string, query = '') {
  const answer = await listedTimes(origin, query);
  return { ...answer, slots: lasting(answer.slots) };
}

/**
 * /schedule/slots.json as the server lists it, every time past the notice period: what its pages and
 * its answers to a time taken are compared with (a list cut by `lasting` lacks the next ten minutes').
 */
export async function listedTimes(origin: string, query = '') {
  const response = await fetch(`${origin}/schedule/slots.json${query}`);
  if (response.status !== 200)
    throw new Error(`/schedule/slots.json${query} answered ${response.status}`);
  const answer = (await response.json()) as {
    open: boolean;
    timeZone: string;
    callMinutes: number;
    slots: Slot[];
    message?: string;
  };
  return answer;
}

const calendarDates = new Map<string, Intl.DateTimeFormat>();

/**
 * The calendar date ('2026-12-07') of an instant in a zone, by the platform's Intl (not the code
 * under test's). One formatter a zone: making one takes some 0.1 ms, and a test that made one per
 * time, over lists of hundreds, ran for seconds (30 s on a busy machine).
 */
export function calendarDate(instant: string, timeZone: string) {
  let format = calendarDates.get(timeZone);
  if (!format)
    calendarDates.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone })));
  return format.format(new Date(instant));
}
