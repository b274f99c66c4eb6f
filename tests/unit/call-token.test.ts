import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCallToken, signCallToken } from '../../src/server/call-token';

const secret = 'test-secret-0123456789abcdef';
const id = randomUUID();
// The call's start: the token is valid until then.
const expiresAt = Date.parse('2027-01-05T09:30:00Z');
const before = expiresAt - 60 * 60_000;
const token = signCallToken('change', id, 2, expiresAt, secret);

/** The token's four parts: id, sequence, expiry in seconds, signature. */
const parts = (t: string) => {
  const [tokenId, sequence, expires, signature] = t.split('.') as [string, string, string, string];
  return { tokenId, sequence, expires, signature };
};

describe('a call link token', () => {
  it('verifies to its id and sequence before its expiry', () => {
    expect(checkCallToken('change', token, secret, before)).toEqual({ ok: true, id, sequence: 2 });
    expect(checkCallToken('change', token, secret, expiresAt - 1000)).toMatchObject({ ok: true });
  });

  it('is expired from its expiry on', () => {
    for (const now of [expiresAt, expiresAt + 86_400_000])
      expect(checkCallToken('change', token, secret, now)).toEqual({
        ok: false,
        reason: 'expired',
      });
  });

  it('works for its own purpose only: a change link cancels nothing, and the other way round', () => {
    const cancel = signCallToken('cancel', id, 2, expiresAt, secret);
    expect(checkCallToken('cancel', cancel, secret, before)).toMatchObject({ ok: true });
    expect(checkCallToken('cancel', token, secret, before)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(checkCallToken('change', cancel, secret, before)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('confirms with a confirm link only: no cancel or change link confirms, and it neither cancels nor changes', () => {
    const confirm = signCallToken('confirm', id, 2, expiresAt, secret);
    expect(checkCallToken('confirm', confirm, secret, before)).toEqual({
      ok: true,
      id,
      sequence: 2,
    });
    expect(checkCallToken('confirm', confirm, secret, expiresAt)).toEqual({
      ok: false,
      reason: 'expired',
    });
    for (const purpose of ['cancel', 'change'] as const) {
      const other = signCallToken(purpose, id, 2, expiresAt, secret);
      expect(checkCallToken('confirm', other, secret, before)).toEqual({
        ok: false,
        reason: 'invalid',
      });
      expect(checkCallToken(purpose, confirm, secret, before)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
    // A link of the old form (no sequence) was only ever a cancel link.
    const { tokenId, expires, signature } = parts(confirm);
    expect(checkCallToken('confirm', `${tokenId}.${expires}.${signature}`, secret, before)).toEqual(
      { ok: false, reason: 'invalid' },
    );
  });

  it('is invalid with control characters or past any length a token has', () => {
    for (const hostile of [
      `${token}\u0000`,
      `${token.slice(0, 10)}\r\n${token.slice(10)}`,
      `${token}${'A'.repeat(100_000)}`,
      token.replace('.', '\u202e.'),
    ])
      expect(checkCallToken('confirm', hostile, secret, before)).toEqual({
        ok: false,
        reason: 'invalid',
      });
  });

  it('is invalid with one character of its signature changed', () => {
    const { tokenId, sequence, expires, signature } = parts(token);
    for (const at of [0, 20, signature.length - 1]) {
      // Another character of the base64url alphabet, so that only the signature check can catch it.
      const other = signature[at] === 'A' ? 'B' : 'A';
      const changed = signature.slice(0, at) + other + signature.slice(at + 1);
      expect(
        checkCallToken('change', `${tokenId}.${sequence}.${expires}.${changed}`, secret, before),
      ).toEqual({ ok: false, reason: 'invalid' });
    }
  });

  it('is invalid under a different secret', () => {
    expect(checkCallToken('change', token, 'another-secret', before)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('is invalid with its id, its sequence or its expiry changed', () => {
    const { tokenId, sequence, expires, signature } = parts(token);
    for (const changed of [
      `${randomUUID()}.${sequence}.${expires}.${signature}`,
      `${tokenId}.3.${expires}.${signature}`,
      `${tokenId}.${expires}.${signature}`,
      `${tokenId}.${sequence}.${Number(expires) + 3600}.${signature}`,
      // An expiry nobody signed is not reported as expired: it says nothing about the booking.
      `${tokenId}.${sequence}.${Number(expires) - 7200}.${signature}`,
    ])
      expect(checkCallToken('change', changed, secret, before)).toEqual({
        ok: false,
        reason: 'invalid',
      });
  });

  it('is invalid when it is not a token at all', () => {
    const { tokenId, sequence, expires, signature } = parts(token);
    for (const garbage of [
      '',
      'garbage',
      tokenId,
      `${tokenId}.${sequence}.${expires}`,
      `${token}.extra`,
      `${token}=`,
      `${tokenId}.${sequence}.-1.${signature}`,
      `${tokenId}.-1.${expires}.${signature}`,
      `${tokenId.toUpperCase()}.${sequence}.${expires}.${signature}`,
      ` ${token}`,
      `${token}\n`,
    ]) {
      expect(checkCallToken('change', garbage, secret, before)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });

  it('takes the cancel links sent before calls could move (no sequence), for cancelling only', () => {
    const expires = Math.floor(expiresAt / 1000);
    const signature = createHmac('sha256', secret)
      .update(`cancel-call:${id}:${expires}`)
      .digest('base64url');
    const legacy = `${id}.${expires}.${signature}`;
    expect(checkCallToken('cancel', legacy, secret, before)).toEqual({ ok: true, id });
    expect(checkCallToken('change', legacy, secret, before)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(checkCallToken('cancel', legacy, secret, expiresAt)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });
});
