/**
 * The two implementations of the enquiry store, for tests that run against both: a SQLite file in
 * a temporary folder, and a new database on the run's PostgreSQL server (tests/support/postgres-setup.ts, the store project's global setup).
 * Both, unless STORE_BACKENDS names one (store-selection.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import type { BookingCaps } from '../../src/server/booking/rules';
import type { EnquiryStore, StoreOptions } from '../../src/server/store/types';
import { PostgresStore } from '../../src/server/store/postgres/store';
import { SqliteStore } from '../../src/server/store/sqlite';
import { newStoreRole } from '../../scripts/postgres.mjs';
import { ahead, call } from './records';
import { selectedStoreBackends, type StoreBackendName } from './store-selection';

export interface Backend {
  store: EnquiryStore;
  /** The bookings over `store`, with the backend's caps, as the server makes them. */
  bookings: Bookings;
  /** Another connection to the same store, as another server process would open it. */
  open(options?: { readOnly?: boolean }): Promise<EnquiryStore>;
  /** The bookings of another connection, with the same caps (another process's). */
  bookingsOver(store: EnquiryStore): Bookings;
  /** Closes what is still open and removes the store. */
  cleanup(): Promise<void>;
}

/** This file's database on the run's server (made on first use): its tests' stores are in it. */
let fileDatabase: Promise<string> | undefined;

/**
 * A new, empty store's place on the run's PostgreSQL server, its URL: a role and schema of its own
 * in this file's database (scripts/postgres.mjs, newStoreRole).
 */
export async function newPostgresDatabase(): Promise<string> {
  fileDatabase ??= (async () => {
    const admin = inject('postgresUrl');
    const name = `store_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return url.href;
  })();
  return newStoreRole(await fileDatabase);
}

/** A backend that opens stores with `openOne` and closes them all (then runs `remove`) at cleanup. */
async function backend(
  openOne: (options: StoreOptions) => Promise<EnquiryStore>,
  caps: Partial<BookingCaps>,
  remove = () => {},
): Promise<Backend> {
  const opened: EnquiryStore[] = [];
  const open = async ({ readOnly = false } = {}) => {
    const store = await openOne({ readOnly });
    opened.push(store);
    return store;
  };
  const store = await open();
  const bookingsOver = (over: EnquiryStore) => new Bookings(over, caps);
  return {
    store,
    bookings: bookingsOver(store),
    open,
    bookingsOver,
    async cleanup() {
      for (const store of opened) await store.close();
      remove();
    },
  };
}

type OpenBackend = (caps?: Partial<BookingCaps>) => Promise<Backend>;

/** Either store, empty; `caps` for the bookings over every connection to it. */
const allBackends: Record<StoreBackendName, OpenBackend> = {
  async sqlite(caps = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'store-test-'));
    const path = join(dir, 'enquiries.sqlite');
    return backend(
      async (opening) => new SqliteStore(path, opening),
      caps,
      () => rmSync(dir, { recursive: true, force: true }),
    );
  },
  async postgresql(caps = {}) {
    const url = await newPostgresDatabase();
    return backend((opening) => PostgresStore.open(url, opening), caps);
  },
};

/**
 * The selected stores (both unless STORE_BACKENDS says), by name: only those are its keys, which the
 * tests go through (`describe.each(Object.keys(backends))`).
 */
export const backends = Object.fromEntries(
  selectedStoreBackends().map((name) => [name, allBackends[name]]),
) as Record<StoreBackendName, OpenBackend>;

/**
 * A store opened over one that migration 5 (SQLite) or 2 (PostgreSQL) upgraded, which held a spam
 * booking of 09:30 and a real one of 11:00 on 5 January 2027 (`ahead`) with an agency e-mail tried 3 times:
 * the spam no longer holds its time, its queued e-mail is as it was, a job failed for good and the
 * stored secret work, and the call booked then counts as confirmed.
 */
export async function expectUpgraded(store: EnquiryStore) {
  const bookings = new Bookings(store);
  expect((await store.findById('spam-1'))?.call).toBeUndefined();
  expect((await store.findById('real-1'))?.call?.start).toBe(ahead('2027-01-05T11:00:00Z'));
  // Calls stored before confirmation existed count as confirmed.
  expect((await store.findById('real-1'))?.call?.confirmedAt).not.toBeNull();
  const booked = await bookings.commit(call(ahead('2027-01-05T09:30:00Z')), false);
  expect(booked.call?.start).toBe(ahead('2027-01-05T09:30:00Z'));
  const now = Date.parse(ahead('2027-01-01T12:00:00Z'));
  const [item] = await store.claimDue(now, 100, 0);
  expect(item).toMatchObject({ kind: 'agency', attempts: 3, enquiry: { id: 'real-1' } });
  await store.markFailed(item!.id, '550 no such user', now);
  expect(await store.claimDue(now + 3_600_000, 100, 0)).toEqual([]);
  expect(await store.countFailed()).toBe(1);
  expect(await store.vitalsSecret()).toHaveLength(64);
}
