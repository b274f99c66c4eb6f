/**
 * What only the SQLite store has: its schema migrations (PRAGMA user_version) from the stores that
 * earlier versions made, WAL mode, and group commit. Its behaviour is tested with PostgreSQL's in
 * store.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlotTaken } from '../../src/server/store/index';
import { SqliteStore, migrations } from '../../src/server/store/sqlite';
import { call, enquiry } from '../support/records';
import { expectUpgraded } from '../support/store-backends';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const slot = '2027-01-05T09:30:00Z';
const now = Date.parse('2027-01-01T12:00:00Z');

describe('the SQLite store', () => {
  it('creates its schema by versioned migrations, in WAL mode, in a folder it makes', async () => {
    const path = join(dir, 'nested', 'e.sqlite');
    await new SqliteStore(path).close();
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: migrations.length });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
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
    db.exec(migrations[0]!);
    db.exec('PRAGMA user_version = 1');
    db.exec(`INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent)
             VALUES ('old-1', 'call', '2026-01-01T00:00:00.000Z', 'Ada', 'ada@example.com', '{}', '127.0.0.1', 'test');
             INSERT INTO outbox (enquiry_id, attempts, next_attempt_at, sent_at) VALUES ('old-1', 1, 0, 1000);`);
    db.close();

    const store = new SqliteStore(path);
    expect((await store.all()).map((e) => [e.id, e.idempotencyKey, e.mailedAt])).toEqual([
      ['old-1', undefined, new Date(1000).toISOString()],
    ]);
    await store.commit(enquiry({ idempotencyKey: 'key-0000000000000004' }), true);
    await store.commit(enquiry({ idempotencyKey: 'key-0000000000000004' }), true);
    expect(await store.count()).toBe(2);
    await store.close();
  });

  it('rejects every promise of a batch whose transaction fails', async () => {
    const store = new SqliteStore(join(dir, 'e.sqlite'));
    const pending = [store.commit(enquiry(), true), store.commit(enquiry(), true)];
    await store.close();
    for (const promise of pending) await expect(promise).rejects.toThrow();
  });
});

describe('migration 3', () => {
  // Migrations 1 and 2 as they were shipped, copied here so that the old schema stays fixed even
  // if store.ts changes.
  const v1 = `CREATE TABLE enquiries (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('enquiry', 'call')),
     created_at TEXT NOT NULL,
     name TEXT NOT NULL,
     email TEXT NOT NULL,
     data TEXT NOT NULL,
     client_ip TEXT NOT NULL,
     user_agent TEXT NOT NULL,
     spam INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX enquiries_created ON enquiries (created_at);
   CREATE TABLE outbox (
     enquiry_id TEXT PRIMARY KEY REFERENCES enquiries (id),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT
   );
   CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
   CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at INTEGER NOT NULL);`;
  const v2 = `ALTER TABLE enquiries ADD COLUMN idempotency_key TEXT;
   CREATE UNIQUE INDEX enquiries_idempotency_key ON enquiries (idempotency_key);`;

  it('keeps the shipped migrations unedited', () => {
    expect(migrations.slice(0, 2)).toEqual([v1, v2]);
  });

  it('keeps the enquiries and mail of a version-2 store, and then takes bookings', async () => {
    const path = join(dir, 'v2.sqlite');
    const db = new DatabaseSync(path);
    db.exec(v1);
    db.exec(v2);
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
        item.enquiry.id,
        item.mail,
        item.attempts,
      ]),
    ).toEqual([['old-2', 'agency', 1]]);

    const booking = await store.commit(call(slot), true);
    expect((await store.findById(booking.id))?.call).toEqual({
      start: slot,
      end: '2027-01-05T10:00:00Z',
      cancelledAt: null,
    });
    await expect(store.commit(call(slot), true)).rejects.toThrow(SlotTaken);
    expect((await store.claimDue(now, 100, 0)).map((item) => [item.enquiry.id, item.mail])).toEqual(
      [
        ['old-2', 'agency'],
        [booking.id, 'agency'],
        [booking.id, 'prospect'],
      ],
    );
    await store.close();
  });
});

describe('migration 5', () => {
  it('frees the times that spam held, keeps the outbox, and adds undeliverable mail and secrets', async () => {
    const path = join(dir, 'v4.sqlite');
    const db = new DatabaseSync(path);
    for (const migration of migrations.slice(0, 4)) db.exec(migration);
    db.exec('PRAGMA user_version = 4');
    db.exec(`INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent, spam, call_start, call_end)
             VALUES ('spam-1', 'call', '2026-06-01T00:00:00.000Z', 'Bot', 'bot@example.com', '{}', '127.0.0.1', 'test', 1, '${slot}', '2027-01-05T10:00:00Z'),
                    ('real-1', 'call', '2026-06-02T00:00:00.000Z', 'Ada', 'ada@example.com', '{}', '127.0.0.1', 'test', 0, '2027-01-05T11:00:00Z', '2027-01-05T11:30:00Z');
             INSERT INTO outbox (enquiry_id, mail, attempts, next_attempt_at) VALUES ('real-1', 'agency', 3, 0);`);
    db.close();

    const store = new SqliteStore(path);
    await expectUpgraded(store);
    await store.close();
  });
});
