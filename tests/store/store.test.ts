/**
 * The enquiry store's behaviour, one set of tests run against both implementations: SQLite (the
 * default) and PostgreSQL (DATABASE_URL). What only one of them has is in store-sqlite.test.ts and
 * store-postgres.test.ts.
 */
import { randomUUID } from 'node:crypto';
import type { Bookings } from '../../src/server/booking/calls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mailQueue } from '../support/mail-queue';
import type { Mail } from '../../src/server/mail/message';
import { DEFAULT_BOOKING_CAP, DEFAULT_NETWORK_CAP } from '../../src/server/config';
import { BookingCapReached, SlotTaken, type EnquiryStore } from '../../src/server/store/types';
import { call, enquiry, plus } from '../support/records';

/** A call of 30 minutes from `start`. */
const span = (start: string) => ({ start, end: plus(start, 30) });
import { backends, type Backend } from '../support/store-backends';

const slot = '2027-01-05T09:30:00Z';
const day = ['2027-01-05T00:00:00Z', '2027-01-06T00:00:00Z'] as const;
/** A time after every enquiry the tests store: all their mail is due. */
const later = Date.parse('2030-01-01T00:00:00Z');
/** Claims without a lease: what is not marked is due again at once (the lease has its own test). */
const noLease = 0;

describe.each(Object.keys(backends) as (keyof typeof backends)[])('the %s store', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  let bookings: Bookings;
  beforeEach(async () => {
    backend = await backends[kind]();
    store = backend.store;
    bookings = backend.bookings;
  });
  afterEach(() => backend.cleanup());

  const due = async (now = later) =>
    (await store.claimDue(now, 100, noLease)).map((item) => [item.enquiry!.id, item.kind]);

  describe('enquiries', () => {
    it('keeps what it stored across a reopen, and queues mail for all but spam', async () => {
      const kept = await bookings.commit(enquiry(), true);
      await bookings.commit(enquiry({ spam: true }), true);
      await bookings.commit(
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
        Array.from({ length: 50 }, (_, i) => bookings.commit(enquiry({ name: `n${i}` }), true)),
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
      const first = await bookings.commit(
        enquiry({ idempotencyKey: 'key-0000000000000001' }),
        true,
      );
      const again = await bookings.commit(
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
      await bookings.commit(enquiry({ idempotencyKey: 'key-0000000000000001' }), true);
      await bookings.commit(enquiry({ idempotencyKey: 'key-0000000000000002' }), true);
      await bookings.commit(enquiry(), true);
      await bookings.commit(enquiry(), true);
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
          bookings.commit(enquiry({ idempotencyKey: 'key-0000000000000003' }), true),
        ),
      );
      expect(new Set(stored.map((e) => e.id)).size).toBe(1);
      expect(await store.count()).toBe(1);
      expect(await due()).toHaveLength(1);
    });
  });

  describe('a booking', () => {
    it('is stored with its call, not cancelled, and found by id and by time', async () => {
      const stored = await bookings.commit(call(slot), false);
      expect(stored.call).toEqual({
        start: slot,
        end: '2027-01-05T10:00:00Z',
        cancelledAt: null,
        host: null,
        sequence: 0,
        moves: 0,
        confirmedAt: null,
        lapsedAt: null,
      });
      expect(await store.findById(stored.id)).toMatchObject({
        id: stored.id,
        kind: 'call',
        call: { start: slot, end: '2027-01-05T10:00:00Z', cancelledAt: null },
      });
      // By its reference as the desk shows it (the CLI's --cancel, --move): a LIKE's own
      // characters are no wildcards, and an empty beginning names no one.
      const other = await bookings.commit(enquiry(), false);
      expect((await store.findByReference(stored.id.slice(0, 8))).map((e) => e.id)).toEqual([
        stored.id,
      ]);
      expect((await store.findByReference(stored.id)).map((e) => e.id)).toEqual([stored.id]);
      expect(await store.findByReference('%')).toEqual([]);
      expect(await store.findByReference('________')).toEqual([]);
      expect(await store.findByReference('')).toEqual([]);
      expect((await store.findByReference(other.id)).map((e) => e.id)).toEqual([other.id]);
      expect(await store.bookedBetween(...day)).toEqual([
        { id: stored.id, start: slot, end: '2027-01-05T10:00:00Z', host: null },
      ]);
      // Only calls overlapping the interval.
      expect(await store.bookedBetween('2027-01-05T10:00:00Z', '2027-01-06T00:00:00Z')).toEqual([]);
      expect(
        await store.bookedBetween('2027-01-05T09:59:00Z', '2027-01-06T00:00:00Z'),
      ).toHaveLength(1);
    });

    it('leaves a plain call request without a call', async () => {
      const stored = await bookings.commit(call(), false);
      expect((await store.findById(stored.id))?.call).toBeUndefined();
      expect(await store.bookedBetween(...day)).toEqual([]);
      expect(await store.findById(randomUUID())).toBeUndefined();
      expect(await store.findById('not-an-id')).toBeUndefined();
    });

    it('of a time taken already, or overlapping one, is refused with SlotTaken', async () => {
      await bookings.commit(call(slot), false);
      await expect(bookings.commit(call(slot), false)).rejects.toThrow(SlotTaken);
      await expect(bookings.commit(call(plus(slot, 15)), false)).rejects.toThrow(SlotTaken);
      await expect(bookings.commit(call(plus(slot, -15)), false)).rejects.toThrow(SlotTaken);
      expect(await store.count()).toBe(1);
    });

    it('goes to the first of its hosts with no call then; with none free, SlotTaken', async () => {
      const hosts = ['anna', 'ben'];
      const first = await bookings.commit(call(slot, { call: { ...span(slot), hosts } }), false);
      const other = { email: 'grace@example.com', clientIp: '192.0.2.1' };
      const second = await bookings.commit(
        call(slot, { ...other, call: { ...span(plus(slot, 15)), hosts } }),
        false,
      );
      expect([first.call?.host, second.call?.host]).toEqual(['anna', 'ben']);
      await expect(
        bookings.commit(
          call(slot, {
            email: 'x@example.com',
            clientIp: '192.0.2.2',
            call: { ...span(slot), hosts },
          }),
          false,
        ),
      ).rejects.toThrow(SlotTaken);
      expect((await store.bookedBetween(...day)).map((b) => b.host)).toEqual(['anna', 'ben']);
      expect((await store.findById(second.id))?.call?.host).toBe('ben');
    });

    it('of no host holds every host, and is held by any', async () => {
      await bookings.commit(call(slot), false);
      await expect(
        bookings.commit(call(slot, { call: { ...span(slot), hosts: ['anna', 'ben'] } }), false),
      ).rejects.toThrow(SlotTaken);
    });

    it('adjacent to another, before or after it, is stored', async () => {
      await bookings.commit(call(slot), false);
      await bookings.commit(call(plus(slot, 30)), false);
      // Someone else's: one address may book only DEFAULT_BOOKING_CAP calls ahead.
      await bookings.commit(
        call(plus(slot, -30), { email: 'grace@example.com', clientIp: '192.0.2.1' }),
        false,
      );
      expect((await store.bookedBetween(...day)).map((b) => b.start)).toEqual([
        '2027-01-05T09:00:00Z',
        slot,
        '2027-01-05T10:00:00Z',
      ]);
    });

    it('of one time posted by many at once: one stored, the rest SlotTaken, the others kept', async () => {
      const results = await Promise.allSettled([
        ...Array.from({ length: 5 }, (_, i) =>
          bookings.commit(call(slot, { idempotencyKey: `key-booking-000000000${i}` }), true),
        ),
        bookings.commit(enquiry({ idempotencyKey: 'key-enquiry-0000000001' }), true),
      ]);
      const booked = results.slice(0, 5);
      expect(booked.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = booked.filter((r) => r.status === 'rejected');
      expect(rejected).toHaveLength(4);
      for (const r of rejected) expect(r.reason).toBeInstanceOf(SlotTaken);
      expect(results[5]!.status).toBe('fulfilled');
      expect((await store.findByKey('key-enquiry-0000000001'))?.kind).toBe('enquiry');
      expect(await store.count()).toBe(2);
      expect(await store.bookedBetween(...day)).toHaveLength(1);
    });

    it('posted twice with one key returns the one stored first, not SlotTaken', async () => {
      const first = await bookings.commit(
        call(slot, { idempotencyKey: 'key-0000000000000001' }),
        true,
      );
      const again = await bookings.commit(
        call(slot, { idempotencyKey: 'key-0000000000000001' }),
        true,
      );
      expect(again.id).toBe(first.id);
      const both = await Promise.all([
        bookings.commit(call(plus(slot, 60), { idempotencyKey: 'key-0000000000000002' }), true),
        bookings.commit(call(plus(slot, 60), { idempotencyKey: 'key-0000000000000002' }), true),
      ]);
      expect(both[1].id).toBe(both[0].id);
      expect(await store.count()).toBe(2);
    });
  });

  describe('a booking caught by the honeypot', () => {
    it('is kept without its call: it takes no time, and a real booking of that time is stored', async () => {
      const spam = await bookings.commit(call(slot, { spam: true }), true);
      expect(spam.call).toBeUndefined();
      expect(spam.spam).toBe(true);
      expect((await store.findById(spam.id))?.call).toBeUndefined();
      expect(await store.bookedBetween(...day)).toEqual([]);
      const real = await bookings.commit(call(slot), true);
      expect(real.call?.start).toBe(slot);
      expect(await store.bookedBetween(...day)).toEqual([
        { id: real.id, start: slot, end: '2027-01-05T10:00:00Z', host: null },
      ]);
      expect((await due()).map(([id]) => id)).toEqual([real.id, real.id]);
    });

    it('counts for no booking cap', async () => {
      for (let i = 0; i < DEFAULT_BOOKING_CAP + 1; i++)
        await bookings.commit(call(plus(slot, 60 * i), { spam: true }), false);
      for (let i = 0; i < DEFAULT_BOOKING_CAP; i++)
        await bookings.commit(call(plus(slot, 60 * i)), false);
      expect(await store.bookedBetween(...day)).toHaveLength(DEFAULT_BOOKING_CAP);
    });
  });

  describe('the booking cap', () => {
    // Far enough ahead to stay in the future, and a time long past.
    const ahead = '2099-03-02T10:00:00Z';
    const past = '2020-03-02T10:00:00Z';
    const at = (hours: number) => plus(ahead, 60 * hours);
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.fail('the booking was stored'),
        (error: unknown) => error,
      );

    it('refuses an address a third call ahead, storing nothing', async () => {
      expect(DEFAULT_BOOKING_CAP).toBe(2);
      await bookings.commit(call(at(0), { clientIp: '192.0.2.1' }), true);
      await bookings.commit(call(at(1), { clientIp: '192.0.2.2' }), true);
      const error = await refusal(bookings.commit(call(at(2), { clientIp: '192.0.2.3' }), true));
      expect(error).toBeInstanceOf(BookingCapReached);
      expect(error).toMatchObject({ limit: 'email', cap: 2 });
      expect(await store.count()).toBe(2);
      expect(await due()).toHaveLength(4);
      // Another address is not held up, nor a call request without a time from this one.
      await bookings.commit(
        call(at(2), { email: 'grace@example.com', clientIp: '192.0.2.3' }),
        true,
      );
      await bookings.commit(call(undefined, { clientIp: '192.0.2.4' }), true);
    });

    it('counts an address in any case as one', async () => {
      await bookings.commit(
        call(at(0), { email: 'Ada@Example.com', clientIp: '192.0.2.1' }),
        false,
      );
      await bookings.commit(
        call(at(1), { email: 'ada@example.com', clientIp: '192.0.2.2' }),
        false,
      );
      await expect(
        bookings.commit(call(at(2), { email: 'ADA@EXAMPLE.COM', clientIp: '192.0.2.3' }), false),
      ).rejects.toMatchObject({ limit: 'email' });
    });

    it('refuses a client a third call ahead, whatever the addresses', async () => {
      const from = (i: number) => ({ email: `person${i}@example.com`, clientIp: '203.0.113.9' });
      await bookings.commit(call(at(0), from(0)), false);
      await bookings.commit(call(at(1), from(1)), false);
      const error = await refusal(bookings.commit(call(at(2), from(2)), false));
      expect(error).toBeInstanceOf(BookingCapReached);
      expect(error).toMatchObject({ limit: 'client', cap: 2 });
      expect(await store.count()).toBe(2);
    });

    it('counts an IPv6 client by its /64, and a wider network (a /48, a /24) up to its own cap', async () => {
      expect(DEFAULT_NETWORK_CAP).toBe(6);
      const booked = async (hour: number, clientIp: string) =>
        bookings.commit(call(at(hour), { email: `p${hour}@example.com`, clientIp }), false);
      // One home connection's /64: two addresses of it are one client.
      await booked(0, '2001:db8:1:2::1');
      await booked(1, '2001:db8:1:2:ffff:ffff:ffff:fffe');
      expect(await refusal(booked(2, '2001:db8:1:2::abcd'))).toMatchObject({
        limit: 'client',
        cap: 2,
      });
      // Other /64s of its /48 book, up to six calls in all from the /48.
      for (let i = 0; i < 4; i++) await booked(3 + i, `2001:db8:1:${10 + i}::1`);
      expect(await refusal(booked(7, '2001:db8:1:ff::1'))).toMatchObject({
        limit: 'network',
        cap: 6,
      });
      // Nor does an IPv4 /24 hold more than six; another network is not held up.
      for (let i = 0; i < 6; i++) await booked(10 + i, `198.51.100.${i + 1}`);
      expect(await refusal(booked(16, '198.51.100.200'))).toMatchObject({ limit: 'network' });
      await booked(16, '2001:db8:2::1');
      await booked(17, '198.51.101.1');
      expect(await store.count()).toBe(14);
    });

    it('counts no cancelled call, and none past', async () => {
      const cancelled = await bookings.commit(call(at(0)), false);
      await bookings.cancelCall(cancelled.id, { queueMail: false });
      await bookings.commit(call(past), false);
      await bookings.commit(call(plus(past, 60)), false);
      await bookings.commit(call(at(1)), false);
      await bookings.commit(call(at(2)), false);
      await expect(bookings.commit(call(at(3)), false)).rejects.toThrow(BookingCapReached);
      expect(await store.count()).toBe(5);
    });

    it('answers a repeat of a booking with the one stored, even at the cap', async () => {
      await bookings.commit(call(at(0)), false);
      const second = await bookings.commit(
        call(at(1), { idempotencyKey: 'key-0000000000000001' }),
        false,
      );
      const again = await bookings.commit(
        call(at(1), { idempotencyKey: 'key-0000000000000001' }),
        false,
      );
      expect(again.id).toBe(second.id);
    });

    it('holds for bookings of one address posted at once to two processes', async () => {
      const other = backend.bookingsOver(await backend.open());
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          [bookings, other][i % 2]!.commit(call(at(i), { clientIp: `192.0.2.${i + 1}` }), true),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
      for (const r of results.filter((r) => r.status === 'rejected'))
        expect(r.reason).toBeInstanceOf(BookingCapReached);
      expect(await store.count()).toBe(2);
      expect(await store.bookedBetween(ahead, at(24))).toHaveLength(2);
    });

    it('holds for bookings of one client posted at once, with other enquiries alongside', async () => {
      const other = backend.bookingsOver(await backend.open());
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          [bookings, other][i % 2]!.commit(
            i % 3 === 0
              ? enquiry({ clientIp: '203.0.113.9' })
              : call(at(i), { email: `person${i}@example.com`, clientIp: '203.0.113.9' }),
            true,
          ),
        ),
      );
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused).toHaveLength(4);
      for (const r of refused) expect(r.reason).toMatchObject({ limit: 'client' });
      expect(await store.count()).toBe(6);
    });

    it('is the store’s option', async () => {
      const roomy = await backends[kind]({ bookingCap: 3 });
      try {
        for (let i = 0; i < 3; i++) await roomy.bookings.commit(call(at(i)), false);
        await expect(roomy.bookings.commit(call(at(3)), false)).rejects.toMatchObject({ cap: 3 });
        const open = await backends[kind]({ bookingCap: Infinity });
        try {
          for (let i = 0; i < 5; i++) await open.bookings.commit(call(at(i)), false);
        } finally {
          await open.cleanup();
        }
      } finally {
        await roomy.cleanup();
      }
    });
  });

  describe('confirming a call', () => {
    const now = Date.parse('2027-01-01T12:00:00Z');

    it('waits for its prospect, is confirmed once, and a move keeps it', async () => {
      const booking = await bookings.commit(call(slot), false);
      expect(booking.call?.confirmedAt).toBeNull();
      const first = await bookings.confirmCall(booking.id, now);
      const at = new Date(now).toISOString();
      expect(first).toMatchObject({ status: 'confirmed', enquiry: { call: { confirmedAt: at } } });
      // Again (a double tap): it says so, and keeps the first time.
      expect(await bookings.confirmCall(booking.id, now + 1000)).toMatchObject({
        status: 'already-confirmed',
        enquiry: { call: { confirmedAt: at } },
      });
      const moved = await bookings.moveCall(
        booking.id,
        { ...span(plus(slot, 60)), hosts: ['anna'], maxMoves: 3 },
        false,
        now,
      );
      expect(moved).toMatchObject({ status: 'moved', enquiry: { call: { confirmedAt: at } } });
      expect((await store.findById(booking.id))?.call?.confirmedAt).toBe(at);
    });

    it('stores a call confirmed at once when asked (e-mail off), and confirms no cancelled call', async () => {
      const at = await bookings.commit(
        call(slot, { call: { ...span(slot), confirmed: true } }),
        false,
      );
      expect(at.call?.confirmedAt).toBe(at.createdAt);
      expect((await store.findById(at.id))?.call?.confirmedAt).toBe(at.createdAt);
      const cancelled = await bookings.commit(call(plus(slot, 60)), false);
      await bookings.cancelCall(cancelled.id, { queueMail: false, now });
      expect(await bookings.confirmCall(cancelled.id, now)).toMatchObject({
        status: 'already-cancelled',
      });
      expect((await store.findById(cancelled.id))?.call?.confirmedAt).toBeNull();
      const plain = await bookings.commit(enquiry(), false);
      expect(await bookings.confirmCall(plain.id, now)).toEqual({ status: 'unknown' });
      expect(await bookings.confirmCall(randomUUID(), now)).toEqual({ status: 'unknown' });
    });
  });

  describe('the share of unconfirmed calls', () => {
    const ahead = '2099-03-02T10:00:00Z';
    const at = (hours: number) => plus(ahead, 60 * hours);
    /** A booking from its own address and network, waiting for confirmation unless `confirmed`. */
    const booking = (i: number, maxUnconfirmed: number | undefined, confirmed = false) =>
      call(at(i), {
        email: `p${i}@example.com`,
        clientIp: `10.${i}.0.1`,
        call: {
          ...span(at(i)),
          confirmed,
          ...(maxUnconfirmed !== undefined && { maxUnconfirmed }),
        },
      });

    it('refuses an unconfirmed booking past it, takes a confirmed one, and counts a confirmation', async () => {
      const first = await bookings.commit(booking(0, 2), false);
      await bookings.commit(booking(1, 2), false);
      const error = await bookings.commit(booking(2, 2), false).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BookingCapReached);
      expect(error).toMatchObject({ limit: 'unconfirmed', cap: 2 });
      // Nothing stored: the time stays free.
      expect(await store.bookedBetween(at(2), at(3))).toEqual([]);
      // A call confirmed at once (e-mail off) is not held up, nor is one with no such cap.
      await bookings.commit(booking(3, 2, true), false);
      await bookings.commit(booking(4, undefined), false);
      // Three wait now: one confirmed makes room for none (3 - 1 = 2, the cap)…
      await bookings.confirmCall(first.id);
      await expect(bookings.commit(booking(5, 2), false)).rejects.toMatchObject({
        limit: 'unconfirmed',
      });
      // … a cap of 3 makes room for one.
      await bookings.commit(booking(5, 3), false);
      expect(await store.count()).toBe(5);
    });

    it('holds for bookings posted at once to two processes', async () => {
      const other = backend.bookingsOver(await backend.open());
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => [bookings, other][i % 2]!.commit(booking(i, 3), true)),
      );
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused).toHaveLength(7);
      for (const r of refused) expect(r.reason).toMatchObject({ limit: 'unconfirmed' });
      expect(await store.bookedBetween(ahead, at(24))).toHaveLength(3);
    });
  });

  describe('the alert about the pace of bookings', () => {
    const rule = { perHour: 2, quietMs: 6 * 3_600_000 };
    const hour = 3_600_000;

    it('is claimed past the hour’s rule, by one process, then not again for 6 hours', async () => {
      const other = backend.bookingsOver(await backend.open());
      // Calls of times past (which no cap counts), booked now.
      const past = '2020-03-02T10:00:00Z';
      for (let i = 0; i < 2; i++) await bookings.commit(call(plus(past, 60 * i)), false);
      // Two in the hour: not more than the rule.
      expect(await bookings.claimBookingAlert(rule)).toBeUndefined();
      await bookings.commit(call(plus(past, 120)), false);
      await bookings.commit(enquiry(), false);
      const now = Date.now();
      const claims = await Promise.all([
        bookings.claimBookingAlert(rule, now),
        other.claimBookingAlert(rule, now),
        bookings.claimBookingAlert(rule, now + 1),
      ]);
      expect(claims.filter((claim) => claim !== undefined)).toEqual([3]);
      // The alert's time: `now`, or `now + 1` if that claim got there first.
      const at = claims[2] === undefined ? now : now + 1;
      // Still too fast ten minutes later: quiet. (A rule of -1 is met by any hour, an empty one too.)
      const always = { ...rule, perHour: -1 };
      expect(await other.claimBookingAlert(rule, at + 10 * 60_000)).toBeUndefined();
      expect(await other.claimBookingAlert(always, at + 6 * hour - 1)).toBeUndefined();
      // Six hours after the alert, the next one; its hour holds none of these calls.
      expect(await other.claimBookingAlert(always, at + 6 * hour)).toBe(0);
      expect(await bookings.claimBookingAlert(always, at + 6 * hour + 1)).toBeUndefined();
    });
  });

  describe('the mail a booking queues', () => {
    it('is one e-mail to the agency and one to the prospect', async () => {
      const booking = await bookings.commit(call(slot), true);
      const request = await bookings.commit(call(), true);
      expect(await due()).toEqual([
        [booking.id, 'agency'],
        [booking.id, 'prospect'],
        [request.id, 'agency'],
      ]);
      const [, prospect] = await store.claimDue(later, 100, noLease);
      expect(prospect!.enquiry!.call?.start).toBe(slot);
    });

    it('is none without queueMail, or for spam', async () => {
      await bookings.commit(call(slot), false);
      await bookings.commit(call(plus(slot, 60), { spam: true }), true);
      expect(await due()).toEqual([]);
    });

    it('is marked sent one entry at a time; mailedAt follows the agency e-mail only', async () => {
      const booking = await bookings.commit(call(slot), true);
      const [agency, prospect] = await store.claimDue(later, 100, noLease);
      expect([agency!.kind, prospect!.kind]).toEqual(['agency', 'prospect']);

      await store.markDone(prospect!.id, later + 1000);
      expect((await due(later + 2000)).map(([, mail]) => mail)).toEqual(['agency']);
      expect((await store.all())[0]).toMatchObject({
        id: booking.id,
        mailedAt: null,
        mailAttempts: 0,
      });

      await store.markDone(agency!.id, later + 3000);
      expect(await due(later + 4000)).toEqual([]);
      expect((await store.all())[0]).toMatchObject({
        mailedAt: new Date(later + 3000).toISOString(),
        mailAttempts: 1,
      });
    });

    it('that failed is due again at its next attempt, not before', async () => {
      await bookings.commit(enquiry(), true);
      const [item] = await store.claimDue(later, 100, noLease);
      await store.markRetry(item!.id, later + 60_000, 'ECONNREFUSED');
      expect(await due(later + 59_000)).toEqual([]);
      const [again] = await store.claimDue(later + 60_000, 100, noLease);
      expect(again).toMatchObject({ id: item!.id, attempts: 1 });
    });
  });

  describe('an undeliverable e-mail', () => {
    it('is never claimed again, is counted, and its reason is the enquiry’s mailFailure', async () => {
      const booking = await bookings.commit(call(slot), true);
      const plain = await bookings.commit(enquiry(), true);
      expect(await store.countFailed()).toBe(0);
      const [agency, prospect, other] = await store.claimDue(later, 100, 60_000);
      await store.markFailed(agency!.id, '550 5.1.1 mailbox unavailable', later);
      await store.markFailed(prospect!.id, 'the e-mail could not be made', later);
      // Neither when its claim would have ended, nor when given back.
      await store.release([agency!, prospect!, other!]);
      expect(await due(later + 3_600_000)).toEqual([[plain.id, 'agency']]);
      expect(await store.countFailed()).toBe(2);
      const failed = await store.findById(booking.id);
      expect(failed).toMatchObject({
        mailedAt: null,
        mailAttempts: 1,
        mailFailure: 'agency: 550 5.1.1 mailbox unavailable',
      });
      expect((await store.all()).map((e) => e.mailFailure)).toEqual([
        'agency: 550 5.1.1 mailbox unavailable',
        null,
      ]);
      // A failure worth a retry is no mailFailure.
      await store.markRetry(other!.id, later, 'ECONNREFUSED');
      expect((await store.findById(plain.id))?.mailFailure).toBeNull();
      expect(await store.countFailed()).toBe(2);
    });

    it('of any kind is the enquiry’s mailFailure, named by its kind', async () => {
      const booking = await bookings.commit(call(slot), true);
      expect(booking.mailFailure).toBeNull();
      const [, prospect] = await store.claimDue(later, 100, noLease);
      await store.markFailed(prospect!.id, '550 no such user', later);
      expect((await store.findById(booking.id))?.mailFailure).toBe('prospect: 550 no such user');
      expect(await store.countFailed()).toBe(1);
    });
  });

  describe('a claim on jobs', () => {
    it('holds an entry for its lease: no one else gets it until then, or until it is given back', async () => {
      const a = await bookings.commit(enquiry(), true);
      const b = await bookings.commit(enquiry(), true);
      const other = await backend.open();
      const claimed = await store.claimDue(later, 1, 60_000);
      expect(claimed.map((item) => item.enquiry!.id)).toEqual([a.id]);
      // Another process (or this one) sees only what is not claimed.
      expect((await other.claimDue(later, 100, 60_000)).map((item) => item.enquiry!.id)).toEqual([
        b.id,
      ]);
      expect(await other.claimDue(later + 59_000, 100, 60_000)).toEqual([]);
      // A claim that was not marked (its process died) ends with its lease.
      const [takenOver] = await other.claimDue(later + 60_000, 100, 60_000);
      expect(takenOver?.enquiry!.id).toBe(a.id);
      // The first process, stopping, gives back what it claimed: not the claim taken over since,
      // which a third would otherwise run beside the second.
      await store.release(claimed);
      expect(await store.claimDue(later + 60_000, 1, 60_000)).toEqual([]);
      await other.release([takenOver!]);
      expect((await store.claimDue(later + 60_000, 1, 60_000))[0]?.enquiry!.id).toBe(a.id);
    });
  });

  describe('cancelCall', () => {
    const now = Date.parse('2027-01-01T12:00:00Z');

    it('cancels a booking once, then says it is cancelled already', async () => {
      const booking = await bookings.commit(call(slot), false);
      const cancelledAt = new Date(now + 60_000).toISOString();
      const first = await bookings.cancelCall(booking.id, { queueMail: false, now: now + 60_000 });
      expect(first).toMatchObject({ status: 'cancelled', enquiry: { id: booking.id } });
      expect(first.status === 'cancelled' && first.enquiry.call?.cancelledAt).toBe(cancelledAt);
      expect((await store.findById(booking.id))?.call?.cancelledAt).toBe(cancelledAt);

      const second = await bookings.cancelCall(booking.id, {
        queueMail: false,
        now: now + 120_000,
      });
      expect(second.status).toBe('already-cancelled');
      // The first cancellation's time is kept.
      expect(second.status === 'already-cancelled' && second.enquiry.call?.cancelledAt).toBe(
        cancelledAt,
      );
    });

    it('frees the slot for a new booking, which then holds it', async () => {
      const booking = await bookings.commit(call(slot), false);
      await bookings.cancelCall(booking.id, { queueMail: false, now });
      expect(await store.bookedBetween(...day)).toEqual([]);
      const again = await bookings.commit(call(slot, { name: 'Someone Else' }), false);
      expect(again.id).not.toBe(booking.id);
      expect(await store.bookedBetween(...day)).toEqual([
        { id: again.id, start: slot, end: '2027-01-05T10:00:00Z', host: null },
      ]);
      await expect(bookings.commit(call(slot), false)).rejects.toThrow(SlotTaken);
    });

    it('queues a cancellation to the agency and to the prospect, once', async () => {
      const booking = await bookings.commit(call(slot), true);
      for (const item of await store.claimDue(later, 100, noLease)) {
        await store.markDone(item.id, later);
      }
      await bookings.cancelCall(booking.id, { queueMail: true, now });
      expect(await due()).toEqual([
        [booking.id, 'agency-cancel'],
        [booking.id, 'prospect-cancel'],
      ]);
      await bookings.cancelCall(booking.id, { queueMail: true, now: now + 1000 });
      expect(await due()).toHaveLength(2);
    });

    it('knows neither an unknown id nor an enquiry without a booked call', async () => {
      expect(await bookings.cancelCall(randomUUID(), { queueMail: true, now })).toEqual({
        status: 'unknown',
      });
      const plain = await bookings.commit(enquiry(), true);
      const request = await bookings.commit(call(), true);
      expect(await bookings.cancelCall(plain.id, { queueMail: true, now })).toEqual({
        status: 'unknown',
      });
      expect(await bookings.cancelCall(request.id, { queueMail: true, now })).toEqual({
        status: 'unknown',
      });
      expect((await due()).map(([, mail]) => mail)).toEqual(['agency', 'agency']);
    });
  });

  describe('the queue of jobs', () => {
    it('retries while the SMTP server is down and sends each e-mail once when it is back', async () => {
      const ids = [
        (await bookings.commit(enquiry(), true)).id,
        (await bookings.commit(enquiry({ name: 'Ada' }), true)).id,
      ];
      let up = false;
      const sent: Mail[] = [];
      const jobs = mailQueue({
        store,
        from: 'a@b.co',
        to: 'c@d.co',
        content: { brand: 'Agency', email: 'hello@agency.example', hosts: [] },
        pollMs: 10,
        retryBaseMs: 20,
        sender: {
          async send(mail) {
            if (!up) throw new Error('ECONNREFUSED');
            sent.push(mail);
          },
        },
      });
      await jobs.drain();
      expect(sent).toHaveLength(0);
      expect((await store.all())[0]!.mailAttempts).toBe(1);
      up = true;
      jobs.start();
      await expect.poll(() => sent.length).toBe(2);
      await new Promise((r) => setTimeout(r, 100));
      await jobs.stop();
      expect(sent.map((m) => m.messageId).sort()).toEqual(
        ids.map((id) => `<${id}@enquiries.invalid>`).sort(),
      );
      expect((await store.all()).every((e) => e.mailedAt !== null)).toBe(true);
    });

    it('stopped in the middle of a send, gives back what it holds: another process sends it at once, not when its lease ends', async () => {
      const { id } = await bookings.commit(enquiry(), true);
      let sending!: () => void;
      const started = new Promise<void>((resolve) => (sending = resolve));
      const jobs = mailQueue({
        store,
        from: 'a@b.co',
        to: 'c@d.co',
        content: { brand: 'Agency', email: 'hello@agency.example', hosts: [] },
        pollMs: 10,
        // An SMTP server that never answers.
        sender: { send: () => (sending(), new Promise(() => {})) },
      });
      jobs.start();
      await started;
      // Claimed under a lease of minutes: nobody else may take it meanwhile.
      expect(await store.claimDue(Date.now(), 100)).toEqual([]);
      await jobs.stop(50);
      const [item] = await (await backend.open()).claimDue(Date.now(), 100);
      expect(item?.enquiry!.id).toBe(id);
    });

    it('run by two processes sends every e-mail once', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 30; i++)
        ids.add((await bookings.commit(enquiry({ name: `n${i}` }), true)).id);
      const sent: string[] = [];
      const queues = [store, await backend.open()].map((shared) =>
        mailQueue({
          store: shared,
          from: 'a@b.co',
          to: 'c@d.co',
          content: { brand: 'Agency', email: 'hello@agency.example', hosts: [] },
          pollMs: 5,
          sender: {
            async send(mail) {
              await new Promise((r) => setTimeout(r, 1));
              sent.push(mail.messageId);
            },
          },
        }),
      );
      for (const queue of queues) queue.start();
      await expect.poll(() => sent.length).toBe(30);
      await new Promise((r) => setTimeout(r, 100));
      for (const queue of queues) await queue.stop();
      expect(new Set(sent).size).toBe(30);
      expect(sent).toHaveLength(30);
    });
  });
});
