import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EnquiryStore, SlotTaken, migrations, type NewEnquiry } from '../../src/server/store';

let dir: string;
let store: EnquiryStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-bookings-'));
  store = new EnquiryStore(join(dir, 'e.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const plus = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString().replace('.000Z', 'Z');

/** A call request; with `start`, a booking of the 30-minute call at that time. */
const call = (start?: string, overrides: Partial<NewEnquiry> = {}): NewEnquiry => ({
  kind: 'call',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  data: { name: 'Ada Lovelace', email: 'ada@example.com', message: 'About an app.' },
  clientIp: '127.0.0.1',
  userAgent: 'test',
  spam: false,
  ...(start && { call: { start, end: plus(start, 30) } }),
  ...overrides,
});

const enquiry = (overrides: Partial<NewEnquiry> = {}): NewEnquiry => ({
  kind: 'enquiry',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  data: { first_name: 'Grace', last_name: 'Hopper', project: 'A booking platform.' },
  clientIp: '127.0.0.1',
  userAgent: 'test',
  spam: false,
  ...overrides,
});

const slot = '2027-01-05T09:30:00Z';
const day = ['2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z'] as const;
const now = Date.parse('2027-01-01T12:00:00Z');

describe('a booking', () => {
  it('is stored with its call, not cancelled, and found by id and by time', () => {
    const stored = store.add(call(slot), false);
    expect(stored.call).toEqual({ start: slot, end: '2027-01-05T10:00:00Z', cancelledAt: null });
    expect(store.findById(stored.id)).toMatchObject({
      id: stored.id,
      kind: 'call',
      call: { start: slot, end: '2027-01-05T10:00:00Z', cancelledAt: null },
    });
    expect(store.bookedBetween(...day)).toEqual([{ start: slot, end: '2027-01-05T10:00:00Z' }]);
    // Only calls overlapping the interval.
    expect(store.bookedBetween('2027-01-05T10:00:00Z', '2027-01-06T00:00:00Z')).toEqual([]);
    expect(store.bookedBetween('2027-01-05T09:59:00Z', '2027-01-06T00:00:00Z')).toHaveLength(1);
  });

  it('leaves a plain call request without a call', () => {
    const stored = store.add(call(), false);
    expect(store.findById(stored.id)?.call).toBeUndefined();
    expect(store.bookedBetween(...day)).toEqual([]);
  });

  it('of a time taken already, or overlapping one, throws SlotTaken and stores nothing', () => {
    store.add(call(slot), false);
    expect(() => store.add(call(slot), false)).toThrow(SlotTaken);
    expect(() => store.add(call(plus(slot, 15)), false)).toThrow(SlotTaken);
    expect(() => store.add(call(plus(slot, -15)), false)).toThrow(SlotTaken);
    expect(store.count()).toBe(1);
  });

  it('adjacent to another, before or after it, is stored', () => {
    store.add(call(slot), false);
    store.add(call(plus(slot, 30)), false);
    store.add(call(plus(slot, -30)), false);
    expect(store.bookedBetween(...day).map((b) => b.start)).toEqual([
      '2027-01-05T09:00:00Z',
      slot,
      '2027-01-05T10:00:00Z',
    ]);
  });
});

describe('bookings in one group commit', () => {
  it('store one booking of a slot, reject the rest with SlotTaken, and keep the batch', async () => {
    const results = await Promise.allSettled([
      ...Array.from({ length: 5 }, (_, i) =>
        store.commit(call(slot, { idempotencyKey: `key-booking-000000000${i}` }), true),
      ),
      store.commit(enquiry({ idempotencyKey: 'key-enquiry-0000000001' }), true),
    ]);
    const bookings = results.slice(0, 5);
    expect(bookings.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = bookings.filter((r) => r.status === 'rejected');
    expect(rejected).toHaveLength(4);
    for (const r of rejected) expect(r.reason).toBeInstanceOf(SlotTaken);
    // The enquiry that shared the transaction was committed.
    expect(results[5]!.status).toBe('fulfilled');
    expect(store.findByKey('key-enquiry-0000000001')?.kind).toBe('enquiry');
    expect(store.count()).toBe(2);
    expect(store.bookedBetween(...day)).toHaveLength(1);
  });
});

describe('a booking posted twice with one idempotency key', () => {
  it('returns the one stored first, not SlotTaken', () => {
    const first = store.add(call(slot, { idempotencyKey: 'key-0000000000000001' }), true);
    const again = store.add(call(slot, { idempotencyKey: 'key-0000000000000001' }), true);
    expect(again.id).toBe(first.id);
    expect(store.count()).toBe(1);
  });

  it('returns the one stored first within one group commit too', async () => {
    const both = await Promise.all([
      store.commit(call(slot, { idempotencyKey: 'key-0000000000000002' }), true),
      store.commit(call(slot, { idempotencyKey: 'key-0000000000000002' }), true),
    ]);
    expect(both[1].id).toBe(both[0].id);
    expect(store.count()).toBe(1);
  });
});

describe('the mail a booking queues', () => {
  it('is one e-mail to the agency and one to the prospect', () => {
    const booking = store.add(call(slot), true, now);
    const request = store.add(call(), true, now);
    const due = store.due(now);
    expect(due.map((item) => [item.enquiry.id, item.mail])).toEqual([
      [booking.id, 'agency'],
      [booking.id, 'prospect'],
      [request.id, 'agency'],
    ]);
    expect(due[1]!.enquiry.call?.start).toBe(slot);
  });

  it('is none without queueMail, or for spam', () => {
    store.add(call(slot), false, now);
    store.add(call(plus(slot, 60), { spam: true }), true, now);
    expect(store.due(now)).toEqual([]);
  });

  it('is marked sent one entry at a time; mailedAt follows the agency e-mail only', () => {
    const booking = store.add(call(slot), true, now);
    const [agency, prospect] = store.due(now);
    expect([agency!.mail, prospect!.mail]).toEqual(['agency', 'prospect']);

    store.markSent(prospect!.id, now + 1000);
    expect(store.due(now + 2000).map((item) => item.mail)).toEqual(['agency']);
    expect(store.all()[0]).toMatchObject({ id: booking.id, mailedAt: null, mailAttempts: 0 });

    store.markSent(agency!.id, now + 3000);
    expect(store.due(now + 4000)).toEqual([]);
    expect(store.all()[0]).toMatchObject({
      mailedAt: new Date(now + 3000).toISOString(),
      mailAttempts: 1,
    });
  });
});

describe('cancelCall', () => {
  it('cancels a booking once, then says it is cancelled already', () => {
    const booking = store.add(call(slot), false, now);
    const cancelledAt = new Date(now + 60_000).toISOString();
    const first = store.cancelCall(booking.id, false, now + 60_000);
    expect(first).toMatchObject({ status: 'cancelled', enquiry: { id: booking.id } });
    expect(first.status === 'cancelled' && first.enquiry.call?.cancelledAt).toBe(cancelledAt);
    expect(store.findById(booking.id)?.call?.cancelledAt).toBe(cancelledAt);

    const second = store.cancelCall(booking.id, false, now + 120_000);
    expect(second.status).toBe('already');
    // The first cancellation's time is kept.
    expect(second.status === 'already' && second.enquiry.call?.cancelledAt).toBe(cancelledAt);
  });

  it('frees the slot for a new booking', () => {
    const booking = store.add(call(slot), false, now);
    store.cancelCall(booking.id, false, now);
    expect(store.bookedBetween(...day)).toEqual([]);
    const again = store.add(call(slot, { name: 'Someone Else' }), false, now);
    expect(again.id).not.toBe(booking.id);
    expect(store.bookedBetween(...day)).toEqual([{ start: slot, end: '2027-01-05T10:00:00Z' }]);
    // And the new booking holds the slot in turn.
    expect(() => store.add(call(slot), false, now)).toThrow(SlotTaken);
  });

  it('queues a cancellation to the agency and to the prospect', () => {
    const booking = store.add(call(slot), true, now);
    for (const item of store.due(now)) store.markSent(item.id, now);
    store.cancelCall(booking.id, true, now + 1000);
    expect(store.due(now + 1000).map((item) => [item.enquiry.id, item.mail])).toEqual([
      [booking.id, 'agency-cancel'],
      [booking.id, 'prospect-cancel'],
    ]);
    // Cancelling again queues nothing more.
    store.cancelCall(booking.id, true, now + 2000);
    expect(store.due(now + 2000)).toHaveLength(2);
  });

  it('knows neither an unknown id nor an enquiry without a booked call', () => {
    expect(store.cancelCall(randomUUID(), true, now)).toEqual({ status: 'unknown' });
    const plain = store.add(enquiry(), true, now);
    const request = store.add(call(), true, now);
    expect(store.cancelCall(plain.id, true, now)).toEqual({ status: 'unknown' });
    expect(store.cancelCall(request.id, true, now)).toEqual({ status: 'unknown' });
    expect(store.due(now).map((item) => item.mail)).toEqual(['agency', 'agency']);
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

  it('keeps the enquiries and mail of a version-2 store, and then takes bookings', () => {
    store.close();
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

    store = new EnquiryStore(path);
    expect(store.db.prepare('PRAGMA user_version').get()).toEqual({
      user_version: migrations.length,
    });
    expect(store.all()).toEqual([
      expect.objectContaining({
        id: 'old-1',
        idempotencyKey: 'key-old-000000000001',
        data: { project: 'Old' },
        mailedAt: new Date(1000).toISOString(),
        mailAttempts: 2,
      }),
      expect.objectContaining({ id: 'old-2', mailedAt: null, mailAttempts: 1 }),
    ]);
    expect(store.all().every((e) => e.call === undefined)).toBe(true);
    // The unsent mail became the agency e-mail of the new outbox.
    expect(store.due(now).map((item) => [item.enquiry.id, item.mail, item.attempts])).toEqual([
      ['old-2', 'agency', 1],
    ]);

    const booking = store.add(call(slot), true, now);
    expect(store.findById(booking.id)?.call).toEqual({
      start: slot,
      end: '2027-01-05T10:00:00Z',
      cancelledAt: null,
    });
    expect(() => store.add(call(slot), true, now)).toThrow(SlotTaken);
    expect(store.due(now).map((item) => [item.enquiry.id, item.mail])).toEqual([
      ['old-2', 'agency'],
      [booking.id, 'agency'],
      [booking.id, 'prospect'],
    ]);
  });
});
