/** SQL text and row helpers that both stores (./sqlite.ts, ./postgres.ts) share. */
import type { NewEnquiry, StoredEnquiry } from './types.ts';

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

/** An enquiry (in its storedForm) as stored just now: nothing mailed yet, a booked call not cancelled. */
export function justStored(enquiry: NewEnquiry, id: string, createdAt: string): StoredEnquiry {
  const { call, ...rest } = enquiry;
  return {
    ...rest,
    id,
    createdAt,
    mailedAt: null,
    mailAttempts: 0,
    mailFailure: null,
    ...(call && { call: { ...call, cancelledAt: null } }),
  };
}
