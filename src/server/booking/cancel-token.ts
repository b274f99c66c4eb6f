/**
 * The cancel link of a booked call: `<enquiry id>.<expiry>.<HMAC-SHA256>`, signed with
 * BOOKING_SECRET and valid until the call starts. Nothing is stored: the signature is the proof, and
 * the booking itself says whether it was cancelled already.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const signature = (id: string, expires: number, secret: string) =>
  createHmac('sha256', secret).update(`cancel-call:${id}:${expires}`).digest('base64url');

/** A token for cancelling the call of enquiry `id`, valid until `expiresAt` (ms since the epoch). */
export function signCancelToken(id: string, expiresAt: number, secret: string): string {
  const expires = Math.floor(expiresAt / 1000);
  return `${id}.${expires}.${signature(id, expires, secret)}`;
}

export type TokenCheck = { ok: true; id: string } | { ok: false; reason: 'invalid' | 'expired' };

export function checkCancelToken(token: string, secret: string, now = Date.now()): TokenCheck {
  const match = /^([0-9a-f-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: 'invalid' };
  const [, id, expiresText, given] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(signature(id, Number(expiresText), secret));
  if (!timingSafeEqual(expected, Buffer.from(given))) return { ok: false, reason: 'invalid' };
  // Checked after the signature, so that an expiry nobody signed says nothing about the booking.
  if (Number(expiresText) * 1000 <= now) return { ok: false, reason: 'expired' };
  return { ok: true, id };
}
