/**
 * The staff desk's records on both engines: a sign-in link used once and not after it expires, of
 * two uses at once one signs in; sessions idle, too old or ended are gone; passkeys and their
 * counters; the audit log newest first; an enquiry handled and new again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EnquiryStore } from '../../src/server/store/types';
import { enquiry } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

const now = Date.parse('2027-01-05T09:00:00Z');
const minute = 60_000;

describe.each(Object.keys(backends) as (keyof typeof backends)[])('staff records on %s', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  beforeEach(async () => {
    backend = await backends[kind]();
    store = backend.store;
  });
  afterEach(() => backend.cleanup());

  it('use a link once, before it expires, whichever process uses it', async () => {
    await store.staff.addLink('link-1', 'anna@a.example', now, 15 * minute);
    expect(await store.staff.checkLink('link-1', now + minute)).toEqual({
      email: 'anna@a.example',
    });
    const other = await backend.open();
    const uses = await Promise.all([
      store.staff.useLink('link-1', now + minute),
      other.staff.useLink('link-1', now + minute),
    ]);
    expect(uses.filter((use) => 'email' in use)).toHaveLength(1);
    expect(uses.filter((use) => 'refused' in use)).toEqual([{ refused: 'used' }]);
    await store.staff.addLink('link-2', 'anna@a.example', now, 15 * minute);
    expect(await store.staff.useLink('link-2', now + 15 * minute)).toEqual({ refused: 'expired' });
    expect(await store.staff.useLink('nope', now)).toEqual({ refused: 'unknown' });
    expect(await store.staff.linksSince('anna@a.example', now - 1)).toBe(2);
  });

  it('keep a session while it is used, and end it idle, too old, or signed out', async () => {
    const idle = 120 * minute;
    const max = 12 * 60 * minute;
    await store.staff.startSession('hash-1', 'anna@a.example', now);
    expect(await store.staff.session('hash-1', now + 119 * minute, idle, max)).toMatchObject({
      email: 'anna@a.example',
    });
    // Seen at +119 minutes: alive until +239.
    expect(await store.staff.session('hash-1', now + 238 * minute, idle, max)).toBeDefined();
    expect(await store.staff.session('hash-1', now + 12 * 60 * minute, idle, max)).toBeUndefined();
    await store.staff.startSession('hash-2', 'ben@a.example', now);
    await store.staff.endSession('hash-2', now + minute);
    expect(await store.staff.session('hash-2', now + minute, idle, max)).toBeUndefined();
    expect(await store.staff.session('unknown', now, idle, max)).toBeUndefined();
  });

  it('keep passkeys and their counters, the audit log newest first, and who handled an enquiry', async () => {
    const passkey = {
      id: 'cred-1',
      email: 'anna@a.example',
      publicKey: 'pQECAyYgASFYIA',
      counter: 0,
      transports: ['internal', 'hybrid'],
    };
    await store.staff.addPasskey(passkey, now);
    await store.staff.usePasskey('cred-1', 7, now + minute);
    expect(await store.staff.passkey('cred-1')).toEqual({ ...passkey, counter: 7 });
    expect(await store.staff.passkeysOf('ben@a.example')).toEqual([]);
    for (const [i, action] of ['signed in', 'marked handled', 'signed out'].entries())
      await store.staff.audit({
        at: now + i,
        actor: 'anna@a.example',
        action,
        subject: null,
        detail: null,
      });
    expect((await store.staff.recentAudit(2)).map((line) => line.action)).toEqual([
      'signed out',
      'marked handled',
    ]);
    const stored = await backend.bookings.commit(enquiry(), false);
    expect(await store.staff.markHandled(stored.id, 'anna@a.example', now)).toBe(true);
    expect((await store.findById(stored.id))?.handled).toEqual({
      at: new Date(now).toISOString(),
      by: 'anna@a.example',
    });
    await store.staff.markHandled(stored.id, null, now);
    expect((await store.findById(stored.id))?.handled).toBeUndefined();
    expect(await store.staff.markHandled('no-such-enquiry', 'anna@a.example', now)).toBe(false);
  });
});
