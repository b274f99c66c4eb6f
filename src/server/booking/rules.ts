/**
 * What booking decides, as pure code: the caps a booking may not go over, which host takes a call,
 * which refusals a move or a cancel meets, and which e-mails each queues (with the reminders
 * still ahead). ./calls.ts runs these inside the store's transactions, which only persist what
 * they decided; tests/unit/booking-rules.test.ts tries them without a database.
 */
import { clientNetwork, wideNetwork } from '../networks.ts';
import {
  BookingCapReached,
  type CallAhead,
  type CallChange,
  type CallMove,
  type CancelResult,
  type ConfirmResult,
  type MailCall,
  type MailKind,
  type MoveResult,
  type BookingAlertRule,
  type NewEnquiry,
  type QueuedJob,
  type StoredCall,
  type StoredEnquiry,
} from '../store/types.ts';

/** The caps on calls booked ahead: per e-mail address and per client, and per wider network. */
export interface BookingCaps {
  bookingCap: number;
  networkCap: number;
}

/**
 * The cap a booking would go over, given the calls booked ahead: its e-mail address's (in any
 * case), its client's (./networks.ts: an IPv6 client's /64) or its wider network's (an IPv4 /24,
 * an IPv6 /48); then, for a call not confirmed at once, the share of the offered window's times
 * that calls waiting for confirmation may hold (the call's `maxUnconfirmed`). Counted here rather
 * than in SQL so that both engines count networks alike.
 */
export function bookingCapReached(
  ahead: CallAhead[],
  enquiry: Pick<NewEnquiry, 'email' | 'clientIp' | 'call'>,
  { bookingCap, networkCap }: BookingCaps,
): BookingCapReached | undefined {
  const email = enquiry.email.toLowerCase();
  const client = clientNetwork(enquiry.clientIp);
  const wide = wideNetwork(enquiry.clientIp);
  const count = (same: (call: CallAhead) => boolean) => ahead.filter(same).length;
  if (count((call) => call.email.toLowerCase() === email) >= bookingCap)
    return new BookingCapReached('email', bookingCap);
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

/** What a confirmation came to, given the call as it is after the store confirmed it (`changed`) or not. */
export function confirmResult(
  enquiry: StoredEnquiry | undefined,
  changed: boolean,
  now: number,
): ConfirmResult {
  const call = enquiry?.call;
  if (!enquiry || !call) return { status: 'unknown' };
  if (changed) return { status: 'confirmed', enquiry };
  if (call.cancelledAt) return { status: 'cancelled', enquiry };
  if (!call.confirmedAt && Date.parse(call.start) <= now) return { status: 'past', enquiry };
  return { status: 'already', enquiry };
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
export interface QueuedMail extends QueuedJob {
  kind: MailKind;
  dueAt: number;
  call?: MailCall;
}

/**
 * How soon after a booking (or a move) a reminder must fall to be sent: one that would come sooner
 * is skipped, as the confirmation has just said the same.
 */
export const REMINDER_MIN_GAP_MS = 15 * 60_000;

/** The reminders of a call at its time now, each to the prospect and (if any) its host. */
function reminderMails(call: MailCall, reminders: readonly number[], now: number): QueuedMail[] {
  const start = Date.parse(call.start);
  return reminders.flatMap((minutes) => {
    const dueAt = start - minutes * 60_000;
    // A call booked (or moved) inside a reminder's window skips it: it is not sent late.
    if (dueAt < now + REMINDER_MIN_GAP_MS) return [];
    const kinds: MailKind[] = [
      'prospect-reminder',
      ...(call.host ? (['host-reminder'] as const) : []),
    ];
    return kinds.map((kind) => ({ kind, dueAt, call: { ...call, remindMinutes: minutes } }));
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
    ...(['agency', 'prospect', ...(host ? (['host'] as const) : [])] as const).map((kind) => ({
      kind,
      dueAt: now,
      call: about,
    })),
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
        ? [{ kind: 'host-move', dueAt: now, call: about }]
        : []
      : [
          ...(before.host
            ? [
                {
                  kind: 'host-cancel' as const,
                  dueAt: now,
                  call: { ...about, host: before.host, ...previous },
                },
              ]
            : []),
          ...(moved.host ? [{ kind: 'host' as const, dueAt: now, call: about }] : []),
        ];
  return [
    { kind: 'agency-move', dueAt: now, call: about },
    { kind: 'prospect-move', dueAt: now, call: about },
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
  return (['agency', 'prospect', ...(call.host ? (['host'] as const) : [])] as const).map(
    (who) => ({ kind: `${who}-${why}` as const, dueAt: now, call: about }),
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
 * Whether a call may be cancelled at `now`, checked in the store's transaction: refused when there
 * is no such call, it is cancelled (or lapsed) already, or it has begun (an old link of a call
 * moved earlier is still signed until its old time); else the enquiry and its call as they are.
 */
export function checkCancel(
  enquiry: StoredEnquiry | undefined,
  now: number,
): { refused: CancelResult } | { enquiry: StoredEnquiry; before: StoredCall } {
  const before = enquiry?.call;
  if (!enquiry || !before) return { refused: { status: 'unknown' } };
  if (before.cancelledAt) return { refused: { status: 'already', enquiry } };
  if (Date.parse(before.start) <= now) return { refused: { status: 'past', enquiry } };
  return { enquiry, before };
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

/**
 * Whether a call may be moved, checked under the store's lock before any host is looked at: refused
 * when there is no such call, it is cancelled (or lapsed), it was moved since the link was made
 * (`sequence`), the new time is the one it has, or it was moved `maxMoves` times already; else the
 * enquiry and its call as they are.
 */
export function checkMove(
  enquiry: StoredEnquiry | undefined,
  move: CallMove,
):
  | { refused: Exclude<MoveResult, { status: 'moved' }> }
  | { enquiry: StoredEnquiry; before: StoredCall } {
  const before = enquiry?.call;
  if (!enquiry || !before) return { refused: { status: 'unknown' } };
  if (before.cancelledAt) return { refused: { status: 'cancelled', enquiry } };
  if (move.sequence !== undefined && move.sequence !== before.sequence)
    return { refused: { status: 'stale', enquiry } };
  // Accepted, it would send every calendar an update of nothing and use up one of the moves.
  if (Date.parse(move.start) === Date.parse(before.start))
    return { refused: { status: 'same', enquiry } };
  if (before.moves >= move.maxMoves) return { refused: { status: 'limit', enquiry } };
  return { enquiry, before };
}

/** A call moved to `host`, as the store writes it (StoreTx.moveCall), and the answer. */
export function movedCall(
  enquiry: StoredEnquiry,
  before: StoredCall,
  move: CallMove,
  host: string,
) {
  const call: StoredCall = {
    ...before,
    start: move.start,
    end: move.end,
    host,
    sequence: before.sequence + 1,
    moves: before.moves + 1,
  };
  const result: MoveResult = {
    status: 'moved',
    enquiry: { ...enquiry, call },
    previous: { start: before.start, end: before.end, host: before.host },
  };
  return { call, result };
}
