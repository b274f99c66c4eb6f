/**
 * A store that the code before one migration list and one store (commit df3d24c) made, opened by
 * today's code: it upgrades in place, reads back as df3d24c read it, and takes new work. The
 * databases are in ./fixtures/, made by that commit's own code (./fixtures/make-fixtures.mts).
 * And a store of step 17 (the staff's first tables, their rows in it), upgraded to links and
 * challenges apart.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { storedHash } from '../../src/server/staff/access';
import { sendLink } from '../../src/server/staff/links';
import { stepsOf } from '../../src/server/store/migrations';
import { PostgresStore } from '../../src/server/store/postgres/store';
import { SqliteStore } from '../../src/server/store/sqlite';
import type { EnquiryStore } from '../../src/server/store/types';
import { call, mailCallOf } from '../support/records';
import { backends, newPostgresDatabase } from '../support/store-backends';

const fixtures = join(import.meta.dirname, 'fixtures');
const expected = JSON.parse(readFileSync(join(fixtures, 'made-by-df3d24c.expected.json'), 'utf8'));
/** As the JSON has it: plain objects, no undefined. */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The fixture of each engine, opened (and so upgraded) by today's code. */
const open: Record<keyof typeof backends, () => Promise<EnquiryStore>> = {
  async sqlite() {
    const dir = mkdtempSync(join(tmpdir(), 'store-upgrade-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'enquiries.sqlite');
    copyFileSync(join(fixtures, 'made-by-df3d24c.sqlite'), path);
    const store = new SqliteStore(path);
    cleanups.push(() => store.close());
    expect(store.db.prepare('PRAGMA user_version').get()).toEqual({
      user_version: stepsOf('sqlite').length,
    });
    return store;
  },
  async postgresql() {
    const url = await newPostgresDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(readFileSync(join(fixtures, 'made-by-df3d24c.postgres.sql'), 'utf8'));
    } finally {
      await client.end();
    }
    const store = await PostgresStore.open(url);
    cleanups.push(() => store.close());
    return store;
  },
};

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a %s store made by df3d24c',
  (engine) => {
    const read = (key: string) => expected[engine === 'sqlite' ? key : `${key}Postgres`];

    it('upgrades in place and reads back every enquiry, call, e-mail and measurement as it did', async () => {
      const store = await open[engine]();
      expect(plain(await store.all())).toEqual(read('all'));
      expect(await store.count()).toBe(expected.count);
      expect(await store.countFailed()).toBe(expected.countUndeliverable);
      expect(
        plain(await store.bookedBetween('2027-01-01T00:00:00Z', '2028-01-01T00:00:00Z')),
      ).toEqual(expected.bookedBetween);
      expect(plain(await store.vitalsSince('2000-01-01'))).toEqual(expected.vitalsSince);
      expect(plain(await store.vitalsDaysSince('2000-01-01'))).toEqual(expected.vitalsDaysSince);
      expect(plain(await store.calendarCopies.states())).toEqual(expected.calendarCopies.states);
      // What was waiting is still due, as it was queued: each e-mail's job.
      const due = await store.claimDue(expected.dueAt, 1000, 0);
      expect(
        plain(
          due.map((job) => ({
            mail: job.kind,
            enquiryId: job.enquiry?.id,
            attempts: job.attempts,
            ...(mailCallOf(job) && { call: mailCallOf(job) }),
          })),
        ),
      ).toEqual(read('due'));
    });

    it('then books, moves and cancels, and queues a kind of job it never had', async () => {
      const store = await open[engine]();
      const bookings = new Bookings(store);
      const asked = call('2027-03-10T10:00:00Z', { email: 'new@example.com' });
      const booked = await bookings.commit(
        { ...asked, call: { ...asked.call!, hosts: ['ana', 'ben'] } },
        true,
      );
      // Ana has the fixture's call then: Ben takes it.
      expect(booked.call?.host).toBe('ben');
      const moved = await bookings.moveCall(
        '00000000-0000-4000-8000-000000000002',
        { start: '2027-03-10T11:00:00Z', end: '2027-03-10T11:30:00Z', hosts: ['ana'], maxMoves: 3 },
        true,
        expected.now,
      );
      expect(moved).toMatchObject({ status: 'moved', enquiry: { call: { sequence: 1 } } });
      expect(
        await bookings.cancelCall('00000000-0000-4000-8000-000000000003', true, expected.now),
      ).toMatchObject({ status: 'cancelled' });
      await store.transaction((tx) =>
        tx.queue([{ kind: 'calendar-write', dueAt: 0, payload: { host: 'ana' } }]),
      );
      const jobs = await store.claimDue(0, 1000, 0);
      expect(jobs).toEqual([
        expect.objectContaining({ kind: 'calendar-write', payload: { host: 'ana' } }),
      ]);
      expect(jobs[0]!.enquiry).toBeUndefined();
    });
  },
);

/** The staff's rows as step 17 kept them: a link by its id, a session, a passkey, an audit line. */
const STAFF_ROWS = `
  INSERT INTO staff_links (id, email, created_at, expires_at) VALUES ('link-id-17', 'anna@a.example', 0, 4102444800000);
  INSERT INTO staff_sessions (id, email, created_at, seen_at) VALUES ('session-hash', 'anna@a.example', 1799139600000, 1799139600000);
  INSERT INTO staff_passkeys (id, email, public_key, counter, created_at) VALUES ('cred-1', 'anna@a.example', 'pQECAyYgASFYIA', 3, 0);
  INSERT INTO staff_audit (at, actor, action) VALUES (1, 'anna@a.example', 'signed in');`;

/** A store that the code of step 17 made (the staff's first tables), with staff rows in it. */
const openStep17: Record<keyof typeof backends, () => Promise<EnquiryStore>> = {
  async sqlite() {
    const dir = mkdtempSync(join(tmpdir(), 'store-upgrade-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'enquiries.sqlite');
    const steps = stepsOf('sqlite').slice(0, 17);
    const db = new DatabaseSync(path);
    for (const step of steps) db.exec(step);
    db.exec(`PRAGMA user_version = ${steps.length}; ${STAFF_ROWS}`);
    db.close();
    const store = new SqliteStore(path);
    cleanups.push(() => store.close());
    return store;
  },
  async postgresql() {
    const url = await newPostgresDatabase();
    const steps = stepsOf('postgres').slice(0, 14);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`${steps.join(';\n')};
        CREATE TABLE schema_migrations (
          version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
        INSERT INTO schema_migrations (version) SELECT generate_series(1, ${steps.length});
        ${STAFF_ROWS}`);
    } finally {
      await client.end();
    }
    const store = await PostgresStore.open(url);
    cleanups.push(() => store.close());
    return store;
  },
};

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a %s store made when links and challenges shared a table (step 17)',
  (engine) => {
    it('keeps sessions, passkeys and the audit log; its links, kept by id, no longer sign in; new ones work', async () => {
      const store = await openStep17[engine]();
      const at = Date.parse('2027-01-05T09:00:00Z');
      expect(await store.staff.session('session-hash', at, 7_200_000, 43_200_000)).toMatchObject({
        email: 'anna@a.example',
      });
      expect(await store.staff.passkey('cred-1')).toMatchObject({ counter: 3 });
      expect(await store.staff.recentAudit(10)).toEqual([
        { at: 1, actor: 'anna@a.example', action: 'signed in', subject: null, detail: null },
      ]);
      expect(await store.staff.useLink('link-id-17', at)).toEqual({ refused: 'unknown' });
      expect(await store.staff.useLink(storedHash('link-id-17'), at)).toEqual({
        refused: 'unknown',
      });
      expect(await sendLink(store, 'anna@a.example', at)).toBe(true);
      const [job] = await store.claimDue(at, 10, 60_000);
      expect(await store.staff.armLink((job!.payload as { ref: string }).ref, 'h', at)).toEqual({
        email: 'anna@a.example',
        expiresAt: at + 15 * 60_000,
      });
      expect(await store.staff.useLink('h', at)).toEqual({ email: 'anna@a.example' });
      expect(
        await store.staff.addChallenge(
          { hash: 'c', purpose: 'sign-in', email: null, network: 'n', expiresAt: at + 1 },
          at,
          1,
        ),
      ).toBe(true);
    });
  },
);
