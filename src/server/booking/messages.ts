/** What a visitor is told when a time cannot be booked, and what they can do instead. */
import { processWide } from '../process-wide.ts';
import type { Slot } from '../../domain/booking.ts';
import type { BookingCapReached } from '../store/types.ts';

export const bookingClosedMessage =
  'Booking a time is not available right now. Send your message without a time and we will reply to arrange one.';

/** No time is free in the offered days: the form sends the message alone. */
export const noFreeTimeMessage =
  'No time is free in the coming days. Send your message and we will reply to arrange one.';

/**
 * Why a booking was refused while the calls waiting for confirmation hold their share of the times
 * (BOOKING_UNCONFIRMED_SHARE): nothing the prospect did, and their message still reaches us.
 */
export const unconfirmedShareMessage =
  'Many of our times are waiting to be confirmed just now, so we cannot book one here. Send your message without a time and we will reply to arrange one with you.';

/** Why a booking beyond a cap (BOOKING_CAP, BOOKING_NETWORK_CAP, the unconfirmed share) was refused. */
export const bookingCapMessage = ({ limit, cap }: BookingCapReached) => {
  if (limit === 'unconfirmed') return unconfirmedShareMessage;
  const calls = `${cap} call${cap === 1 ? '' : 's'} booked with us already`;
  const said = {
    email: `This e-mail address has ${calls}`,
    client: `There are ${calls} from your connection`,
    network: `There are ${calls} from your network`,
  }[limit];
  return `${said}. To change a time, cancel one with its cancel link; or send your message without a time and we will reply to arrange one.`;
};

/**
 * No calendar of the hosts at a time can be read now (a feed down): the time may well be free, but
 * it cannot be offered; the prospect is not told it was taken.
 */
export const CalendarsUnreadable = processWide(
  'CalendarsUnreadable',
  () =>
    class CalendarsUnreadable extends Error {
      constructor() {
        super('No calendar of the hosts at that time can be read now.');
      }
    },
);
export type CalendarsUnreadable = InstanceType<typeof CalendarsUnreadable>;

/** A booking refused because no calendar could be read: what the prospect can do instead. */
export const calendarsUnreadableMessage =
  'We cannot offer times just now: our calendars cannot be read. Send your message without a time, or write to us from the contact page (/contact), and we will reply to arrange one.';

/** A move refused because no calendar could be read: the call keeps its time. */
export const calendarsUnreadableMoveMessage =
  'We cannot move calls just now: our calendars cannot be read. Your call stays at its time; try again later, or write to us from the contact page (/contact) and we will move it for you.';

/** A time taken between the visitor's choice and their post, with the nearest free ones (if any). */
export const slotTakenMessage = (alternatives: Slot[]) =>
  alternatives.length
    ? 'That time was just taken. Here are the nearest free ones.'
    : 'That time was just taken, and no other time is free in the coming days. Send your message without a time and we will reply to arrange one.';

/**
 * A move's new time taken between the prospect's choice and their post (another booking or move won
 * it): nothing to send, as the booking form would; the call stays at `kept` (its time as the change
 * page shows it), with the nearest free times to choose from, or, none left, what else they can do.
 */
export const slotTakenMoveMessage = (alternatives: Slot[], kept: string) =>
  alternatives.length
    ? `That time was just taken, so your call stays at ${kept}. Choose one of the nearest free times below, or keep your call at its time.`
    : `That time was just taken, and no other time is free in the coming days, so your call stays at ${kept}. Keep it, or write to us from the contact page (/contact) and we will find another time with you; you can still cancel it with its cancel link.`;

/** A move asked for the time the call has already (a crafted post, or the staff's slip): nothing changes. */
export const sameTimeMessage = 'Your call is already at that time.';
