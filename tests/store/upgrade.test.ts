/**
 * A store that the code before one migration list and one store (commit df3d24c) made, opened by
 * today's code: it upgrades in place, reads back as df3d24c read it, and takes new work. The
 * databases are in ./fixtures/, made by that commit's own code (./fixtures/make-fixtures.mts).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { stepsOf } from '../../src/server/store/migrations';
import { PostgresStore } from '../../src/server/store/postgres/store';
import { SqliteStore } from '../../src/server/store/sqlite';
import type { EnquiryStore } from '../../src/server/store/types';
import { call } from '../support/records';
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
      expect(await store.countUndeliverable()).toBe(expected.countUndeliverable);
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
            ...(job.call && { call: job.call }),
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
