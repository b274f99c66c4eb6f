/**
 * What only the SQLite store has: its schema migrations (PRAGMA user_version) from the stores that
 * earlier versions made, readers beside a writer, and group commit. Its behaviour is tested with
 * PostgreSQL's in store.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlotTaken } from '../../src/server/store/types';
import { Bookings } from '../../src/server/booking/calls';
import { stepsOf } from '../../src/server/store/migrations';
import { sqlSteps } from '../support/migrations';
import { SqliteStore } from '../../src/server/store/sqlite';
import { COUNT_FAILED } from '../../src/server/store/store';
import { formerHostsSql } from '../../src/server/store/staff-queries';

const migrations = stepsOf('sqlite');
import { ahead, call, enquiry, vitalRecord } from '../support/records';
import { expectUpgraded } from '../support/store-backends';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const slot = ahead('2027-01-05T09:30:00Z');
const now = Date.parse(ahead('2027-01-01T12:00:00Z'));

describe('the SQLite store', () => {
  it('creates its schema by versioned migrations, in a folder it makes', async () => {
    const path = join(dir, 'nested', 'e.sqlite');
    await new SqliteStore(path).close();
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: migrations.length });
    db.close();
    // Opening again runs nothing twice.
    const again = new SqliteStore(path);
    expect(await again.count()).toBe(0);
    await again.close();
  });

  it('adds idempotency keys to a store made before them, whose enquiries keep none', async () => {
    const path = join(dir, 'e.sqlite');
    // A store of the first version of the schema, with an enquiry already mailed.
    const db = new DatabaseSync(path);
    db.exec(sqlSteps('sqlite', 1)[0]!);
    db.exec('PRAGMA user_version = 1');
    db.exec(`INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent)
             VALUES ('old-1', 'call', '2026-01-01T00:00:00.000Z', 'Ada', 'ada@example.com', '{}', '127.0.0.1', 'test');
             INSERT INTO outbox (enquiry_id, attempts, next_attempt_at, sent_at) VALUES ('old-1', 1, 0, 1000);`);
    db.close();

    const store = new SqliteStore(path);
    expect((await store.all()).map((e) => [e.id, e.idempotencyKey, e.mailedAt])).toEqual([
      ['old-1', undefined, new Date(1000).toISOString()],
    ]);
    await new Bookings(store).commit(enquiry({ idempotencyKey: 'key-0000000000000004' }), true);
    await new Bookings(store).commit(enquiry({ idempotencyKey: 'key-0000000000000004' }), true);
    expect(await store.count()).toBe(2);
    await store.close();
  });

  it('counts the jobs failed for good from their index, not by reading every job kept', async () => {
    const store = new SqliteStore(join(dir, 'e.sqlite'));
    const plan = store.db.prepare(`EXPLAIN QUERY PLAN ${COUNT_FAILED}`).all() as {
      detail: string;
    }[];
    expect(plan.map((step) => step.detail)).toEqual([
      'SEARCH jobs USING COVERING INDEX jobs_failed (failed_at>?)',
    ]);
    await store.close();
  });

  it('finds the calls of the hosts a publish removed through an index, not by reading every call', async () => {
    const store = new SqliteStore(join(dir, 'e.sqlite'));
    const plan = store.db.prepare(`EXPLAIN QUERY PLAN ${formerHostsSql(2)}`).all() as {
      detail: string;
    }[];
    expect(plan.map((step) => step.detail)).toContain(
      'SEARCH e EXISTS USING COVERING INDEX enquiries_host (call_host=?)',
    );
    expect(plan.map((step) => step.detail).filter((d) => d.startsWith('SCAN e'))).toEqual([]);
    await store.close();
  });

  it('lets a reader (the staff CLI) read while a writer holds a transaction open', async () => {
    const path = join(dir, 'e.sqlite');
    const store = new SqliteStore(path);
    await new Bookings(store).commit(enquiry(), true);
    // Another process in the middle of a write. EXCLUSIVE shuts readers out unless the store
    // keeps a write-ahead log, which lets them read the last commit meanwhile.
    const writer = new DatabaseSync(path);
    writer.exec('PRAGMA busy_timeout = 0; BEGIN EXCLUSIVE');
    writer.exec(`UPDATE enquiries SET name = 'Changed'`);
    const reader = new SqliteStore(path, { readOnly: true });
    reader.db.exec('PRAGMA busy_timeout = 0');
    try {
      expect((await reader.all()).map((e) => e.name)).toEqual(['Grace Hopper']);
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
      await reader.close();
      await store.close();
    }
  });

  it('rejects every promise of a batch whose transaction fails', async () => {
    const store = new SqliteStore(join(dir, 'e.sqlite'));
    const pending = [
      new Bookings(store).commit(enquiry(), true),
      new Bookings(store).commit(enquiry(), true),
    ];
    await store.close();
    for (const promise of pending) await expect(promise).rejects.toThrow();
  });
});

describe('migration 3', () => {
  it('keeps the enquiries and mail of a version-2 store, and then takes bookings', async () => {
    const path = join(dir, 'v2.sqlite');
    const db = new DatabaseSync(path);
    // Migrations 1 and 2 as shipped (tests/unit/shipped-migrations.test.ts pins them).
    for (const migration of sqlSteps('sqlite', 2)) db.exec(migration);
    db.exec('PRAGMA user_version = 2');
    // One enquiry mailed already, one whose mail is still to be sent.
    db.exec(`INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent, idempotency_key)
             VALUES ('old-1', 'enquiry', '2026-06-01T00:00:00.000Z', 'Ada', 'ada@example.com', '{"project":"Old"}', '127.0.0.1', 'test', 'key-old-000000000001'),
                    ('old-2', 'call', '2026-06-02T00:00:00.000Z', 'Bob', 'bob@example.com', '{}', '127.0.0.1', 'test', NULL);
             INSERT INTO outbox (enquiry_id, attempts, next_attempt_at, sent_at) VALUES ('old-1', 2, 0, 1000);
             INSERT INTO outbox (enquiry_id, attempts, next_attempt_at, sent_at) VALUES ('old-2', 1, 500, NULL);`);
    db.close();

    const store = new SqliteStore(path);
    expect(store.db.prepare('PRAGMA user_version').get()).toEqual({
      user_version: migrations.length,
    });
    expect(await store.all()).toEqual([
      expect.objectContaining({
        id: 'old-1',
        idempotencyKey: 'key-old-000000000001',
        data: { project: 'Old' },
        mailedAt: new Date(1000).toISOString(),
        mailAttempts: 2,
      }),
      expect.objectContaining({ id: 'old-2', mailedAt: null, mailAttempts: 1 }),
    ]);
    expect((await store.all()).every((e) => e.call === undefined)).toBe(true);
    // The unsent mail became the agency e-mail of the new outbox.
    expect(
      (await store.claimDue(now, 100, 0)).map((item) => [
        item.enquiry!.id,
        item.kind,
        item.attempts,
      ]),
    ).toEqual([['old-2', 'agency', 1]]);

    const booking = await new Bookings(store).commit(call(slot), true);
    expect((await store.findById(booking.id))?.call).toEqual({
      start: slot,
      end: ahead('2027-01-05T10:00:00Z'),
      cancelledAt: null,
      host: null,
      sequence: 0,
      moves: 0,
      confirmedAt: null,
      lapsedAt: null,
    });
    await expect(new Bookings(store).commit(call(slot), true)).rejects.toThrow(SlotTaken);
    expect(
      (await store.claimDue(now, 100, 0)).map((item) => [item.enquiry!.id, item.kind]),
    ).toEqual([
      ['old-2', 'agency'],
      [booking.id, 'agency'],
      [booking.id, 'prospect'],
    ]);
    await store.close();
  });
});

describe('migration 5', () => {
  it('frees the times that spam held, keeps the outbox, and adds undeliverable mail and secrets', async () => {
    const path = join(dir, 'v4.sqlite');
    const db = new DatabaseSync(path);
    for (const migration of sqlSteps('sqlite', 4)) db.exec(migration);
    db.exec('PRAGMA user_version = 4');
    db.exec(`INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent, spam, call_start, call_end)
             VALUES ('spam-1', 'call', '2026-06-01T00:00:00.000Z', 'Bot', 'bot@example.com', '{}', '127.0.0.1', 'test', 1, '${slot}', '${ahead('2027-01-05T10:00:00Z')}'),
                    ('real-1', 'call', '2026-06-02T00:00:00.000Z', 'Ada', 'ada@example.com', '{}', '127.0.0.1', 'test', 0, '${ahead('2027-01-05T11:00:00Z')}', '${ahead('2027-01-05T11:30:00Z')}');
             INSERT INTO outbox (enquiry_id, mail, attempts, next_attempt_at) VALUES ('real-1', 'agency', 3, 0);`);
    db.close();

    const store = new SqliteStore(path);
    await expectUpgraded(store);
    await store.close();
  });

  it('keeps the measurements stored before network keys, without one, beside those stored with one', async () => {
    const path = join(dir, 'v12.sqlite');
    const db = new DatabaseSync(path);
    for (const migration of sqlSteps('sqlite', 12)) db.exec(migration);
    db.exec('PRAGMA user_version = 12');
    db.exec(`INSERT INTO vitals (day, path, metric, value, rating, navigation, connection, device, build, sample)
             VALUES ('2026-11-20', '/', 'LCP', 900, 'good', 'navigate', '4g', 'phone', 'b', 0.5);`);
    db.close();

    const store = new SqliteStore(path);
    await store.addVitals([vitalRecord({ day: '2026-11-21', network: '3fa9' })]);
    expect((await store.vitalsSince('2026-11-01')).map((r) => [r.day, r.network])).toEqual([
      ['2026-11-20', null],
      ['2026-11-21', '3fa9'],
    ]);
    await store.close();
  });
});
