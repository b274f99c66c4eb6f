/** SQL text and row helpers that both stores (./sqlite.ts, ./postgres.ts) share. */
import type { MailKind, NewEnquiry, StoredEnquiry } from './types.ts';

/** Both stores' query for enquiries, with the delivery of the agency's e-mail about each (SQL of both). */
export const SELECT_ENQUIRIES = `SELECT e.*, o.sent_at, o.attempts,
    (SELECT f.mail || ': ' || coalesce(f.last_error, '') FROM outbox f
      WHERE f.enquiry_id = e.id AND f.undeliverable_at IS NOT NULL ORDER BY f.id LIMIT 1)
      AS mail_failure
  FROM enquiries e
  LEFT JOIN outbox o ON o.enquiry_id = e.id AND o.mail = 'agency'`;

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
    ...(call && { call: { start: call.start, end: call.end, cancelledAt: null, host } }),
  };
}

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
export const BOOKED_BETWEEN = `SELECT call_start AS start, call_end AS end, call_host AS host
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

/** The e-mails a stored enquiry queues: the agency's; a booked call's, the prospect's and its host's. */
export const mailsOnCommit = (enquiry: NewEnquiry, host: string | null): MailKind[] =>
  enquiry.call ? ['agency', 'prospect', ...(host ? (['host'] as const) : [])] : ['agency'];

/** The cancellations a cancelled call queues: to the agency, the prospect and its host. */
export const mailsOnCancel = (enquiry: StoredEnquiry): MailKind[] => [
  'agency-cancel',
  'prospect-cancel',
  ...(enquiry.call?.host ? (['host-cancel'] as const) : []),
];

/**
 * The mail kinds the outbox table takes (its CHECK), in both engines: MAIL_KINDS as the migration that
 * added the host's e-mails wrote it (a migration never changes once run: a new kind needs another).
 */
export const MAIL_KINDS_CHECK = `mail IN ('agency', 'prospect', 'host', 'agency-cancel', 'prospect-cancel', 'host-cancel')`;
