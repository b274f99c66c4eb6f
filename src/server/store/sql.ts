/**
 * The store's rows: the query that reads enquiries, and what either engine's driver gives back
 * turned into the site's records (SQLite's text, numbers and 0/1; PostgreSQL's Dates, booleans,
 * JSON and BIGINT strings).
 */
import type { CallMover, EnquiryKind, NewEnquiry, StoredEnquiry } from './types.ts';

/**
 * Both stores' query for enquiries, with the delivery of the agency's e-mail about each (its job of
 * kind 'agency'), the first of its jobs that failed for good, and how many of its jobs (its e-mails)
 * are done, wait (reminders ahead included) or failed (SQL of both).
 */
export const SELECT_ENQUIRIES = `SELECT e.*, j.done_at, j.attempts,
    (SELECT f.kind || ': ' || coalesce(f.last_error, '') FROM jobs f
      WHERE f.enquiry_id = e.id AND f.failed_at IS NOT NULL ORDER BY f.id LIMIT 1)
      AS mail_failure,
    (SELECT CAST(count(*) AS INTEGER) FROM jobs m
      WHERE m.enquiry_id = e.id AND m.done_at IS NOT NULL) AS mails_sent,
    (SELECT CAST(count(*) AS INTEGER) FROM jobs m
      WHERE m.enquiry_id = e.id AND m.done_at IS NULL AND m.failed_at IS NULL
        AND m.skipped_at IS NULL) AS mails_waiting,
    (SELECT CAST(count(*) AS INTEGER) FROM jobs m
      WHERE m.enquiry_id = e.id AND m.failed_at IS NOT NULL) AS mails_failed
  FROM enquiries e
  LEFT JOIN jobs j ON j.enquiry_id = e.id AND j.kind = 'agency'`;

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

/** How a call ended, as the desk recorded it: who cancelled it and why, held or a no-show. */
const callEnd = (row: Record<string, unknown>) => ({
  ...(typeof row.call_cancelled_by === 'string' && { cancelledBy: row.call_cancelled_by }),
  ...(typeof row.call_cancel_reason === 'string' && { cancelReason: row.call_cancel_reason }),
  ...(row.call_outcome !== null &&
    row.call_outcome !== undefined && {
      outcome: {
        kind: row.call_outcome as 'held' | 'no-show',
        by: row.call_outcome_by as string,
        at: new Date(Number(row.call_outcome_at)).toISOString(),
      },
    }),
  // Unmarked: who took the mark off, and when (an Unmark before this was kept left neither).
  ...(row.call_outcome == null &&
    typeof row.call_outcome_by === 'string' && {
      unmarked: {
        by: row.call_outcome_by,
        at: new Date(Number(row.call_outcome_at)).toISOString(),
      },
    }),
});

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
        ...(row.call_moved_from != null && { movedFrom: callInstant(row.call_moved_from) }),
        ...(row.call_moved_by != null && { movedBy: row.call_moved_by as CallMover }),
        ...(row.call_moved_at != null && {
          movedAt: new Date(Number(row.call_moved_at)).toISOString(),
        }),
        ...(typeof row.call_moved_by_member === 'string' && {
          movedByMember: row.call_moved_by_member,
        }),
        ...callEnd(row),
      },
    }),
    mailedAt: row.done_at === null ? null : new Date(Number(row.done_at)).toISOString(),
    mailAttempts: Number(row.attempts ?? 0),
    mailFailure: (row.mail_failure as string | null | undefined) ?? null,
    ...mailCountsOf(row),
    ...(row.handled_at !== null &&
      row.handled_at !== undefined && {
        handled: {
          at: new Date(Number(row.handled_at)).toISOString(),
          by: row.handled_by as string,
        },
      }),
  };
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

/** SQL written with `?` placeholders, numbered for PostgreSQL ($1, $2, …). */
export const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};
