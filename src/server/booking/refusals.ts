/**
 * Why a booked call's move, cancellation or confirmation is refused, in one vocabulary: ./rules.ts
 * decides them, the pages show them (/schedule/change, cancel and confirm: the section of their
 * content named as the refusal, in the prospect's words), and the staff's desk and CLI say them in
 * the words of this file's one table.
 */
import { callZones, formatCallTime } from '../../domain/call-times.ts';
import { deskTime } from '../../domain/staff.ts';
import type { StoredEnquiry } from '../store/types.ts';

type StoredCall = NonNullable<StoredEnquiry['call']>;

export type CallRefusal =
  /** No booked call has that reference. */
  | 'unknown'
  /** Released because its prospect did not confirm it in time (BOOKING_CONFIRM_MINUTES). */
  | 'lapsed'
  /** Cancelled before. */
  | 'already-cancelled'
  /** It has begun: nothing cancels or confirms it now. */
  | 'past'
  /** The change link was used, or the desk's page is out of date: the call has moved since. */
  | 'used'
  /** A move to the time it has: it would send every calendar an update of nothing. */
  | 'same'
  /** Moved as often as a call may be (MAX_MOVES; the staff have no limit). */
  | 'limit'
  /** Inside its notice period: too close to its time to be moved with its link. */
  | 'too-late';

/** What a move may meet (./rules.ts moveRefusal). */
export type MoveRefusal = Exclude<CallRefusal, 'past'>;
/** What a cancellation, or a confirmation, may meet (./rules.ts cancelRefusal). */
export type CancelRefusal = Extract<
  CallRefusal,
  'unknown' | 'lapsed' | 'already-cancelled' | 'past'
>;

/** A refusal as an answer: with the call as it is, unless there is none. */
export type Refused<R extends CallRefusal = CallRefusal> =
  { status: 'unknown' } | { status: Exclude<R, 'unknown'>; enquiry: StoredEnquiry };

/** The answer of `refusal` about `enquiry` (none: unknown). */
export const refusedCall = <R extends CallRefusal>(
  refusal: R,
  enquiry: StoredEnquiry | undefined,
): Refused<R> =>
  refusal === 'unknown' || !enquiry
    ? { status: 'unknown' }
    : { status: refusal as Exclude<R, 'unknown'>, enquiry };

/** When the call starts, as the staff read it: in `zone` (the member's, on the desk), else the agency's. */
const startOf = (enquiry: StoredEnquiry, zone?: string) => {
  const { agency, agencyLocale } = callZones(enquiry.data);
  const start = enquiry.call!.start;
  return zone ? formatCallTime(start, zone) : formatCallTime(start, agency, agencyLocale);
};

/** A member named by their address: the desk's names (../staff/desk-view.ts whoIn), else the address. */
export type NameOf = (address: string) => string;

/**
 * Who made a call's last move, and when, as the staff read it: "Anna Reid at 7 Dec 2027, 14:02",
 * "its prospect at …", "the staff at …" (the CLI's); the time in `zone` (the member's), else as the
 * store keeps it (the CLI's). None when the store does not know who (a move before it kept that).
 */
export function lastMover(call: StoredCall, zone?: string, nameOf: NameOf = (address) => address) {
  const by = call.movedByMember ?? call.movedBy;
  if (!by) return undefined;
  const who = by === 'prospect' ? 'its prospect' : by === 'staff' ? 'the staff' : nameOf(by);
  if (!call.movedAt) return who;
  return `${who} at ${zone ? deskTime(call.movedAt, zone) : call.movedAt}`;
}

/**
 * What each refusal tells the staff, with what the call adds when it is given (the CLI has it; the
 * desk has it for a cancel of a call moved since, and not after a redirect).
 */
const MESSAGES: Record<
  CallRefusal,
  (enquiry?: StoredEnquiry, zone?: string, nameOf?: NameOf) => string
> = {
  unknown: () => 'No booked call has that reference.',
  lapsed: (enquiry) =>
    `That call is no longer booked: it was not confirmed in time and its time was released${enquiry?.call?.lapsedAt ? ` at ${enquiry.call.lapsedAt}` : ''}.`,
  'already-cancelled': () => 'That call was cancelled already.',
  past: (enquiry) =>
    `That call has taken place${enquiry?.call ? ` (${startOf(enquiry)})` : ''}: it cannot be cancelled now, and nothing was sent.`,
  used: (enquiry, zone, nameOf) =>
    `That call has been moved since this was shown (by ${(enquiry?.call && lastMover(enquiry.call, zone, nameOf)) ?? 'a colleague or its prospect'})${enquiry?.call ? `, to ${startOf(enquiry, zone)}` : ''}: nothing was changed. Choose again from its time now.`,
  same: () => 'That call is already at that time: nothing was changed or sent.',
  limit: () => 'That call has been moved as often as it may be: nothing was changed.',
  'too-late': () =>
    'That call is too close to its time to be moved with its link: nothing was changed.',
};

/**
 * What `refusal` tells the staff (the desk, the CLI); with `enquiry`, its time (in `zone`, else the
 * agency's) or release too, and who moved it since (a member named by `nameOf`).
 */
export const refusalMessage = (
  refusal: CallRefusal,
  enquiry?: StoredEnquiry,
  zone?: string,
  nameOf?: NameOf,
) => MESSAGES[refusal](enquiry, zone, nameOf);

/** Whether a word (a desk's `?done=`, say) is a refusal of this vocabulary. */
export const isRefusal = (word: string): word is CallRefusal => Object.hasOwn(MESSAGES, word);
