/**
 * The e-mail jobs of enquiries and booked calls: their kinds, and what a job of them carries (its
 * payload). A booked call's e-mail carries the call as it was when it was queued, so that a later
 * move or cancellation, which queues e-mails of its own, never rewrites it. ./delivery.ts runs them.
 */
import type { CallChange } from '../store/types.ts';

/**
 * The e-mails an enquiry causes: the agency's notice of it; for a booked call, the prospect's
 * confirmation and the host's invitation too; when it is moved, an update to each, and before it,
 * reminders; when it is cancelled, a cancellation to each; when it lapses unconfirmed, a release
 * (a cancellation that says why) to each.
 */
export const MAIL_KINDS = [
  'agency',
  'prospect',
  'host',
  'agency-cancel',
  'prospect-cancel',
  'host-cancel',
  'agency-move',
  'prospect-move',
  'host-move',
  'prospect-reminder',
  'host-reminder',
  'agency-lapse',
  'prospect-lapse',
  'host-lapse',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * The e-mails that bring a waiting call's confirm link as it is booked or moved: its time to
 * confirm (BOOKING_CONFIRM_MINUTES) runs from their sending (or their failing for good), never
 * while one waits to go. Each says how long that is.
 */
export const CONFIRMING_MAILS: readonly MailKind[] = ['prospect', 'prospect-move'];

/** What one e-mail of a booked call is about, as it was when the e-mail was queued. */
export interface MailCall {
  /** The calendar event's SEQUENCE this e-mail carries. */
  sequence: number;
  /** The host it goes to (a host's e-mail), or the call's host then. */
  host: string | null;
  start: string;
  end: string;
  /** A move's e-mail: the time it was moved from. */
  previous?: { start: string; end: string };
  /** A reminder: how long before the call, in minutes. */
  remindMinutes?: number;
  /** A move's or a cancellation's e-mail: who made it, when the staff did (else the prospect). */
  change?: CallChange;
}

/** What an e-mail job carries: the call it is about (none: the notice of an enquiry with no call). */
export interface MailPayload {
  call?: MailCall;
}
