/**
 * The enquiry store's behaviour, one set of tests run against both implementations: SQLite (the
 * default) and PostgreSQL (DATABASE_URL). What only one of them has is in store-sqlite.test.ts and
 * store-postgres.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox, type Mail } from '../../src/server/mail';
import { SlotTaken, type EnquiryStore } from '../../src/server/store';
import { backends, call, enquiry, plus, type Backend } from '../store-backends';

const slot = '2027-01-05T09:30:00Z';
const day = ['2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z'] as const;
/** A time after every enquiry the tests store: all their mail is due. */
const later = Date.parse('2030-01-01T00:00:00Z');
/** Claims without a lease: what is not marked is due again at once (the lease has its own test). */
const noLease = 0;

describe.each(Object.keys(backends) as (keyof typeof backends)[])('the %s store', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  beforeEach(async () => {
    backend = await backends[kind]();
    store = backend.store;
  });
  afterEach(() => backend.cleanup());

  const due = async (now = later) =>
    (await store.claimDue(now, 100, noLease)).map((item) => [item.enquiry.id, item.mail]);

  describe('enquiries', () => {
    it('keeps what it stored across a reopen, and queues mail for all but spam', async () => {
      const kept = await store.commit(enquiry(), true);
      await store.commit(enquiry({ spam: true }), true);
      await store.commit(
        enquiry({ kind: 'call', data: { name: 'Ada', email: 'a@b.co', message: 'Hi' } }),
        false,
      );
      expect(await due()).toEqual([[kept.id, 'agency']]);
      await store.close();
      const reopened = await backend.open();
      const all = await reopened.all();
      expect(all).toHaveLength(3);
      expect(all[0]).toMatchObject({
        id: kept.id,
        name: 'Grace Hopper',
        spam: false,
        mailedAt: null,
        createdAt: kept.createdAt,
      });
      expect(all[0]!.data.service).toEqual(['Web Development', 'Technical Consultancy']);
      expect(all[1]!.spam).toBe(true);
      expect(all[2]!.kind).toBe('call');
      expect(await reopened.count()).toBe(3);
    });

    it('stores many that arrive together, each once, each answered after its commit', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.commit(enquiry({ name: `n${i}` }), true)),
      );
      expect(new Set(results.map((r) => r.id)).size).toBe(50);
      expect(await store.count()).toBe(50);
      expect(await due()).toHaveLength(50);
    });

    it('tells a writable store from a read-only one', async () => {
      expect(await store.isWritable()).toBe(true);
      const readOnly = await backend.open({ readOnly: true });
      expect(await readOnly.isWritable()).toBe(false);
      expect(await readOnly.count()).toBe(0);
    });
  });

  describe('idempotency keys', () => {
    it('store an enquiry once per key, and answer a repeat with the one stored first', async () => {
      const first = await store.commit(enquiry({ idempotencyKey: 'key-0000000000000001' }), true);
      const again = await store.commit(
        enquiry({ idempotencyKey: 'key-0000000000000001', name: 'Someone Else' }),
        true,
      );
      expect(again.id).toBe(first.id);
      expect(again.name).toBe('Grace Hopper');
      expect(await store.count()).toBe(1);
      expect(await due()).toHaveLength(1);
      expect((await store.findByKey('key-0000000000000001'))?.id).toBe(first.id);
      expect(await store.findByKey('key-0000000000000002')).toBeUndefined();
    });

    it('keep other keys, and enquiries without a key, apart', async () => {
      await store.commit(enquiry({ idempotencyKey: 'key-0000000000000001' }), true);
      await store.commit(enquiry({ idempotencyKey: 'key-0000000000000002' }), true);
      await store.commit(enquiry(), true);
      await store.commit(enquiry(), true);
      expect((await store.all()).map((e) => e.idempotencyKey)).toEqual([
        'key-0000000000000001',
        'key-0000000000000002',
        undefined,
        undefined,
      ]);
    });

    it('hold for posts of one key that arrive together', async () => {
      const stored = await Promise.all(
        Array.from({ length: 5 }, () =>
          store.commit(enquiry({ idempotencyKey: 'key-0000000000000003' }), true),
        ),
      );
      expect(new Set(stored.map((e) => e.id)).size).toBe(1);
      expect(await store.count()).toBe(1);
      expect(await due()).toHaveLength(1);
    });
  });

  describe('a booking', () => {
    it('is stored with its call, not cancelled, and found by id and by time', async () => {
      const stored = await store.commit(call(slot), false);
      expect(stored.call).toEqual({ start: slot, end: '2027-01-05T10:00:00Z', cancelledAt: null });
      expect(await store.findById(stored.id)).toMatchObject({
        id: stored.id,
        kind: 'call',
        call: { start: slot, end: '2027-01-05T10:00:00Z', cancelledAt: null },
      });
      expect(await store.bookedBetween(...day)).toEqual([
        { start: slot, end: '2027-01-05T10:00:00Z' },
      ]);
      // Only calls overlapping the interval.
      expect(await store.bookedBetween('2027-01-05T10:00:00Z', '2027-01-06T00:00:00Z')).toEqual([]);
      expect(
        await store.bookedBetween('2027-01-05T09:59:00Z', '2027-01-06T00:00:00Z'),
      ).toHaveLength(1);
    });

    it('leaves a plain call request without a call', async () => {
      const stored = await store.commit(call(), false);
      expect((await store.findById(stored.id))?.call).toBeUndefined();
      expect(await store.bookedBetween(...day)).toEqual([]);
      expect(await store.findById(randomUUID())).toBeUndefined();
      expect(await store.findById('not-an-id')).toBeUndefined();
    });

    it('of a time taken already, or overlapping one, is refused with SlotTaken', async () => {
      await store.commit(call(slot), false);
      await expect(store.commit(call(slot), false)).rejects.toThrow(SlotTaken);
      await expect(store.commit(call(plus(slot, 15)), false)).rejects.toThrow(SlotTaken);
      await expect(store.commit(call(plus(slot, -15)), false)).rejects.toThrow(SlotTaken);
      expect(await store.count()).toBe(1);
    });

    it('adjacent to another, before or after it, is stored', async () => {
      await store.commit(call(slot), false);
      await store.commit(call(plus(slot, 30)), false);
      await store.commit(call(plus(slot, -30)), false);
      expect((await store.bookedBetween(...day)).map((b) => b.start)).toEqual([
        '2027-01-05T09:00:00Z',
        slot,
        '2027-01-05T10:00:00Z',
      ]);
    });

    it('of one time posted by many at once: one stored, the rest SlotTaken, the others kept', async () => {
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
      expect(results[5]!.status).toBe('fulfilled');
      expect((await store.findByKey('key-enquiry-0000000001'))?.kind).toBe('enquiry');
      expect(await store.count()).toBe(2);
      expect(await store.bookedBetween(...day)).toHaveLength(1);
    });

    it('posted twice with one key returns the one stored first, not SlotTaken', async () => {
      const first = await store.commit(
        call(slot, { idempotencyKey: 'key-0000000000000001' }),
        true,
      );
      const again = await store.commit(
        call(slot, { idempotencyKey: 'key-0000000000000001' }),
        true,
      );
      expect(again.id).toBe(first.id);
      const both = await Promise.all([
        store.commit(call(plus(slot, 60), { idempotencyKey: 'key-0000000000000002' }), true),
        store.commit(call(plus(slot, 60), { idempotencyKey: 'key-0000000000000002' }), true),
      ]);
      expect(both[1].id).toBe(both[0].id);
      expect(await store.count()).toBe(2);
    });
  });

  describe('the mail a booking queues', () => {
    it('is one e-mail to the agency and one to the prospect', async () => {
      const booking = await store.commit(call(slot), true);
      const request = await store.commit(call(), true);
      expect(await due()).toEqual([
        [booking.id, 'agency'],
        [booking.id, 'prospect'],
        [request.id, 'agency'],
      ]);
      const [, prospect] = await store.claimDue(later, 100, noLease);
      expect(prospect!.enquiry.call?.start).toBe(slot);
    });

    it('is none without queueMail, or for spam', async () => {
      await store.commit(call(slot), false);
      await store.commit(call(plus(slot, 60), { spam: true }), true);
      expect(await due()).toEqual([]);
    });

    it('is marked sent one entry at a time; mailedAt follows the agency e-mail only', async () => {
      const booking = await store.commit(call(slot), true);
      const [agency, prospect] = await store.claimDue(later, 100, noLease);
      expect([agency!.mail, prospect!.mail]).toEqual(['agency', 'prospect']);

      await store.markSent(prospect!.id, later + 1000);
      expect((await due(later + 2000)).map(([, mail]) => mail)).toEqual(['agency']);
      expect((await store.all())[0]).toMatchObject({
        id: booking.id,
        mailedAt: null,
        mailAttempts: 0,
      });

      await store.markSent(agency!.id, later + 3000);
      expect(await due(later + 4000)).toEqual([]);
      expect((await store.all())[0]).toMatchObject({
        mailedAt: new Date(later + 3000).toISOString(),
        mailAttempts: 1,
      });
    });

    it('that failed is due again at its next attempt, not before', async () => {
      await store.commit(enquiry(), true);
      const [item] = await store.claimDue(later, 100, noLease);
      await store.markFailed(item!.id, later + 60_000, 'ECONNREFUSED');
      expect(await due(later + 59_000)).toEqual([]);
      const [again] = await store.claimDue(later + 60_000, 100, noLease);
      expect(again).toMatchObject({ id: item!.id, attempts: 1 });
    });
  });

  describe('a claim on the outbox', () => {
    it('holds an entry for its lease: no one else gets it until then, or until it is given back', async () => {
      const a = await store.commit(enquiry(), true);
      const b = await store.commit(enquiry(), true);
      const other = await backend.open();
      const claimed = await store.claimDue(later, 1, 60_000);
      expect(claimed.map((item) => item.enquiry.id)).toEqual([a.id]);
      // Another process (or this one) sees only what is not claimed.
      expect((await other.claimDue(later, 100, 60_000)).map((item) => item.enquiry.id)).toEqual([
        b.id,
      ]);
      expect(await other.claimDue(later + 59_000, 100, 60_000)).toEqual([]);
      // A claim that was not marked (its process died) ends with its lease.
      const [takenOver] = await other.claimDue(later + 60_000, 100, 60_000);
      expect(takenOver?.enquiry.id).toBe(a.id);
      await other.release([takenOver!.id]);
      expect((await store.claimDue(later + 60_000, 1, 60_000))[0]?.enquiry.id).toBe(a.id);
    });
  });

  describe('cancelCall', () => {
    const now = Date.parse('2027-01-01T12:00:00Z');

    it('cancels a booking once, then says it is cancelled already', async () => {
      const booking = await store.commit(call(slot), false);
      const cancelledAt = new Date(now + 60_000).toISOString();
      const first = await store.cancelCall(booking.id, false, now + 60_000);
      expect(first).toMatchObject({ status: 'cancelled', enquiry: { id: booking.id } });
      expect(first.status === 'cancelled' && first.enquiry.call?.cancelledAt).toBe(cancelledAt);
      expect((await store.findById(booking.id))?.call?.cancelledAt).toBe(cancelledAt);

      const second = await store.cancelCall(booking.id, false, now + 120_000);
      expect(second.status).toBe('already');
      // The first cancellation's time is kept.
      expect(second.status === 'already' && second.enquiry.call?.cancelledAt).toBe(cancelledAt);
    });

    it('frees the slot for a new booking, which then holds it', async () => {
      const booking = await store.commit(call(slot), false);
      await store.cancelCall(booking.id, false, now);
      expect(await store.bookedBetween(...day)).toEqual([]);
      const again = await store.commit(call(slot, { name: 'Someone Else' }), false);
      expect(again.id).not.toBe(booking.id);
      expect(await store.bookedBetween(...day)).toEqual([
        { start: slot, end: '2027-01-05T10:00:00Z' },
      ]);
      await expect(store.commit(call(slot), false)).rejects.toThrow(SlotTaken);
    });

    it('queues a cancellation to the agency and to the prospect, once', async () => {
      const booking = await store.commit(call(slot), true);
      for (const item of await store.claimDue(later, 100, noLease)) {
        await store.markSent(item.id, later);
      }
      await store.cancelCall(booking.id, true, now);
      expect(await due()).toEqual([
        [booking.id, 'agency-cancel'],
        [booking.id, 'prospect-cancel'],
      ]);
      await store.cancelCall(booking.id, true, now + 1000);
      expect(await due()).toHaveLength(2);
    });

    it('knows neither an unknown id nor an enquiry without a booked call', async () => {
      expect(await store.cancelCall(randomUUID(), true, now)).toEqual({ status: 'unknown' });
      const plain = await store.commit(enquiry(), true);
      const request = await store.commit(call(), true);
      expect(await store.cancelCall(plain.id, true, now)).toEqual({ status: 'unknown' });
      expect(await store.cancelCall(request.id, true, now)).toEqual({ status: 'unknown' });
      expect((await due()).map(([, mail]) => mail)).toEqual(['agency', 'agency']);
    });
  });

  describe('the outbox', () => {
    it('retries while the SMTP server is down and sends each e-mail once when it is back', async () => {
      const ids = [
        (await store.commit(enquiry(), true)).id,
        (await store.commit(enquiry({ name: 'Ada' }), true)).id,
      ];
      let up = false;
      const sent: Mail[] = [];
      const outbox = new Outbox({
        store,
        from: 'a@b.co',
        to: 'c@d.co',
        pollMs: 10,
        retryBaseMs: 20,
        sender: {
          async send(mail) {
            if (!up) throw new Error('ECONNREFUSED');
            sent.push(mail);
          },
        },
      });
      await outbox.drain();
      expect(sent).toHaveLength(0);
      expect((await store.all())[0]!.mailAttempts).toBe(1);
      up = true;
      outbox.start();
      await expect.poll(() => sent.length, { timeout: 5000 }).toBe(2);
      await new Promise((r) => setTimeout(r, 100));
      await outbox.stop();
      expect(sent.map((m) => m.messageId).sort()).toEqual(
        ids.map((id) => `<${id}@enquiries.invalid>`).sort(),
      );
      expect((await store.all()).every((e) => e.mailedAt !== null)).toBe(true);
    });

    it('run by two processes sends every e-mail once', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 30; i++)
        ids.add((await store.commit(enquiry({ name: `n${i}` }), true)).id);
      const sent: string[] = [];
      const outboxes = [store, await backend.open()].map(
        (shared) =>
          new Outbox({
            store: shared,
            from: 'a@b.co',
            to: 'c@d.co',
            pollMs: 5,
            sender: {
              async send(mail) {
                await new Promise((r) => setTimeout(r, 1));
                sent.push(mail.messageId);
              },
            },
          }),
      );
      for (const outbox of outboxes) outbox.start();
      await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(30);
      await new Promise((r) => setTimeout(r, 100));
      for (const outbox of outboxes) await outbox.stop();
      expect(new Set(sent).size).toBe(30);
      expect(sent).toHaveLength(30);
    });
  });
});
