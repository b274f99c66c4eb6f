/**
 * The staff desk's records on both engines, with a clock the tests hold: a flood of sign-in requests
 * from any number of processes sends a member at most one link per link's life and 4 an hour, and
 * always leaves them a link that works; a link signs in once, before it expires, and the store and
 * the job keep no link id; passkey challenges each for their purpose, once, bounded per network
 * and swept once expired; sessions idle, too old or ended are gone; passkeys and their counters;
 * the audit log newest first; an enquiry handled and new again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkId, storedHash } from '../../src/server/staff/access';
import type { StaffDesk } from '../../src/server/staff/desk';
import { jobHandler, type JobHandler } from '../../src/server/jobs/queue';
import { SIGN_IN_JOB, sendLink, signInMailHandler } from '../../src/server/staff/links';
import { CHALLENGES_PER_NETWORK, handlePasskey } from '../../src/server/staff/passkeys';
import type { ChallengePurpose } from '../../src/server/store/staff';
import type { EnquiryStore } from '../../src/server/store/types';
import { enquiry } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

const now = Date.parse('2027-01-05T09:00:00Z');
const minute = 60_000;
const SECRET = 's'.repeat(64);
const ANNA = 'anna@a.example';
const content = { brand: 'Agency', email: 'hello@agency.example', hosts: [] };

describe.each(Object.keys(backends) as (keyof typeof backends)[])('staff records on %s', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  beforeEach(async () => {
    backend = await backends[kind]();
    store = backend.store;
  });
  afterEach(() => backend.cleanup());

  /** The sign-in e-mails sent, as the queue would send them at `at`: each one's link token. */
  const mailed: { to: string; token: string; messageId: string; minutes: number; at: number }[] =
    [];
  /** The sign-in jobs' handler, as the queue runs it: on any job it claimed. */
  const handler = (over: EnquiryStore, at: () => number): JobHandler =>
    jobHandler(
      SIGN_IN_JOB,
      signInMailHandler({
        store: over,
        secret: SECRET,
        sender: {
          async send(mail) {
            const [, token, minutes] =
              /sign-in\?token=(\S+)[^]*for (\d+) minutes/.exec(mail.text) ?? [];
            mailed.push({
              at: at(),
              to: String(mail.to),
              token: token!,
              minutes: Number(minutes),
              messageId: mail.messageId!,
            });
          },
        },
        siteUrl: 'https://www.agency.example',
        setup: { from: 'web@agency.example', to: 'sales@agency.example', content },
        now: at,
      }),
    )[1];
  /** Runs the sign-in jobs due at `at`. */
  async function deliver(over: EnquiryStore, at: number) {
    const run = handler(over, () => at);
    for (const job of await over.claimDue(at, 100, 60_000)) {
      expect(await run(job)).toMatchObject({ done: true });
      await over.markDone(job.id, at);
    }
  }
  /** Uses a mailed link's token as its page's post does. */
  const use = (over: EnquiryStore, token: string, at: number) =>
    over.staff.useLink(storedHash(linkId(SECRET, token)!), at);
  beforeEach(() => void mailed.splice(0));

  it('send one link for a flood of requests from two processes, which signs in once, before it expires', async () => {
    const other = await backend.open();
    const sent = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sendLink(i % 2 ? other : store, ANNA, now)),
    );
    expect(sent.filter(Boolean)).toHaveLength(1);
    await deliver(store, now);
    expect(mailed).toHaveLength(1);
    const [{ token, messageId, minutes }] = mailed as [(typeof mailed)[0]];
    expect(minutes).toBe(15);
    // The Message-ID names nothing of the link.
    expect(messageId).toMatch(/^<[0-9a-f-]{36}@staff-sign-in\.invalid>$/);
    expect(messageId).not.toContain(linkId(SECRET, token)!);
    const id = storedHash(linkId(SECRET, token)!);
    expect(await store.staff.checkLink(id, now + minute)).toEqual({ email: ANNA });
    const uses = await Promise.all([
      use(store, token, now + minute),
      use(other, token, now + minute),
    ]);
    expect(uses.filter((u) => 'email' in u)).toEqual([{ email: ANNA }]);
    expect(uses.filter((u) => 'refused' in u)).toEqual([{ refused: 'used' }]);
    // Used: the next request sends a new one, which expires unused after 15 minutes.
    expect(await sendLink(store, ANNA, now + 2 * minute)).toBe(true);
    await deliver(store, now + 2 * minute);
    expect(await use(store, mailed[1]!.token, now + 17 * minute)).toEqual({ refused: 'expired' });
    expect(await store.staff.useLink(storedHash('no-such-link'), now)).toEqual({
      refused: 'unknown',
    });
  });

  it('under a flood every minute for three hours: at most 4 e-mails in any hour, and always a link that works', async () => {
    for (let t = 0; t < 180; t++) {
      const at = now + t * minute;
      for (let i = 0; i < 3; i++) await sendLink(store, ANNA, at);
      await deliver(store, at);
      const newest = mailed.at(-1)!;
      expect(await store.staff.checkLink(storedHash(linkId(SECRET, newest.token)!), at)).toEqual({
        email: ANNA,
      });
    }
    // One e-mail per link's life: every 15 minutes.
    expect(mailed).toHaveLength(12);
    for (const { at } of mailed)
      expect(mailed.filter((m) => m.at > at - 60 * minute && m.at <= at).length).toBeLessThan(5);
  });

  it('keep the hour’s last link working until a new one may be sent, when the member used the first', async () => {
    await sendLink(store, ANNA, now);
    await deliver(store, now);
    expect(await use(store, mailed[0]!.token, now)).toEqual({ email: ANNA });
    // Someone asks for Anna's address every minute from then on: 3 more e-mails this hour.
    for (let t = 0; t < 60; t++) {
      await sendLink(store, ANNA, now + t * minute);
      await deliver(store, now + t * minute);
    }
    expect(mailed).toHaveLength(4);
    expect(mailed.map((m) => m.minutes)).toEqual([15, 15, 15, 30]);
    // At 0:50 Anna is signed out and wants back in: the last link still works.
    expect(await use(store, mailed[3]!.token, now + 50 * minute)).toEqual({ email: ANNA });
    // Used, and an hour since the first: a new one.
    expect(await sendLink(store, ANNA, now + 60 * minute)).toBe(true);
  });

  it('send no link whose e-mail comes after it expired, and keep no link id, only its hash', async () => {
    await sendLink(store, ANNA, now);
    const [job] = await store.claimDue(now + 15 * minute, 10, 60_000);
    expect(await handler(store, () => now + 15 * minute)(job!)).toMatchObject({
      skipped: expect.stringContaining('expired'),
    });
    expect(mailed).toEqual([]);
    // The job names the link by a reference that signs nothing.
    expect(Object.keys(job!.payload as object)).toEqual(['ref']);
    const ref = (job!.payload as { ref: string }).ref;
    expect(await store.staff.checkLink(ref, now)).toEqual({ refused: 'unknown' });
    expect(await store.staff.checkLink(storedHash(ref), now)).toEqual({ refused: 'unknown' });
  });

  it('keep each challenge for its purpose, once, as a hash: no link and no other ceremony’s challenge stands in', async () => {
    const challenge = (purpose: ChallengePurpose, hash: string, email: string | null = null) =>
      store.staff.addChallenge(
        { hash, purpose, email, network: '203.0.113.0/24', expiresAt: now + 5 * minute },
        now,
        20,
      );
    expect(await challenge('register', 'reg-hash', ANNA)).toBe(true);
    expect(await challenge('sign-in', 'sign-hash')).toBe(true);
    expect(await store.staff.useChallenge('reg-hash', 'sign-in', now)).toBeUndefined();
    expect(await store.staff.useChallenge('sign-hash', 'register', now)).toBeUndefined();
    expect(await store.staff.useLink('sign-hash', now)).toEqual({ refused: 'unknown' });
    expect(await store.staff.useChallenge('reg-hash', 'register', now)).toEqual({ email: ANNA });
    expect(await store.staff.useChallenge('reg-hash', 'register', now)).toBeUndefined();
    expect(
      await store.staff.useChallenge('sign-hash', 'sign-in', now + 5 * minute),
    ).toBeUndefined();
    // A link's id, sent and mailed, is no challenge either.
    await sendLink(store, ANNA, now);
    await deliver(store, now);
    const linkHash = storedHash(linkId(SECRET, mailed[0]!.token)!);
    expect(await store.staff.useChallenge(linkHash, 'sign-in', now)).toBeUndefined();
    expect(await store.staff.checkLink(linkHash, now)).toEqual({ email: ANNA });
  });

  it('hold at most the bound of challenges from one /48 after a flood of 20 times the bound, and none once they expire', async () => {
    let clock = now;
    const desk = {
      store,
      members: new Map(),
      secret: SECRET,
      idleMs: 120 * minute,
      secure: true,
      siteUrl: 'https://www.agency.example',
      brand: 'Agency',
      now: () => clock,
    } as unknown as StaffDesk;
    const ask = async (client: string) => {
      const post = {
        ok: true as const,
        fields: new Map(),
        client,
        json: { step: 'sign-in-options' },
      };
      const request = new Request('https://www.agency.example/staff/passkey', { method: 'POST' });
      return (await handlePasskey(request, post, async () => desk)).response.status;
    };
    const statuses = [];
    // Each from a /64 of its own, all in 2001:db8:1::/48. Twenty times the bound shows it holds as
    // well as 3,000 requests did, which took 92 s of the test's 120 s on PostgreSQL beside the
    // other phases on a slow machine.
    const flood = 20 * CHALLENGES_PER_NETWORK;
    for (let i = 0; i < flood; i++) statuses.push(await ask(`2001:db8:1:${i.toString(16)}::1`));
    expect(statuses.filter((status) => status === 200)).toHaveLength(CHALLENGES_PER_NETWORK);
    expect(statuses.filter((status) => status === 429)).toHaveLength(
      flood - CHALLENGES_PER_NETWORK,
    );
    expect(await store.staff.challengesOf('2001:db8:1::/48')).toBe(CHALLENGES_PER_NETWORK);
    // Another network is not held back by that one.
    expect(await ask('2001:db8:2::1')).toBe(200);
    // Five minutes on, the next request sweeps every expired one.
    clock += 5 * minute;
    expect(await ask('198.51.100.7')).toBe(200);
    expect(await store.staff.challengesOf('2001:db8:1::/48')).toBe(0);
    expect(await store.staff.challengesOf('2001:db8:2::/48')).toBe(0);
    expect(await ask('2001:db8:1::1')).toBe(200);
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
    // Signed out everywhere else: the member's other sessions end, this one and others' stay.
    for (const [hash, email] of [
      ['ben-here', 'ben@a.example'],
      ['ben-laptop', 'ben@a.example'],
      ['ben-phone', 'ben@a.example'],
      ['cleo', 'cleo@a.example'],
    ])
      await store.staff.startSession(hash, email, now);
    expect(await store.staff.endOtherSessions('ben@a.example', 'ben-here', now + 1)).toBe(2);
    const alive = async (hash: string) =>
      (await store.staff.session(hash, now + 2, idle, max)) !== undefined;
    expect(await Promise.all(['ben-here', 'ben-laptop', 'ben-phone', 'cleo'].map(alive))).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(await store.staff.session('unknown', now, idle, max)).toBeUndefined();
  });

  it('forget for good the passkeys, sessions and links of an address no longer a member: put back, it has none', async () => {
    const idle = 120 * minute;
    const max = 12 * 60 * minute;
    const key = { publicKey: 'pQECAyYgASFYIA', counter: 0, transports: [] };
    await store.staff.addPasskey({ ...key, id: 'anna-key', email: ANNA }, now);
    await store.staff.addPasskey({ ...key, id: 'ben-key', email: 'ben@a.example' }, now);
    await store.staff.startSession('anna-session', ANNA, now);
    await store.staff.startSession('ben-session', 'ben@a.example', now);
    const link = { seq: 1, createdAt: now, expiresAt: now + 15 * minute };
    await store.staff.addLink({ ...link, ref: 'ben-link', email: 'ben@a.example' }, now);
    await store.staff.armLink('ben-link', 'ben-link-hash', now);
    // Ben is taken off the members (a publish's hosts, STAFF_EMAILS): his are gone, Anna's stay.
    expect(await store.staff.forgetFormerMembers([ANNA], now + minute)).toEqual({
      passkeys: 1,
      sessions: 1,
    });
    // Put back: his old passkey, session and link sign him in no more.
    expect(
      await store.staff.forgetFormerMembers([ANNA, 'ben@a.example'], now + 2 * minute),
    ).toEqual({ passkeys: 0, sessions: 0 });
    expect(await store.staff.passkey('ben-key')).toBeUndefined();
    expect(await store.staff.session('ben-session', now + 2 * minute, idle, max)).toBeUndefined();
    expect(await store.staff.useLink('ben-link-hash', now + 2 * minute)).toEqual({
      refused: 'expired',
    });
    expect((await store.staff.passkey('anna-key'))?.email).toBe(ANNA);
    expect(await store.staff.session('anna-session', now + 2 * minute, idle, max)).toBeDefined();
    // No members at all (a start whose STAFF_EMAILS and hosts are missing): nothing is removed.
    expect(await store.staff.forgetFormerMembers([], now + 3 * minute)).toEqual({
      passkeys: 0,
      sessions: 0,
    });
    expect((await store.staff.passkey('anna-key'))?.email).toBe(ANNA);
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
    const kept = { ...passkey, counter: 7, createdAt: now, usedAt: now + minute };
    expect(await store.staff.passkey('cred-1')).toEqual(kept);
    expect(await store.staff.passkeysOf('ben@a.example')).toEqual([]);
    // Removed by its member only: another member's post of its id removes nothing.
    await store.staff.addPasskey({ ...passkey, id: 'cred-2' }, now + 2 * minute);
    expect(await store.staff.passkeysOf('anna@a.example')).toEqual([
      kept,
      { ...passkey, id: 'cred-2', createdAt: now + 2 * minute, usedAt: null },
    ]);
    expect(await store.staff.removePasskey('cred-1', 'ben@a.example')).toBe(false);
    expect(await store.staff.removePasskey('cred-1', 'anna@a.example')).toBe(true);
    expect(await store.staff.removePasskey('cred-1', 'anna@a.example')).toBe(false);
    expect(await store.staff.passkey('cred-1')).toBeUndefined();
    expect((await store.staff.passkeysOf('anna@a.example')).map((p) => p.id)).toEqual(['cred-2']);
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
    // A colleague's Mark handled from a page opened before: no change, the first who handled
    // it stays, and its time.
    expect(await store.staff.markHandled(stored.id, 'ben@a.example', now + 1000)).toBe(false);
    expect((await store.findById(stored.id))?.handled).toEqual({
      at: new Date(now).toISOString(),
      by: 'anna@a.example',
    });
    await store.staff.markHandled(stored.id, null, now);
    expect((await store.findById(stored.id))?.handled).toBeUndefined();
    expect(await store.staff.markHandled(stored.id, 'ben@a.example', now + 2000)).toBe(true);
    expect((await store.findById(stored.id))?.handled?.by).toBe('ben@a.example');
    expect(await store.staff.markHandled('no-such-enquiry', 'anna@a.example', now)).toBe(false);
  });
});
