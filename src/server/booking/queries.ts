/** What the booking pages ask: whether prospects can book, and the free times as the store has them now. */
import { bookingOffReason, serverConfig } from '../config.ts';
import type { Services } from './services.ts';
import { freeHosts, freeSlotHosts, freeSlots, offeredDates, unreadableAt } from './free-times.ts';
import { moveCandidates } from './rules.ts';
import { CalendarsUnreadable } from './messages.ts';
import type { Availability, Slot } from '../../domain/booking.ts';

/** Where the calls booked and the hosts' calendars are read: this process's services, or the staff CLI's. */
export type Holds = Pick<Services, 'store' | 'calendars'>;

/**
 * The calls booked over the offered days, as the store has them now (but the call of enquiry
 * `moving`, whose own time does not stand in its way), and the hosts' calendars.
 */
async function whatHolds(
  availability: Availability,
  { store, calendars }: Holds,
  now: number,
  moving?: string,
) {
  const dates = offeredDates(availability, now);
  // A day either side: the store compares instants, and the dates are the agency's.
  const from = new Date(Date.parse(dates[0]!) - 86_400_000).toISOString();
  const to = new Date(Date.parse(dates.at(-1)!) + 2 * 86_400_000).toISOString();
  // The hosts' busy times are worked out ahead (calendars/service.ts): this waits only for those
  // that were not, in a worker, as the store answers.
  const [booked] = await Promise.all([
    store.bookedBetween(from, to),
    calendars?.ready(availability, now),
  ]);
  return {
    booked: moving ? booked.filter((call) => call.id !== moving) : booked,
    calendars: calendars?.busy(availability, now),
  };
}

/** The free times of the offered days between two agency dates, as the store has them now. */
export async function currentFreeSlots(
  availability: Availability,
  holds: Holds,
  range: { from?: string; to?: string } = {},
  now = Date.now(),
  /** The enquiry whose call is being moved: its own time is free to it. */
  moving?: string,
): Promise<Slot[]> {
  const { booked, calendars } = await whatHolds(availability, holds, now, moving);
  return freeSlots(availability, booked, now, range, calendars);
}

/**
 * The times the call of enquiry `moving` (its host `host`) can move to now, each with the host who
 * would take it: its own host if free then, else the one the move would give it to (as the store's
 * moveCall chooses). Its own time is left out.
 */
export async function currentMoves(
  availability: Availability,
  holds: Holds,
  call: { id: string; start: string; host: string | null },
  now = Date.now(),
): Promise<{ slot: Slot; host: string }[]> {
  const { booked, calendars } = await whatHolds(availability, holds, now, call.id);
  const hosts = freeSlotHosts(availability, booked, now, calendars);
  return freeSlots(availability, booked, now, {}, calendars).flatMap((slot) => {
    const host = moveCandidates(call.host, hosts.get(slot.start) ?? [])[0];
    return host && slot.start !== call.start ? [{ slot, host }] : [];
  });
}

/**
 * The hosts who can take a call at `slot` now, the one to give it first (free-times.ts); none free
 * because no calendar of the hosts then can be read: CalendarsUnreadable.
 */
export async function currentFreeHosts(
  availability: Availability,
  slot: Slot,
  holds: Holds,
  now = Date.now(),
  moving?: string,
): Promise<string[]> {
  const { booked, calendars } = await whatHolds(availability, holds, now, moving);
  const hosts = freeHosts(availability, booked, slot, calendars);
  if (!hosts.length && unreadableAt(availability, slot, calendars)) throw new CalendarsUnreadable();
  return hosts.map((host) => host.id);
}

/** Whether prospects can book a time: no BOOKING_SECRET too short (known without opening the store). */
export const bookingIsOpen = () => bookingOffReason(serverConfig().bookingSecret) === undefined;
