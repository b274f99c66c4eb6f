/** Booking a call as a prospect would, against a running server: its free times, and a booking. */
import { dateIn } from '../../src/domain/call-times';
import { postForm, type RunningServer } from '../support/server';
import { bookableTimes, listedTimes, type Slot } from '../support/free-times';

export { lasting, type Slot } from '../support/free-times';

/** The free times of a server that stay bookable while the test goes on (../support/free-times.ts). */
export const freeSlots = (server: RunningServer, query = '') => bookableTimes(server.url, query);

/** /schedule/slots.json as it is, the times about to leave the notice period too: for comparing lists. */
export const listedSlots = (server: RunningServer, query = '') => listedTimes(server.url, query);

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

const weekdayInLondon = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  timeZone: 'Europe/London',
});

/** The slots on a weekday in the agency's zone (src/content/data/availability.yaml: Europe/London). */
export const onWeekday = (slots: Slot[], weekday: string) =>
  slots.filter((slot) => weekdayInLondon.format(new Date(slot.start)) === weekday);

/**
 * A slot only one host takes (availability.yaml: Ben has no Wednesday hours), the `nth` of them:
 * once it is booked, no other host is free then.
 */
export const oneHostSlot = (slots: Slot[], nth = 0) => onWeekday(slots, 'Wednesday')[nth]!;

/**
 * The one-host slots of the first Wednesday with at least `count` of them free: a span of them then
 * stays within that day (tomorrow's may have only its last times left, the notice period having
 * taken the rest).
 */
export const oneHostDay = (slots: Slot[], count: number) => {
  const days = new Map<string, Slot[]>();
  for (const slot of onWeekday(slots, 'Wednesday')) {
    const day = dateIn(slot.start, 'Europe/London');
    days.set(day, [...(days.get(day) ?? []), slot]);
  }
  return [...days.values()].find((day) => day.length >= count)!;
};
