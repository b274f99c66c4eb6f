/** Booking a call as a prospect would, against a running server: its free times, and a booking. */
import { expect } from 'vitest';
import { postForm, type RunningServer } from '../support/server';

export interface Slot {
  start: string;
  end: string;
}

/** /schedule/slots.json of a server (with a query such as `?from=2026-12-01`), checked to answer 200. */
export async function freeSlots(server: RunningServer, query = '') {
  const response = await fetch(`${server.url}/schedule/slots.json${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as {
    open: boolean;
    timeZone: string;
    callMinutes: number;
    slots: Slot[];
    message?: string;
  };
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
