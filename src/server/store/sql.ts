/** SQL text and row helpers that both stores (./sqlite.ts, ./postgres.ts) share. */
import { clientNetwork, wideNetwork } from '../networks.ts';
import {
  BookingCapReached,
  type CallChange,
  type CallMove,
  type CancelResult,
  type ConfirmResult,
  type EnquiryKind,
  type MailCall,
  type MailKind,
  type MoveResult,
  type BookingAlertRule,
  type NewEnquiry,
  type StoredCall,
  type StoredEnquiry,
} from './types.ts';

/**
 * The calls booked ahead of an instant (not cancelled), whose e-mail address, client and
 * confirmation the caps count (SQL of both; `?` is the instant). Served by the unique index of
 * booked starts: the calls ahead are few, however many are stored.
 */
export const CALLS_AHEAD = `SELECT email, client_ip, call_confirmed_at FROM enquiries
  WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_start > ?`;

/** A call ahead as the caps count it (CALLS_AHEAD's row). */
export interface CallAhead {
  email: string;
  client_ip: string;
  call_confirmed_at: unknown;
}

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
 * than in SQL so that both stores count networks alike.
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
  if (count((call) => clientNetwork(call.client_ip) === client) >= bookingCap)
    return new BookingCapReached('client', bookingCap);
  if (count((call) => wideNetwork(call.client_ip) === wide) >= networkCap)
    return new BookingCapReached('network', networkCap);
  const maxUnconfirmed = enquiry.call?.maxUnconfirmed;
  if (
    maxUnconfirmed !== undefined &&
    !enquiry.call?.confirmed &&
    count((call) => call.call_confirmed_at === null) >= maxUnconfirmed
  )
    return new BookingCapReached('unconfirmed', maxUnconfirmed);
  return undefined;
}

/**
 * A call confirmed by its prospect, unless cancelled, lapsed or begun. Parameters: confirmed at, id,
 * now (an instant as the store writes a call's).
 */
export const CONFIRM_CALL = `UPDATE enquiries SET call_confirmed_at = ?
  WHERE id = ? AND call_start IS NOT NULL AND call_confirmed_at IS NULL
    AND call_cancelled_at IS NULL AND call_start > ?`;

/** What a confirmation came to, given the call as it is after CONFIRM_CALL `changed` it or not. */
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
 * How many calls were booked since an instant (spam holds none; cancelled ones count: they were
 * booked). Served by the index of enquiries' creation. Parameter: the instant (ISO).
 */
export const BOOKED_SINCE = `SELECT CAST(count(*) AS INTEGER) AS n FROM enquiries
  WHERE created_at > ? AND call_start IS NOT NULL`;

/** The last alert about the pace of bookings (epoch ms), kept in the store for every process. */
export const LAST_BOOKING_ALERT = `SELECT sent_at FROM site_alerts WHERE name = 'bookings'`;

/**
 * Claims the alert when there was none before: a row inserted (RETURNING one) by one caller only.
 * Parameter: now (epoch ms).
 */
export const FIRST_BOOKING_ALERT = `INSERT INTO site_alerts (name, sent_at) VALUES ('bookings', ?)
  ON CONFLICT (name) DO NOTHING RETURNING sent_at`;

/**
 * Claims the alert over the last one read (compare and set): of processes that read the same last
 * alert, one changes the row. Parameters: now, the last alert read.
 */
export const NEXT_BOOKING_ALERT = `UPDATE site_alerts SET sent_at = ?
  WHERE name = 'bookings' AND sent_at = ? RETURNING sent_at`;

/** The site_alerts table of both stores: one row per kind of alert, the last time it went. */
export const SITE_ALERTS_TABLE = `CREATE TABLE site_alerts (
     name TEXT PRIMARY KEY,
     sent_at BIGINT NOT NULL
   );`;

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

/**
 * Both stores' query for enquiries, with the delivery of the agency's e-mail about each, the first
 * e-mail that failed for good, and how many of its e-mails went, wait (reminders ahead included) or
 * failed (SQL of both).
 */
export const SELECT_ENQUIRIES = `SELECT e.*, o.sent_at, o.attempts,
    (SELECT f.mail || ': ' || coalesce(f.last_error, '') FROM outbox f
      WHERE f.enquiry_id = e.id AND f.undeliverable_at IS NOT NULL ORDER BY f.id LIMIT 1)
      AS mail_failure,
    (SELECT CAST(count(*) AS INTEGER) FROM outbox m
      WHERE m.enquiry_id = e.id AND m.sent_at IS NOT NULL) AS mails_sent,
    (SELECT CAST(count(*) AS INTEGER) FROM outbox m
      WHERE m.enquiry_id = e.id AND m.sent_at IS NULL AND m.undeliverable_at IS NULL
        AND m.skipped_at IS NULL) AS mails_waiting,
    (SELECT CAST(count(*) AS INTEGER) FROM outbox m
      WHERE m.enquiry_id = e.id AND m.undeliverable_at IS NOT NULL) AS mails_failed
  FROM enquiries e
  LEFT JOIN outbox o ON o.enquiry_id = e.id AND o.mail = 'agency'`;

/** SELECT_ENQUIRIES's counts of e-mails, read back (absent from queries without them). */
export interface MailCountColumns {
  mails_sent?: number;
  mails_waiting?: number;
  mails_failed?: number;
}

/** An enquiry's e-mails, counted: sent, waiting (reminders ahead too), failed for good. */
export const mailCountsOf = (row: MailCountColumns) =>
  row.mails_sent === undefined
    ? {}
    : {
        mails: {
          sent: Number(row.mails_sent),
          waiting: Number(row.mails_waiting),
          failed: Number(row.mails_failed),
        },
      };

/**
 * SELECT_ENQUIRIES's row as either engine's driver gives it: SQLite's text, numbers and 0/1,
 * PostgreSQL's Dates, booleans, JSON and BIGINT strings.
 */
export type EnquiryRow = object & MailCountColumns;

/** An instant as text: a Date (PostgreSQL's timestamptz) to ISO, text (SQLite's) as it is. */
const isoOrNull = (value: unknown) =>
  value === null || value === undefined
    ? null
    : value instanceof Date
      ? value.toISOString()
      : String(value);
/** A call's instant as the site writes it, to the second: '2027-01-05T09:30:00Z'. */
export const callInstant = (value: unknown) =>
  value instanceof Date ? value.toISOString().replace(/\.000Z$/, 'Z') : String(value);

/** An enquiry read back, from either engine's row. */
export function fromRow(read: EnquiryRow): StoredEnquiry {
  const row = read as Record<string, unknown> & MailCountColumns;
  const key = row.idempotency_key as string | null;
  return {
    id: row.id as string,
    kind: row.kind as EnquiryKind,
    createdAt: isoOrNull(row.created_at)!,
    name: row.name as string,
    email: row.email as string,
    data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as StoredEnquiry['data'],
    clientIp: row.client_ip as string,
    userAgent: row.user_agent as string,
    spam: row.spam === true || row.spam === 1,
    ...(key === null ? {} : { idempotencyKey: key }),
    ...(row.call_start !== null && {
      call: {
        start: callInstant(row.call_start),
        end: callInstant(row.call_end),
        cancelledAt: isoOrNull(row.call_cancelled_at),
        host: row.call_host as string | null,
        sequence: Number(row.call_sequence),
        moves: Number(row.call_moves),
        confirmedAt: isoOrNull(row.call_confirmed_at),
        lapsedAt: isoOrNull(row.call_lapsed_at),
      },
    }),
    mailedAt: row.sent_at === null ? null : new Date(Number(row.sent_at)).toISOString(),
    mailAttempts: Number(row.attempts ?? 0),
    mailFailure: (row.mail_failure as string | null | undefined) ?? null,
    ...mailCountsOf(row),
  };
}

/** The enquiry as the stores keep it: spam without its call, so that it holds no time. */
export function storedForm(enquiry: NewEnquiry): NewEnquiry {
  if (!enquiry.spam || !enquiry.call) return enquiry;
  const { call, ...rest } = enquiry;
  return rest;
}

/**
 * An enquiry (in its storedForm) as stored just now, its call with `host`: nothing mailed yet, a
 * booked call not cancelled.
 */
export function justStored(
  enquiry: NewEnquiry,
  id: string,
  createdAt: string,
  host: string | null = null,
): StoredEnquiry {
  const { call, ...rest } = enquiry;
  return {
    ...rest,
    id,
    createdAt,
    mailedAt: null,
    mailAttempts: 0,
    mailFailure: null,
    ...(call && {
      call: {
        start: call.start,
        end: call.end,
        cancelledAt: null,
        host,
        sequence: 0,
        moves: 0,
        confirmedAt: call.confirmed ? createdAt : null,
        lapsedAt: null,
      },
    }),
  };
}

/** A booking's call_confirmed_at as stored: when it was booked, if confirmed at once. */
export const confirmedAtOf = (enquiry: NewEnquiry, createdAt: string) =>
  enquiry.call?.confirmed ? createdAt : null;

/**
 * Whether a host has a call (or a call of no host holds them) that overlaps [start, end); a host of
 * null: whether any call does. Parameters: end, start, host, host. Both stores' SQL (`?`
 * placeholders; PostgreSQL's through `numbered`).
 */
export const HOST_HAS_CALL = `SELECT 1 FROM enquiries
  WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_start < ? AND call_end > ?
    AND (call_host IS NULL OR call_host = ? OR CAST(? AS TEXT) IS NULL)
  LIMIT 1`;

/** The calls booked that overlap an interval, with their hosts. Parameters: from, to. */
export const BOOKED_BETWEEN = `SELECT id, call_start AS start, call_end AS end, call_host AS host
  FROM enquiries
  WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_end > ? AND call_start < ?
  ORDER BY call_start`;

/** SQL written with `?` placeholders, numbered for PostgreSQL ($1, $2, …). */
export const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** Who a booking may go to, in order: its hosts, or no host (null) when it names none. */
export const candidateHosts = (call: NonNullable<NewEnquiry['call']>): (string | null)[] =>
  call.hosts && call.hosts.length > 0 ? [...call.hosts] : [null];

/** One e-mail to queue: its kind, when it is due, and (a booked call's) what it is about. */
export interface QueuedMail {
  mail: MailKind;
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
    return kinds.map((mail) => ({ mail, dueAt, call: { ...call, remindMinutes: minutes } }));
  });
}

/**
 * The e-mails a stored enquiry queues: the agency's notice; for a booked call, the prospect's
 * confirmation, its host's invitation and the reminders still ahead.
 */
export function mailsOnCommit(enquiry: NewEnquiry, host: string | null, now: number): QueuedMail[] {
  const { call } = enquiry;
  if (!call) return [{ mail: 'agency', dueAt: now }];
  const about: MailCall = { sequence: 0, host, start: call.start, end: call.end };
  return [
    ...(['agency', 'prospect', ...(host ? (['host'] as const) : [])] as const).map((mail) => ({
      mail,
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
        ? [{ mail: 'host-move', dueAt: now, call: about }]
        : []
      : [
          ...(before.host
            ? [
                {
                  mail: 'host-cancel' as const,
                  dueAt: now,
                  call: { ...about, host: before.host, ...previous },
                },
              ]
            : []),
          ...(moved.host ? [{ mail: 'host' as const, dueAt: now, call: about }] : []),
        ];
  return [
    { mail: 'agency-move', dueAt: now, call: about },
    { mail: 'prospect-move', dueAt: now, call: about },
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
    (who) => ({ mail: `${who}-${why}` as const, dueAt: now, call: about }),
  );
};

/** The cancellations a cancelled call (as it is now) queues: to the agency, the prospect and its host. */
export const mailsOnCancel = (call: StoredCall, now: number, change?: CallChange) =>
  withdrawals(call, now, 'cancel', change);

/** The releases a call that lapsed unconfirmed (as it is now) queues: to the agency, the prospect and its host. */
export const mailsOnLapse = (call: StoredCall, now: number) => withdrawals(call, now, 'lapse');

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

/** A call cancelled at `now`, as CANCEL_CALL writes it. */
export const cancelledCall = (before: StoredCall, now: number): StoredCall => ({
  ...before,
  cancelledAt: new Date(now).toISOString(),
  sequence: before.sequence + 1,
});

/**
 * The calls that lapse at `now`: booked at the cutoff (`now` less BOOKING_CONFIRM_MINUTES) or
 * before, still waiting for their prospect's confirmation, and not begun (a call booked inside
 * the time allowed keeps its time: there is no one to give it to then), oldest first. Served by
 * the partial index of calls waiting for confirmation. Parameters: cutoff (as created_at is
 * written), now (as call_start is), limit.
 */
export const UNCONFIRMED_DUE = `SELECT id FROM enquiries
  WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_confirmed_at IS NULL
    AND created_at <= ? AND call_start > ?
  ORDER BY created_at LIMIT ?`;

/**
 * A call released unconfirmed: cancelled and lapsed at one instant (its time free, as a cancelled
 * call's), its sequence one up for the calendars' CANCEL; only if it still waits. Parameters:
 * lapsed at, lapsed at, id.
 */
export const LAPSE_CALL = `UPDATE enquiries SET call_cancelled_at = ?, call_lapsed_at = ?,
    call_sequence = call_sequence + 1
  WHERE id = ? AND call_cancelled_at IS NULL AND call_confirmed_at IS NULL`;

/** A call lapsed at `now`, as LAPSE_CALL writes it. */
export const lapsedCall = (before: StoredCall, now: number): StoredCall => ({
  ...cancelledCall(before, now),
  lapsedAt: new Date(now).toISOString(),
});

/** An outbox entry of both stores. Parameters: QUEUED_MAIL_PARAMETERS of an enquiry's id and a mail. */
export const INSERT_OUTBOX = `INSERT INTO outbox (enquiry_id, mail, next_attempt_at, sequence,
    remind_minutes, host, start_at, end_at, previous_start_at, previous_end_at, changed_by,
    change_reason)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** INSERT_OUTBOX's parameters for one e-mail. */
export const queuedMailParameters = (enquiryId: string, { mail, dueAt, call }: QueuedMail) => [
  enquiryId,
  mail,
  dueAt,
  call?.sequence ?? 0,
  call?.remindMinutes ?? 0,
  call?.host ?? null,
  call?.start ?? null,
  call?.end ?? null,
  call?.previous?.start ?? null,
  call?.previous?.end ?? null,
  call?.change?.by ?? null,
  call?.change?.reason ?? null,
];

/**
 * The e-mails about a call's earlier time that are not sent yet: dropped when it moves or is
 * cancelled (the confirmations, the invitations, the updates and the reminders; never the agency's
 * notice of the enquiry, nor a cancellation). Parameters: skipped at, reason, enquiry id.
 */
export const SKIP_SUPERSEDED = `UPDATE outbox SET skipped_at = ?, last_error = ?, leased_until = NULL
  WHERE enquiry_id = ? AND sent_at IS NULL AND undeliverable_at IS NULL AND skipped_at IS NULL
    AND mail IN ('prospect', 'host', 'agency-move', 'prospect-move', 'host-move',
      'prospect-reminder', 'host-reminder')`;

/**
 * Whether a host has a call other than enquiry `id`'s (or a call of no host holds them) that overlaps
 * [start, end). Parameters: end, start, host, id.
 */
export const HOST_HAS_OTHER_CALL = `SELECT 1 FROM enquiries
  WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_start < ? AND call_end > ?
    AND (call_host IS NULL OR call_host = ?) AND id <> ?
  LIMIT 1`;

/** A call moved: its time, host, sequence and moves. Parameters: start, end, host, id. */
export const MOVE_CALL = `UPDATE enquiries SET call_start = ?, call_end = ?, call_host = ?,
    call_sequence = call_sequence + 1, call_moves = call_moves + 1
  WHERE id = ?`;

/** A call cancelled. Parameters: cancelled at, id. */
export const CANCEL_CALL = `UPDATE enquiries SET call_cancelled_at = ?, call_sequence = call_sequence + 1
  WHERE id = ? AND call_cancelled_at IS NULL`;

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

/** A call moved to `host`, as MOVE_CALL writes it, and the store's answer. */
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

/**
 * The mail kinds the outbox table takes (its CHECK), in both engines: MAIL_KINDS as the migration that
 * added the host's e-mails wrote it (a migration never changes once run: a new kind needs another).
 */
export const MAIL_KINDS_CHECK = `mail IN ('agency', 'prospect', 'host', 'agency-cancel', 'prospect-cancel', 'host-cancel')`;

/** The mail kinds once calls could be moved and were reminded (the migrations that added them). */
export const MAIL_KINDS_CHECK_MOVES = `mail IN ('agency', 'prospect', 'host', 'agency-cancel',
  'prospect-cancel', 'host-cancel', 'agency-move', 'prospect-move', 'host-move',
  'prospect-reminder', 'host-reminder')`;

/** The mail kinds once calls lapsed unconfirmed (the migrations that added the releases). */
export const MAIL_KINDS_CHECK_LAPSES = `mail IN ('agency', 'prospect', 'host', 'agency-cancel',
  'prospect-cancel', 'host-cancel', 'agency-move', 'prospect-move', 'host-move',
  'prospect-reminder', 'host-reminder', 'agency-lapse', 'prospect-lapse', 'host-lapse')`;

/** An outbox row's snapshot columns (QueuedMail's call), read back. */
export interface MailCallColumns {
  sequence: number;
  remind_minutes: number;
  host: string | null;
  start_at: string | null;
  end_at: string | null;
  previous_start_at: string | null;
  previous_end_at: string | null;
  changed_by: string | null;
  change_reason: string | null;
}

/** What an outbox row's e-mail is about; none for an enquiry's notice (no call then). */
export function mailCallOf(row: MailCallColumns): MailCall | undefined {
  if (row.start_at === null || row.end_at === null) return undefined;
  return {
    sequence: Number(row.sequence),
    host: row.host,
    start: row.start_at,
    end: row.end_at,
    ...(row.previous_start_at !== null &&
      row.previous_end_at !== null && {
        previous: { start: row.previous_start_at, end: row.previous_end_at },
      }),
    ...(Number(row.remind_minutes) > 0 && { remindMinutes: Number(row.remind_minutes) }),
    ...(row.changed_by === 'staff' && {
      change: { by: 'staff', ...(row.change_reason && { reason: row.change_reason }) },
    }),
  };
}
