/**
 * The links of a booked call's e-mails: cancel it (/schedule/cancel), change its time
 * (/schedule/change) and confirm it (/schedule/confirm), and the page a booking lands on
 * (/schedule/booked), each `<enquiry id>.<sequence>.<expiry>.<HMAC-SHA256>`, signed with
 * BOOKING_SECRET for its purpose, so that one kind of link never works as the other. The sequence is
 * the call's as the e-mail was made: a change link works once (the move raises the sequence, and the
 * next e-mail carries the next link). Valid until the call starts. Nothing is stored: the signature
 * is the proof, and the booking says whether the link was used.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { endpoints } from '../domain/api.ts';

export type CallLinkPurpose = 'cancel' | 'change' | 'confirm' | 'booked';

const signature = (payload: string, secret: string) =>
  createHmac('sha256', secret).update(payload).digest('base64url');

const payload = (purpose: CallLinkPurpose, id: string, sequence: number, expires: number) =>
  `${purpose}-call:${id}:${sequence}:${expires}`;

/** A link's token for the call of enquiry `id` at `sequence`, valid until `expiresAt` (epoch ms). */
export function signCallToken(
  purpose: CallLinkPurpose,
  id: string,
  sequence: number,
  expiresAt: number,
  secret: string,
): string {
  const expires = Math.floor(expiresAt / 1000);
  return `${id}.${sequence}.${expires}.${signature(payload(purpose, id, sequence, expires), secret)}`;
}

export type TokenCheck =
  | {
      ok: true;
      id: string;
      /** undefined: a cancel link made before calls could move. */ sequence?: number;
    }
  | { ok: false; reason: 'invalid' | 'expired' };

const same = (expected: string, given: string) =>
  expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));

export function checkCallToken(
  purpose: CallLinkPurpose,
  token: string,
  secret: string,
  now = Date.now(),
): TokenCheck {
  const match = /^([0-9a-f-]{36})\.(?:(\d{1,6})\.)?(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  const [, id, sequenceText, expiresText, given] = match as unknown as [
    string,
    string,
    string | undefined,
    string,
    string,
  ];
  const expires = Number(expiresText);
  // The cancel links sent before calls could move (no sequence) keep working.
  const expected =
    sequenceText === undefined
      ? purpose === 'cancel'
        ? signature(`cancel-call:${id}:${expires}`, secret)
        : ''
      : signature(payload(purpose, id, Number(sequenceText), expires), secret);
  if (!same(expected, given)) return { ok: false, reason: 'invalid' };
  // Checked after the signature, so that an expiry nobody signed says nothing about the booking.
  if (expires * 1000 <= now) return { ok: false, reason: 'expired' };
  return { ok: true, id, ...(sequenceText !== undefined && { sequence: Number(sequenceText) }) };
}

/** A booked call's change and cancel links, as paths of the site. */
export interface CallLinks {
  change: string;
  cancel: string;
}

/**
 * The change and cancel links of the call of enquiry `id` at `sequence`, starting at `start` (an
 * ISO instant), as paths of the site: the e-mails put the site's address before them.
 */
export function callLinkPaths(
  id: string,
  sequence: number,
  start: string,
  secret: string,
): CallLinks {
  const link = (purpose: CallLinkPurpose) =>
    `/schedule/${purpose}?token=${signCallToken(purpose, id, sequence, Date.parse(start), secret)}`;
  return { change: link('change'), cancel: link('cancel') };
}

/** The confirm link of the call of enquiry `id` at `sequence`, starting at `start`, as a path. */
export const confirmLinkPath = (id: string, sequence: number, start: string, secret: string) =>
  `/schedule/confirm?token=${signCallToken('confirm', id, sequence, Date.parse(start), secret)}`;

/**
 * The booked page of the call of enquiry `id` (where a booking lands), as a path: signed for its own
 * purpose, so that the call's id alone opens no page of it (with e-mail off, that page shows the
 * call's change and cancel links). Valid until the call starts, as the links it shows.
 */
export const bookedPagePath = (id: string, sequence: number, start: string, secret: string) =>
  `${endpoints.booked}?token=${signCallToken('booked', id, sequence, Date.parse(start), secret)}`;
