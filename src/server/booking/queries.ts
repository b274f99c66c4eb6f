/** What the booking pages ask: whether prospects can book, and the free times as the store has them now. */
import { bookingOffReason, serverConfig } from '../config.ts';
import { getEnquiryService } from '../enquiries/service.ts';
import { freeSlots, offeredDates } from './free-times.ts';
import type { Availability, Slot } from '../../domain/booking.ts';

/** The free times of the offered days between two agency dates, as the store has them now. */
export async function currentFreeSlots(
  availability: Availability,
  range: { from?: string; to?: string } = {},
  now = Date.now(),
): Promise<Slot[]> {
  const { store } = await getEnquiryService();
  const dates = offeredDates(availability, now);
  // A day either side: the store compares instants, and the dates are the agency's.
  const from = new Date(Date.parse(dates[0]!) - 86_400_000).toISOString();
  const to = new Date(Date.parse(dates.at(-1)!) + 2 * 86_400_000).toISOString();
  return freeSlots(availability, await store.bookedBetween(from, to), now, range);
}

/** Whether prospects can book a time: no BOOKING_SECRET too short (known without opening the store). */
export const bookingIsOpen = () => bookingOffReason(serverConfig().bookingSecret) === undefined;
