/**
 * What booking decides, as pure code: the caps a booking may not go over, which host takes a call,
 * which refusals a move, a cancel or a confirmation meets (./refusals.ts), and which e-mails each
 * queues (with the reminders still ahead, ../../domain/reminders.ts). ./calls.ts runs these inside
 * the store's transactions, which only persist what they decided; tests/unit/booking-rules.test.ts
 * tries them without a database.
 */
import { clientNetwork, wideNetwork } from '../networks.ts';
import type { MailCall, MailKind, MailPayload } from '../mail/mail-jobs.ts';
import {
  BookingCapReached,
  type CallAhead,
  type CallChange,
  type CallMover,
  type BookingAlertRule,
  type NewEnquiry,
  type QueuedJob,
  type StoredCall,
  type StoredEnquiry,
} from '../store/types.ts';
import { dueReminders, insideNotice } from '../../domain/reminders.ts';
import { asciiEmail } from '../../domain/forms.ts';
import { refusedCall, type CancelRefusal, type MoveRefusal, type Refused } from './refusals.ts';

/** A booked call to move to a new time, and who may take it there, in order. */
export interface CallMove {
  start: string;
  end: string;
  /** Free then (hours, calendars, other calls); the call's own host, if among them, keeps it. */
  hosts: readonly string[];
  /** The reminders of the new time, in minutes before it (availability.yaml's `reminders`). */
  reminders?: readonly number[];
  /** The sequence the move was asked for at (the change link's): another move since refuses it. */
  sequence?: number;
  /** At most this many moves per call. */
  maxMoves: number;
  /** The staff's move: its e-mails say so. */
  change?: CallChange;
  /** The member who moved it from the desk (their address), stored as who did. */
  member?: string;
}

/** What became of a move: moved (from `previous`), or why not. */
export type MoveResult =
  | {
      status: 'moved';
      enquiry: StoredEnquiry;
      previous: { start: string; end: string; host: string | null };
    }
  | Refused<MoveRefusal>;

/** What became of a call to cancel: cancelled now, or why not. */
export type CancelResult = { status: 'cancelled'; enquiry: StoredEnquiry } | Refused<CancelRefusal>;

/** What became of a cancel asked at the call's sequence as shown (the desk's): a move since, too. */
export type ShownCancelResult = CancelResult | Refused<'used'>;

/** A call to cancel: by whom, when, and as shown where (Bookings.cancelCall). */
export interface CallCancel {
  /** Its cancellations e-mailed (e-mail on, and the call not spam). */
  queueMail: boolean;
  /** The bookings' clock's, unless given. */
  now?: number;
  /** The staff's cancel (the desk's, the CLI's): its e-mails say so, with the reason, stored too. */
  change?: CallChange;
  /**
   * The member who cancelled it (their address), stored as who did; else 'staff' for a staff
   * change, else the prospect.
   */
  member?: string;
  /** The call's sequence as the desk's page showed it: moved since, it is not cancelled ('used'). */
  sequence?: number;
}

/** What became of `Cancel`: without a sequence shown, no move since can refuse it. */
export type CancelAnswer<Cancel extends CallCancel> = Cancel extends CallCancel & {
  sequence?: undefined;
}
  ? CancelResult
  : ShownCancelResult;

/** What became of a confirmation: confirmed now or before, or why not (a cancel's refusals). */
export type ConfirmResult =
  { status: 'confirmed' | 'already-confirmed'; enquiry: StoredEnquiry } | Refused<CancelRefusal>;

/** The caps on calls booked ahead: per e-mail address and per client, and per wider network. */
export interface BookingCaps {
  bookingCap: number;
  networkCap: number;
}

/**
 * One mailbox however it is spelled: the address mail goes to (its domain as IDNA writes it, so a
 * soft hyphen, a full-width letter or an ideographic full stop changes nothing), in any case.
 */
const mailbox = (email: string) => (asciiEmail(email.trim()) ?? email.trim()).toLowerCase();

/**
 * The cap a booking would go over, given the calls booked ahead: its e-mail address's (its
 * mailbox's, however spelled), its client's (./networks.ts: an IPv6 client's /64) or its wider
 * network's (an IPv4 /24, an IPv6 /48); then, for a call not confirmed at once, the share of the
 * offered window's times that calls waiting for confirmation may hold (the call's
 * `maxUnconfirmed`). Counted here rather than in SQL so that both engines count networks alike.
 */
export function bookingCapReached(
  ahead: CallAhead[],
  enquiry: Pick<NewEnquiry, 'email' | 'clientIp' | 'call'>,
  { bookingCap, networkCap }: BookingCaps,
): BookingCapReached | undefined {
  const email = mailbox(enquiry.email);
  // Its part before the @ first: only a call with the same needs its domain spelled out.
  const user = email.slice(0, email.lastIndexOf('@') + 1);
  const client = clientNetwork(enquiry.clientIp);
  const wide = wideNetwork(enquiry.clientIp);
  const count = (same: (call: CallAhead) => boolean) => ahead.filter(same).length;
  const sameMailbox = (call: CallAhead) =>
    call.email.trim().toLowerCase().startsWith(user) && mailbox(call.email) === email;
  if (count(sameMailbox) >= bookingCap) return new BookingCapReached('email', bookingCap);
  if (count((call) => clientNetwork(call.clientIp) === client) >= bookingCap)
    return new BookingCapReached('client', bookingCap);
  if (count((call) => wideNetwork(call.clientIp) === wide) >= networkCap)
    return new BookingCapReached('network', networkCap);
  const maxUnconfirmed = enquiry.call?.maxUnconfirmed;
  if (
    maxUnconfirmed !== undefined &&
    !enquiry.call?.confirmed &&
    count((call) => !call.confirmed) >= maxUnconfirmed
  )
    return new BookingCapReached('unconfirmed', maxUnconfirmed);
  return undefined;
}

/**
 * What a confirmation came to, given the call as it is after the store confirmed it (`changed`) or
 * not: refused as a cancellation would be, else confirmed before.
 */
export function confirmResult(
  enquiry: StoredEnquiry | undefined,
  changed: boolean,
  now: number,
): ConfirmResult {
  if (changed && enquiry?.call) return { status: 'confirmed', enquiry };
  const refusal = cancelRefusal(enquiry, now);
  if (refusal) return refusedCall(refusal, enquiry);
  return { status: 'already-confirmed', enquiry: enquiry! };
}

/**
 * Whether the agency is to be told now that bookings come in faster than people book: more than
 * `perHour` calls booked in the last hour (`recent`), and no alert within `quietMs` before `now`
 * (`lastAlertAt`, epoch ms; undefined: never).
 */
export const bookingAlertDue = (
  recent: number,
  lastAlertAt: number | undefined,
  now: number,
  { perHour, quietMs }: BookingAlertRule,
) => recent > perHour && (lastAlertAt === undefined || now - lastAlertAt >= quietMs);

/** The enquiry as the store keeps it: spam without its call, so that it holds no time. */
export function storedForm(enquiry: NewEnquiry): NewEnquiry {
  if (!enquiry.spam || !enquiry.call) return enquiry;
  const { call, ...rest } = enquiry;
  return rest;
}

/** Who a booking may go to, in order: its hosts, or no host (null) when it names none. */
export const candidateHosts = (call: NonNullable<NewEnquiry['call']>): (string | null)[] =>
  call.hosts && call.hosts.length > 0 ? [...call.hosts] : [null];

/** One e-mail to queue: its kind, when it is due, and (a booked call's) what it is about. */
export interface QueuedMail extends QueuedJob<MailPayload> {
  kind: MailKind;
}

/** An e-mail of `kind` due at `dueAt`, about `call` as it is now. */
const mailAbout = (kind: MailKind, dueAt: number, call: MailCall): QueuedMail => ({
  kind,
  dueAt,
  payload: { call },
});

/** The reminders still ahead of a call at its time now, each to the prospect and (if any) its host. */
function reminderMails(call: MailCall, reminders: readonly number[], now: number): QueuedMail[] {
  return dueReminders(call.start, reminders, now).flatMap(({ minutes, dueAt }) => {
    const kinds: MailKind[] = [
      'prospect-reminder',
      ...(call.host ? (['host-reminder'] as const) : []),
    ];
    return kinds.map((kind) => mailAbout(kind, dueAt, { ...call, remindMinutes: minutes }));
  });
}

/**
 * The e-mails a stored enquiry queues: the agency's notice; for a booked call, the prospect's
 * confirmation, its host's invitation and the reminders still ahead.
 */
export function mailsOnCommit(enquiry: NewEnquiry, host: string | null, now: number): QueuedMail[] {
  const { call } = enquiry;
  if (!call) return [{ kind: 'agency', dueAt: now }];
  const about: MailCall = { sequence: 0, host, start: call.start, end: call.end };
  return [
    ...(['agency', 'prospect', ...(host ? (['host'] as const) : [])] as const).map((kind) =>
      mailAbout(kind, now, about),
    ),
    ...reminderMails(about, call.reminders ?? [], now),
  ];
}

/**
 * The e-mails a move queues (the call as it is now, `moved`): to the agency and the prospect, the
 * old and the new time; to the host, the update, or, if another host takes it, a cancellation to the
 * one who had it and an invitation to the one who has it now; and the new time's reminders.
 */
export function mailsOnMove(
  before: StoredCall,
  moved: StoredCall,
  reminders: readonly number[],
  now: number,
  change?: CallChange,
): QueuedMail[] {
  const previous = { start: before.start, end: before.end };
  const about: MailCall = {
    sequence: moved.sequence,
    host: moved.host,
    start: moved.start,
    end: moved.end,
    previous,
    ...(change && { change }),
  };
  const hostMails: QueuedMail[] =
    before.host === moved.host
      ? moved.host
        ? [mailAbout('host-move', now, about)]
        : []
      : [
          ...(before.host
            ? [mailAbout('host-cancel', now, { ...about, host: before.host, ...previous })]
            : []),
          ...(moved.host ? [mailAbout('host', now, about)] : []),
        ];
  return [
    mailAbout('agency-move', now, about),
    mailAbout('prospect-move', now, about),
    ...hostMails,
    ...reminderMails(
      { sequence: moved.sequence, host: moved.host, start: moved.start, end: moved.end },
      reminders,
      now,
    ),
  ];
}

/**
 * The e-mails that take a call out of every calendar (METHOD:CANCEL), as it is now: to the agency,
 * the prospect and its host; `-cancel` for a cancellation, `-lapse` for a call released unconfirmed.
 */
const withdrawals = (
  call: StoredCall,
  now: number,
  why: 'cancel' | 'lapse',
  change?: CallChange,
): QueuedMail[] => {
  const about: MailCall = {
    sequence: call.sequence,
    host: call.host,
    start: call.start,
    end: call.end,
    ...(change && { change }),
  };
  return (['agency', 'prospect', ...(call.host ? (['host'] as const) : [])] as const).map((who) =>
    mailAbout(`${who}-${why}`, now, about),
  );
};

/** The cancellations a cancelled call (as it is now) queues: to the agency, the prospect and its host. */
export const mailsOnCancel = (call: StoredCall, now: number, change?: CallChange) =>
  withdrawals(call, now, 'cancel', change);

/** The releases a call that lapsed unconfirmed (as it is now) queues: to the agency, the prospect and its host. */
export const mailsOnLapse = (call: StoredCall, now: number) => withdrawals(call, now, 'lapse');

/**
 * The e-mails about a call's earlier time, dropped unsent when it moves, is cancelled or lapses: the
 * confirmations, the invitations, the updates and the reminders; never the agency's notice of the
 * enquiry, nor a cancellation.
 */
export const SUPERSEDED_MAILS: readonly MailKind[] = [
  'prospect',
  'host',
  'agency-move',
  'prospect-move',
  'host-move',
  'prospect-reminder',
  'host-reminder',
];

/**
 * Why a call cannot be cancelled (or confirmed) at `now`, if it cannot: there is no such call, it
 * was released unconfirmed, it is cancelled already, or it has begun (an old link of a call moved
 * earlier is still signed until its old time).
 */
export function cancelRefusal(
  enquiry: StoredEnquiry | undefined,
  now: number,
): CancelRefusal | undefined {
  const call = enquiry?.call;
  if (!call) return 'unknown';
  if (call.lapsedAt) return 'lapsed';
  if (call.cancelledAt) return 'already-cancelled';
  if (Date.parse(call.start) <= now) return 'past';
  return undefined;
}

/**
 * Whether a call has changed since it was shown at `sequence` (a move or cancel raises it); none
 * given (the CLI's, a prospect's cancel link): not asked.
 */
const changedSince = (call: StoredCall, sequence: number | undefined) =>
  sequence !== undefined && sequence !== call.sequence;

/**
 * Whether a call may be cancelled at `now`, checked in the store's transaction: its refusal, or
 * the enquiry and its call as they are. `sequence`: the call's as the page asking showed it (the
 * desk's): a move since refuses the cancel ('used'), as it refuses a move.
 */
export function checkCancel(
  enquiry: StoredEnquiry | undefined,
  now: number,
  sequence?: number,
): { refused: Refused<CancelRefusal | 'used'> } | { enquiry: StoredEnquiry; before: StoredCall } {
  const refusal =
    cancelRefusal(enquiry, now) ?? (changedSince(enquiry!.call!, sequence) ? 'used' : undefined);
  if (refusal) return { refused: refusedCall(refusal, enquiry) };
  return { enquiry: enquiry!, before: enquiry!.call! };
}

/** A call cancelled at `now`, as the store writes it (StoreTx.cancelCall). */
export const cancelledCall = (before: StoredCall, now: number): StoredCall => ({
  ...before,
  cancelledAt: new Date(now).toISOString(),
  sequence: before.sequence + 1,
});

/** A call lapsed at `now`, as the store writes it (StoreTx.cancelCall, lapsed). */
export const lapsedCall = (before: StoredCall, now: number): StoredCall => ({
  ...cancelledCall(before, now),
  lapsedAt: new Date(now).toISOString(),
});

/**
 * The hosts a move may go to, in order: the call's own host first when it is free then (it stays),
 * then the others as offered.
 */
export function moveCandidates(current: string | null, offered: readonly string[]): string[] {
  return current !== null && offered.includes(current)
    ? [current, ...offered.filter((host) => host !== current)]
    : [...offered];
}

/** A move as asked: its new start (once chosen), the link's sequence and notice, the most moves. */
export interface MoveAsked {
  /** The new start; none while the change page only shows the times. */
  start?: string;
  /** The sequence the move was asked at (a change link's, the desk's page's); none: the CLI's, at any. */
  sequence?: number;
  maxMoves: number;
  /** A change link's: the notice period (availability.yaml's noticeHours) its moves respect. */
  noticeHours?: number;
}

/**
 * Why a call cannot be moved at `now`, if it cannot: there is no such call, it was released
 * unconfirmed, it is cancelled, it was moved since the link was made, the new time is the one it
 * has, it was moved `maxMoves` times already, or (a link's move) it is inside the notice period.
 * The change page asks before it offers times; the store's transaction again before any host is
 * looked at.
 */
export function moveRefusal(
  enquiry: StoredEnquiry | undefined,
  { start, sequence, maxMoves, noticeHours }: MoveAsked,
  now: number,
): MoveRefusal | undefined {
  const call = enquiry?.call;
  if (!call) return 'unknown';
  if (call.lapsedAt) return 'lapsed';
  if (call.cancelledAt) return 'already-cancelled';
  if (changedSince(call, sequence)) return 'used';
  // Accepted, it would send every calendar an update of nothing and use up one of the moves.
  if (start !== undefined && Date.parse(start) === Date.parse(call.start)) return 'same';
  if (call.moves >= maxMoves) return 'limit';
  if (noticeHours !== undefined && insideNotice(Date.parse(call.start) - now, noticeHours))
    return 'too-late';
  return undefined;
}

/**
 * Whether a call may be moved, checked under the store's lock before any host is looked at: its
 * refusal, or the enquiry and its call as they are.
 */
export function checkMove(
  enquiry: StoredEnquiry | undefined,
  move: CallMove,
  now: number,
): { refused: Refused<MoveRefusal> } | { enquiry: StoredEnquiry; before: StoredCall } {
  const refusal = moveRefusal(enquiry, move, now);
  if (refusal) return { refused: refusedCall(refusal, enquiry) };
  return { enquiry: enquiry!, before: enquiry!.call! };
}

/** A call moved to `host` at `now`, as the store writes it (StoreTx.moveCall), and the answer. */
export function movedCall(
  enquiry: StoredEnquiry,
  before: StoredCall,
  move: CallMove,
  host: string,
  now: number,
) {
  const movedBy: CallMover = move.change?.by ?? 'prospect';
  // A member's move is the staff's: a member named on another's move is not kept.
  const member = movedBy === 'staff' ? move.member : undefined;
  const { movedByMember: _, ...earlier } = before;
  const call = {
    ...earlier,
    start: move.start,
    end: move.end,
    host,
    sequence: before.sequence + 1,
    moves: before.moves + 1,
    movedFrom: before.start,
    movedBy,
    movedAt: new Date(now).toISOString(),
    ...(member && { movedByMember: member }),
  } satisfies StoredCall;
  const result: MoveResult = {
    status: 'moved',
    enquiry: { ...enquiry, call },
    previous: { start: before.start, end: before.end, host: before.host },
  };
  return { call, result };
}
