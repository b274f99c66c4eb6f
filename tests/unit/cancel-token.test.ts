import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCancelToken, signCancelToken } from '../../src/server/booking/cancel-token';

const secret = 'test-secret-0123456789abcdef';
const id = randomUUID();
// The call's start: the token is valid until then.
const expiresAt = Date.parse('2027-01-05T09:30:00Z');
const before = expiresAt - 60 * 60_000;
const token = signCancelToken(id, expiresAt, secret);

/** The token's three parts: id, expiry in seconds, signature. */
const parts = (t: string) => {
  const [tokenId, expires, signature] = t.split('.') as [string, string, string];
  return { tokenId, expires, signature };
};

describe('a cancel token', () => {
  it('verifies to its id before its expiry', () => {
    expect(checkCancelToken(token, secret, before)).toEqual({ ok: true, id });
    expect(checkCancelToken(token, secret, expiresAt - 1000)).toEqual({ ok: true, id });
  });

  it('is expired from its expiry on', () => {
    expect(checkCancelToken(token, secret, expiresAt)).toEqual({ ok: false, reason: 'expired' });
    expect(checkCancelToken(token, secret, expiresAt + 86_400_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('is invalid with one character of its signature changed', () => {
    const { tokenId, expires, signature } = parts(token);
    for (const at of [0, 20, signature.length - 1]) {
      // Another character of the base64url alphabet, so that only the signature check can catch it.
      const other = signature[at] === 'A' ? 'B' : 'A';
      const changed = signature.slice(0, at) + other + signature.slice(at + 1);
      expect(checkCancelToken(`${tokenId}.${expires}.${changed}`, secret, before)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('is invalid under a different secret', () => {
    expect(checkCancelToken(token, 'another-secret', before)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('is invalid with its id changed', () => {
    const { expires, signature } = parts(token);
    expect(checkCancelToken(`${randomUUID()}.${expires}.${signature}`, secret, before)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('is invalid with its expiry changed, later or earlier', () => {
    const { tokenId, expires, signature } = parts(token);
    const later = `${tokenId}.${Number(expires) + 3600}.${signature}`;
    expect(checkCancelToken(later, secret, before)).toEqual({ ok: false, reason: 'invalid' });
    // An expiry nobody signed is not reported as expired: it says nothing about the booking.
    const earlier = `${tokenId}.${Number(expires) - 7200}.${signature}`;
    expect(checkCancelToken(earlier, secret, before)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('is invalid when it is not a token at all', () => {
    const { tokenId, expires, signature } = parts(token);
    for (const garbage of [
      '',
      'garbage',
      tokenId,
      `${tokenId}.${expires}`,
      `${tokenId}.${expires}.${signature}.extra`,
      `${tokenId}.${expires}.${signature}=`,
      `${tokenId}.-1.${signature}`,
      `${tokenId.toUpperCase()}.${expires}.${signature}`,
      ` ${token}`,
    ]) {
      expect(checkCancelToken(garbage, secret, before)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});
