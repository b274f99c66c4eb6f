/** Booking a call as a prospect would, against a running server: its free times, and a booking. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { postForm, type RunningServer } from '../support/server';

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
export const lasting = (slots: Slot[]) =>
  slots.filter((slot) => Date.parse(slot.start) >= Date.now() + NOTICE_MS + LAPSE_MARGIN_MS);

/**
 * /schedule/slots.json of a server (with a query such as `?from=2026-12-01`), checked to answer 200;
 * its slots those that stay bookable while the test goes on (`lasting`).
 */
export async function freeSlots(server: RunningServer, query = '') {
  const response = await fetch(`${server.url}/schedule/slots.json${query}`);
  expect(response.status).toBe(200);
  const answer = (await response.json()) as {
    open: boolean;
    timeZone: string;
    callMinutes: number;
    slots: Slot[];
    message?: string;
  };
  return { ...answer, slots: lasting(answer.slots) };
}

/** A booking's fields as the dialog sends them, with a fresh idempotency key. */
export const booking = (slot: string, extra: Record<string, string> = {}) => ({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'An iPad app for our clinics.',
  slot,
  idempotency_key: crypto.randomUUID(),
  ...extra,
});

export const book = (server: RunningServer, slot: string, extra: Record<string, string> = {}) =>
  postForm(`${server.url}/send-mail.php`, booking(slot, extra));

/** The slots on a weekday in the agency's zone (src/content/data/availability.yaml: Europe/London). */
export const onWeekday = (slots: Slot[], weekday: string) =>
  slots.filter(
    (slot) =>
      new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: 'Europe/London' }).format(
        new Date(slot.start),
      ) === weekday,
  );

/**
 * A slot only one host takes (availability.yaml: Ben has no Wednesday hours), the `nth` of them:
 * once it is booked, no other host is free then.
 */
export const oneHostSlot = (slots: Slot[], nth = 0) => onWeekday(slots, 'Wednesday')[nth]!;
