/**
 * A booked call after it is booked, on both stores: its reminders (due their lead before the call,
 * skipped when booked inside it, dropped when it moves or is cancelled), a move (one transaction:
 * the old time free, the new one taken by its host or another, the e-mails of the old time dropped
 * and the move's queued; none to the time it has), no cancel once it has begun, its release when
 * not confirmed in time (BOOKING_CONFIRM_MINUTES), and the queue of jobs sending them by a clock the test
 * controls.
 */
import type { Bookings } from '../../src/server/booking/calls';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sweepUnconfirmed } from '../../src/server/booking/lapse';
import { mailQueue } from '../support/mail-queue';
import type { Mail } from '../../src/server/mail/message';
import type { CallMove } from '../../src/server/booking/rules';
import {
  BookingCapReached,
  SlotTaken,
  type EnquiryStore,
  type NewEnquiry,
} from '../../src/server/store/types';
import { ahead, call, mailCallOf, plus } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

const minute = 60_000;
const slot = ahead('2027-01-05T09:30:00Z');
const at = (iso: string) => Date.parse(iso);
/** When the booking's own e-mails are due (they are queued at the real time, before this). */
const booked = at(ahead('2027-01-01T12:00:00Z'));
const noLease = 0;

/** A booking of `start` that hosts may take, in order, reminded 24 h and 1 h before. */
const booking = (
  start: string,
  hosts: string[] = ['anna'],
  reminders = [24 * 60, 60],
  overrides: Partial<NewEnquiry> = {},
) => call(start, { call: { start, end: plus(start, 30), hosts, reminders }, ...overrides });

/** A move to `start`, which hosts may take there, at most 3 moves. */
const to = (
  start: string,
  hosts: string[] = ['anna'],
  extra: Partial<CallMove> = {},
): CallMove => ({
  start,
  end: plus(start, 30),
  hosts,
  reminders: [24 * 60, 60],
  maxMoves: 3,
  ...extra,
});

describe.each(Object.keys(backends) as (keyof typeof backends)[])('the %s store', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  let bookings: Bookings;
  beforeEach(async () => {
    // No booking cap: the tests book many calls of one address.
    backend = await backends[kind]({ bookingCap: Infinity });
    store = backend.store;
    bookings = backend.bookings;
  });
  afterEach(() => backend.cleanup());

  /** What is due at `now`: [kind, sequence, start, reminder lead], and each claimed is marked sent. */
  const sendDue = async (now: number) => {
    const items = await store.claimDue(now, 100, noLease);
    for (const item of items) await store.markDone(item.id, now);
    return items.map((item) => [
      item.kind,
      mailCallOf(item)?.sequence,
      mailCallOf(item)?.start,
      mailCallOf(item)?.remindMinutes,
    ]);
  };

  describe('reminders', () => {
    it('are queued with a booking, to the prospect and the host, each due its lead before the call', async () => {
      await bookings.commit(booking(slot), true);
      expect(await sendDue(booked)).toEqual([
        ['agency', 0, slot, undefined],
        ['prospect', 0, slot, undefined],
        ['host', 0, slot, undefined],
      ]);
      expect(await sendDue(at(slot) - 24 * 60 * minute - 1)).toEqual([]);
      expect(await sendDue(at(slot) - 24 * 60 * minute)).toEqual([
        ['prospect-reminder', 0, slot, 1440],
        ['host-reminder', 0, slot, 1440],
      ]);
      expect(await sendDue(at(slot) - 61 * minute)).toEqual([]);
      expect(await sendDue(at(slot) - 60 * minute)).toEqual([
        ['prospect-reminder', 0, slot, 60],
        ['host-reminder', 0, slot, 60],
      ]);
      expect(await sendDue(at(slot))).toEqual([]);
    });

    it('are skipped when the call is booked inside their lead, not sent late', async () => {
      // In two hours: the 24-hour reminder's time has passed already; the 1-hour one is ahead.
      const soon = new Date(Date.now() + 120 * minute).toISOString().replace(/\.\d+Z$/, 'Z');
      await bookings.commit(booking(soon), true);
      const all = await sendDue(at(soon));
      expect(all.filter(([mail]) => String(mail).endsWith('-reminder'))).toEqual([
        ['prospect-reminder', 0, soon, 60],
        ['host-reminder', 0, soon, 60],
      ]);
    });

    it('are skipped when they would come within 15 minutes of the booking, which has just said the same', async () => {
      const at24h10m = new Date(Date.now() + (24 * 60 + 10) * minute)
        .toISOString()
        .replace(/\.\d+Z$/, 'Z');
      await bookings.commit(booking(at24h10m), true);
      const reminders = (await sendDue(at(at24h10m))).filter(([mail]) =>
        String(mail).endsWith('-reminder'),
      );
      expect(reminders.map(([, , , lead]) => lead)).toEqual([60, 60]);
    });

    it('go to the prospect alone for a call with no host', async () => {
      await bookings.commit(booking(slot, [], [60]), true);
      expect((await sendDue(at(slot) - 60 * minute)).map(([mail]) => mail)).toEqual([
        'agency',
        'prospect',
        'prospect-reminder',
      ]);
    });

    it('are never sent for a cancelled call', async () => {
      const { id } = await bookings.commit(booking(slot), true);
      await sendDue(booked);
      await bookings.cancelCall(id, { queueMail: true, now: booked + minute });
      expect((await sendDue(at(slot))).map(([mail, sequence]) => [mail, sequence])).toEqual([
        ['agency-cancel', 1],
        ['prospect-cancel', 1],
        ['host-cancel', 1],
      ]);
    });
  });

  describe('moveCall', () => {
    const later = ahead('2027-01-07T14:00:00Z');

    it('moves the call: the old time free, the new one held by its host, the sequence and moves up', async () => {
      const { id } = await bookings.commit(booking(slot, ['anna', 'ben']), true);
      const moved = await bookings.moveCall(id, to(later, ['ben', 'anna']), true, booked);
      expect(moved).toMatchObject({
        status: 'moved',
        previous: { start: slot, end: plus(slot, 30), host: 'anna' },
        enquiry: { call: { start: later, host: 'anna', sequence: 1, moves: 1 } },
      });
      expect((await store.findById(id))?.call).toMatchObject({
        start: later,
        end: plus(later, 30),
        host: 'anna',
        sequence: 1,
        moves: 1,
        movedFrom: slot,
        cancelledAt: null,
      });
      expect(
        await store.bookedBetween(ahead('2027-01-05T00:00:00Z'), ahead('2027-01-08T00:00:00Z')),
      ).toEqual([{ id, start: later, end: plus(later, 30), host: 'anna' }]);
      // The old time is anyone's again.
      await bookings.commit(booking(slot, ['anna'], [], { name: 'Someone Else' }), false);
    });

    it('drops the e-mails of the old time not sent yet, and queues the move’s and the new reminders', async () => {
      const { id } = await bookings.commit(booking(slot), true);
      // The booking's confirmation went; its invitation to the host and the reminders did not.
      const [agency, prospect] = await store.claimDue(booked, 2, noLease);
      await store.markDone(agency!.id, booked);
      await store.markDone(prospect!.id, booked);
      await bookings.moveCall(id, to(later), true, booked + minute);
      expect(await sendDue(at(later))).toEqual([
        ['agency-move', 1, later, undefined],
        ['prospect-move', 1, later, undefined],
        ['host-move', 1, later, undefined],
        ['prospect-reminder', 1, later, 1440],
        ['host-reminder', 1, later, 1440],
        ['prospect-reminder', 1, later, 60],
        ['host-reminder', 1, later, 60],
      ]);
      const [item] = await store.claimDue(at(later), 100, noLease);
      expect(item).toBeUndefined();
    });

    it('keeps the move’s old time in its e-mails', async () => {
      const { id } = await bookings.commit(booking(slot), true);
      await sendDue(booked);
      await bookings.moveCall(id, to(later), true, booked + minute);
      const items = await store.claimDue(booked + minute, 100, noLease);
      expect(mailCallOf(items.find((item) => item.kind === 'prospect-move'))).toEqual({
        sequence: 1,
        host: 'anna',
        start: later,
        end: plus(later, 30),
        previous: { start: slot, end: plus(slot, 30) },
      });
    });

    it('keeps who moved it on its e-mails: the staff with their reason, else the prospect', async () => {
      const { id } = await bookings.commit(booking(slot), true);
      await sendDue(booked);
      const change = { by: 'staff' as const, reason: 'Anna is ill; Ben takes it.' };
      await bookings.moveCall(id, to(later, ['anna'], { change }), true, booked + minute);
      const staffs = await store.claimDue(booked + minute, 100, noLease);
      const moves = staffs.filter((item) => item.kind.endsWith('-move'));
      expect(moves.map((item) => item.kind).sort()).toEqual([
        'agency-move',
        'host-move',
        'prospect-move',
      ]);
      for (const item of moves) expect(mailCallOf(item)?.change).toEqual(change);
      // Asked later (an old change link opened), the call says who made its last move.
      const movedBy = async () => (await store.findById(id))?.call?.movedBy;
      expect(await movedBy()).toBe('staff');
      // The new time's reminders are no one's change.
      for (const item of staffs.filter((item) => item.kind.endsWith('-reminder')))
        expect(mailCallOf(item)?.change).toBeUndefined();
      for (const item of staffs) await store.markDone(item.id, booked + minute);

      // The prospect's own move (their link), and the staff's without a reason.
      await bookings.moveCall(id, to(slot), true, booked + 2 * minute);
      const own = await store.claimDue(booked + 2 * minute, 100, noLease);
      expect(mailCallOf(own.find((item) => item.kind === 'agency-move'))?.change).toBeUndefined();
      for (const item of own) await store.markDone(item.id, booked + 2 * minute);
      expect(await movedBy()).toBe('prospect');
      await bookings.cancelCall(id, {
        queueMail: true,
        now: booked + 3 * minute,
        change: { by: 'staff' },
      });
      const cancels = await store.claimDue(booked + 3 * minute, 100, noLease);
      expect(cancels.map((item) => [item.kind, mailCallOf(item)?.change]).sort()).toEqual([
        ['agency-cancel', { by: 'staff' }],
        ['host-cancel', { by: 'staff' }],
        ['prospect-cancel', { by: 'staff' }],
      ]);
    });

    it('keeps who moved it on the call with e-mail off too, where no e-mail says it', async () => {
      const { id } = await bookings.commit(booking(slot), false);
      const change = { by: 'staff' as const };
      const moved = await bookings.moveCall(id, to(later, ['anna'], { change }), false, booked);
      expect(moved).toMatchObject({ enquiry: { call: { movedBy: 'staff', movedFrom: slot } } });
      expect((await store.findById(id))?.call).toMatchObject({ movedBy: 'staff', movedFrom: slot });
      await bookings.moveCall(id, to(slot), false, booked + minute);
      expect((await store.findById(id))?.call?.movedBy).toBe('prospect');
    });

    it('keeps which member moved it from the desk, and when; the prospect’s or the CLI’s move names none', async () => {
      const { id } = await bookings.commit(booking(slot), false);
      const anna = 'anna@agency.example';
      const desk = { change: { by: 'staff' as const, who: 'Anna Reid' }, member: anna };
      const third = ahead('2027-01-08T10:00:00Z');
      const moves: [string, Partial<CallMove>, object][] = [
        [later, desk, { movedBy: 'staff', movedByMember: anna }],
        // The prospect's link: no member, whoever moved it before.
        [slot, {}, { movedBy: 'prospect' }],
        // A member named on a move that is not the staff's is not kept as its mover.
        [later, { member: anna }, { movedBy: 'prospect' }],
        // The CLI's: the staff, no member.
        [third, { change: { by: 'staff' as const } }, { movedBy: 'staff' }],
      ];
      for (const [i, [start, extra, mover]] of moves.entries()) {
        const when = booked + i * minute;
        const made = { ...mover, movedAt: new Date(when).toISOString() };
        const move = to(start, ['anna'], { ...extra, maxMoves: moves.length });
        const moved = await bookings.moveCall(id, move, false, when);
        const stored = (await store.findById(id))?.call;
        // As answered, so stored.
        for (const call of [moved.status === 'moved' && moved.enquiry.call, stored]) {
          expect(call).toMatchObject(made);
          if (!('movedByMember' in mover)) expect(call).not.toHaveProperty('movedByMember');
        }
      }
    });

    it('gives the call to another host when its own is not free then: a cancellation to one, an invitation to the other', async () => {
      const { id } = await bookings.commit(booking(slot, ['anna']), true);
      await bookings.commit(booking(later, ['anna'], [], { name: 'Busy Anna' }), false);
      await sendDue(booked);
      const moved = await bookings.moveCall(id, to(later, ['anna', 'ben']), true, booked + minute);
      expect(moved.status === 'moved' && moved.enquiry.call?.host).toBe('ben');
      const items = await store.claimDue(booked + minute, 100, noLease);
      expect(
        items.map((item) => [item.kind, mailCallOf(item)?.host, mailCallOf(item)?.start]),
      ).toEqual([
        ['agency-move', 'ben', later],
        ['prospect-move', 'ben', later],
        ['host-cancel', 'anna', slot],
        ['host', 'ben', later],
      ]);
    });

    it('refuses a time no candidate host is free at (SlotTaken), and changes nothing', async () => {
      const { id } = await bookings.commit(booking(slot, ['anna']), true);
      await bookings.commit(booking(later, ['anna'], [], { name: 'Busy Anna' }), false);
      await expect(bookings.moveCall(id, to(later, ['anna']), true, booked)).rejects.toThrow(
        SlotTaken,
      );
      await expect(bookings.moveCall(id, to(later, []), true, booked)).rejects.toThrow(SlotTaken);
      expect((await store.findById(id))?.call).toMatchObject({ start: slot, sequence: 0 });
    });

    it('refuses a move to the time the call has: nothing changes, nothing is sent, no move is used', async () => {
      const { id } = await bookings.commit(booking(slot), true);
      await sendDue(booked);
      for (const move of [to(slot), to(slot, ['anna'], { sequence: 0 })])
        expect(await bookings.moveCall(id, move, true, booked + minute)).toMatchObject({
          status: 'same',
        });
      expect((await store.findById(id))?.call).toMatchObject({
        start: slot,
        sequence: 0,
        moves: 0,
      });
      // The booking's reminders wait as they were, and nothing else was queued.
      expect((await sendDue(at(slot))).map(([mail, sequence]) => [mail, sequence])).toEqual([
        ['prospect-reminder', 0],
        ['host-reminder', 0],
        ['prospect-reminder', 0],
        ['host-reminder', 0],
      ]);
    });

    it('moves within its own time (half an hour on, overlapping the old one)', async () => {
      const { id } = await bookings.commit(booking(slot, ['anna']), false);
      const moved = await bookings.moveCall(id, to(plus(slot, 15), ['anna']), false, booked);
      expect(moved.status).toBe('moved');
    });

    it('refuses a cancelled call, a link of an earlier time, and a fourth move', async () => {
      const { id } = await bookings.commit(booking(slot), false);
      const times = [
        ahead('2027-01-06T10:00:00Z'),
        ahead('2027-01-07T10:00:00Z'),
        ahead('2027-01-08T10:00:00Z'),
      ];
      expect(
        (await bookings.moveCall(id, to(times[0]!, ['anna'], { sequence: 0 }), false)).status,
      ).toBe('moved');
      // The same link again: the call has moved since.
      expect(
        (await bookings.moveCall(id, to(times[1]!, ['anna'], { sequence: 0 }), false)).status,
      ).toBe('used');
      expect((await bookings.moveCall(id, to(times[1]!), false)).status).toBe('moved');
      expect((await bookings.moveCall(id, to(times[2]!), false)).status).toBe('moved');
      expect((await bookings.moveCall(id, to(slot), false)).status).toBe('limit');
      await bookings.cancelCall(id, { queueMail: false });
      expect((await bookings.moveCall(id, to(slot), false)).status).toBe('already-cancelled');
      expect(await bookings.moveCall(crypto.randomUUID(), to(slot), false)).toEqual({
        status: 'unknown',
      });
    });

    it('a move and a booking racing for one host’s time: exactly one has it', async () => {
      for (let round = 0; round < 5; round++) {
        const start = plus(ahead('2027-02-01T10:00:00Z'), round * 60);
        const { id } = await bookings.commit(booking(plus(start, 24 * 60), ['anna'], []), false);
        const results = await Promise.allSettled([
          bookings.moveCall(id, to(start, ['anna']), false),
          bookings.commit(booking(start, ['anna'], [], { name: `Rival ${round}` }), false),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason).toBeInstanceOf(SlotTaken);
      }
    });

    it('two moves racing for one time: exactly one has it', async () => {
      const start = ahead('2027-02-03T10:00:00Z');
      const a = await bookings.commit(booking(ahead('2027-02-04T10:00:00Z'), ['anna'], []), false);
      const b = await bookings.commit(
        booking(ahead('2027-02-04T11:00:00Z'), ['anna'], [], { name: 'B' }),
        false,
      );
      const results = await Promise.allSettled([
        bookings.moveCall(a.id, to(start), false),
        bookings.moveCall(b.id, to(start), false),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    });

    it('then cancelled: a cancellation of the moved time, one sequence higher, and no reminder', async () => {
      const { id } = await bookings.commit(booking(slot), true);
      await bookings.moveCall(id, to(later), true, booked);
      await sendDue(booked);
      await bookings.cancelCall(id, { queueMail: true, now: booked + minute });
      expect(await sendDue(at(later))).toEqual([
        ['agency-cancel', 2, later, undefined],
        ['prospect-cancel', 2, later, undefined],
        ['host-cancel', 2, later, undefined],
      ]);
    });
  });

  describe('a call that has begun', () => {
    it('is neither cancelled nor confirmed, even by the links of the later time it had before it moved: nothing is sent', async () => {
      const later = ahead('2027-01-07T14:00:00Z');
      const { id } = await bookings.commit(booking(later), true);
      // Moved earlier: the links of its first time are signed until `later`.
      await bookings.moveCall(id, to(slot), true, booked);
      await sendDue(at(slot) - 1);
      for (const now of [at(slot), at(slot) + 10 * minute]) {
        expect(await bookings.cancelCall(id, { queueMail: true, now })).toMatchObject({
          status: 'past',
        });
        expect(await bookings.confirmCall(id, now)).toMatchObject({ status: 'past' });
      }
      expect((await store.findById(id))?.call).toMatchObject({
        cancelledAt: null,
        confirmedAt: null,
        sequence: 1,
      });
      expect(await sendDue(at(later))).toEqual([]);
      // A moment before it begins, it is cancelled as ever.
      expect((await bookings.cancelCall(id, { queueMail: true, now: at(slot) - 1 })).status).toBe(
        'cancelled',
      );
    });
  });

  describe('a call not confirmed in time', () => {
    const confirmMs = 120 * minute;
    /** A call booked now (the store's real clock) by `email`, at most one unconfirmed call ahead. */
    const bookWaiting = async (start: string, email = 'ada@example.com') => {
      const stored = await bookings.commit(
        call(start, {
          email,
          call: {
            start,
            end: plus(start, 30),
            hosts: ['anna'],
            reminders: [24 * 60, 60],
            maxUnconfirmed: 1,
          },
        }),
        true,
      );
      return { id: stored.id, bookedAt: at(stored.createdAt) };
    };
    const held = () =>
      store.bookedBetween(ahead('2027-01-05T00:00:00Z'), ahead('2027-01-06T00:00:00Z'));

    it('is held 119 minutes and released at 121: its time offered and counted no more, its release queued once, its reminders dropped', async () => {
      const { id, bookedAt } = await bookWaiting(slot);
      await sendDue(bookedAt);
      // Waiting, it holds its time and the share of unconfirmed calls (one here).
      await expect(bookWaiting(plus(slot, 60), 'bea@example.com')).rejects.toThrow(
        BookingCapReached,
      );
      expect(await bookings.lapseUnconfirmed(confirmMs, true, bookedAt + 119 * minute)).toBe(0);
      expect(await held()).toHaveLength(1);
      const releasedAt = bookedAt + 121 * minute;
      expect(await bookings.lapseUnconfirmed(confirmMs, true, releasedAt)).toBe(1);
      expect(await held()).toEqual([]);
      expect((await store.findById(id))?.call).toMatchObject({
        start: slot,
        cancelledAt: new Date(releasedAt).toISOString(),
        lapsedAt: new Date(releasedAt).toISOString(),
        confirmedAt: null,
        sequence: 1,
      });
      // One e-mail to each who was sent the invitation (a CANCEL, one sequence up); no reminder.
      expect(await sendDue(at(slot))).toEqual([
        ['agency-lapse', 1, slot, undefined],
        ['prospect-lapse', 1, slot, undefined],
        ['host-lapse', 1, slot, undefined],
      ]);
      // A second sweep releases and queues nothing.
      expect(await bookings.lapseUnconfirmed(confirmMs, true, releasedAt + minute)).toBe(0);
      // Lapsed, it is not confirmed, cancelled or moved.
      const later = releasedAt + 2 * minute;
      expect(await bookings.confirmCall(id, later)).toMatchObject({
        status: 'lapsed',
        enquiry: { call: { confirmedAt: null, lapsedAt: new Date(releasedAt).toISOString() } },
      });
      expect((await bookings.cancelCall(id, { queueMail: true, now: later })).status).toBe(
        'lapsed',
      );
      expect((await bookings.moveCall(id, to(plus(slot, 120)), true, later)).status).toBe('lapsed');
      expect(await store.claimDue(at(slot), 100, noLease)).toEqual([]);
      // Its time, and its place in the share, are anyone's again.
      await bookWaiting(slot, 'bea@example.com');
    });

    it('waits for its confirm link while the mail server is down: released its time after the link went (or failed for good), never before', async () => {
      const { id, bookedAt } = await bookWaiting(slot);
      const retried = await store.claimDue(bookedAt, 100, noLease);
      for (const job of retried)
        await store.markRetry(job.id, bookedAt + 180 * minute, 'ECONNREFUSED');
      // Three hours after the booking, the prospect has not been sent the link yet: held.
      expect(await bookings.lapseUnconfirmed(confirmMs, true, bookedAt + 180 * minute)).toBe(0);
      const sentAt = bookedAt + 200 * minute;
      expect((await sendDue(sentAt)).map(([mail]) => mail)).toContain('prospect');
      expect(await bookings.lapseUnconfirmed(confirmMs, true, sentAt + 119 * minute)).toBe(0);
      expect(await bookings.confirmCall(id, sentAt + 119 * minute)).toMatchObject({
        status: 'confirmed',
      });
      // One whose e-mail could not be sent at all (its address refused for good) is released its
      // time after that: no one will confirm it.
      const refused = await bookWaiting(plus(slot, 60), 'bea@example.com');
      const jobs = await store.claimDue(refused.bookedAt, 100, noLease);
      for (const job of jobs)
        await store.markFailed(job.id, '550 no such user', refused.bookedAt + minute);
      const failedAt = refused.bookedAt + minute;
      expect(await bookings.lapseUnconfirmed(confirmMs, true, failedAt + 119 * minute)).toBe(0);
      expect(await bookings.lapseUnconfirmed(confirmMs, true, failedAt + 121 * minute)).toBe(1);
      expect((await store.findById(refused.id))?.call?.lapsedAt).toBeTruthy();
    });

    it('keeps a call confirmed, one confirmed at once (e-mail off) and one that has begun', async () => {
      const confirmed = await bookWaiting(slot);
      await bookings.confirmCall(confirmed.id, confirmed.bookedAt + minute);
      const start = plus(slot, 60);
      const atOnce = await bookings.commit(
        call(start, { call: { start, end: plus(start, 30), hosts: ['anna'], confirmed: true } }),
        true,
      );
      // Booked to start within the time allowed: released, it would be released once it began.
      const soon = new Date(Date.now() + 60 * minute).toISOString().replace(/\.\d+Z$/, 'Z');
      const begun = await bookings.commit(booking(soon), true);
      const now = at(begun.createdAt) + 121 * minute;
      expect(await bookings.lapseUnconfirmed(confirmMs, true, now)).toBe(0);
      for (const { id } of [confirmed, atOnce, begun])
        expect((await store.findById(id))?.call).toMatchObject({
          cancelledAt: null,
          lapsedAt: null,
        });
    });

    it('is released by one of two processes sweeping at once, its e-mails queued once', async () => {
      const other = backend.bookingsOver(await backend.open());
      const calls = [];
      for (const [i, email] of ['a@example.com', 'b@example.com', 'c@example.com'].entries())
        calls.push(
          await bookings.commit(booking(plus(slot, 60 * i), ['anna'], [], { email }), true),
        );
      const now = Math.max(...calls.map((c) => at(c.createdAt))) + 121 * minute;
      await sendDue(now - 121 * minute);
      const swept = await Promise.all([
        bookings.lapseUnconfirmed(confirmMs, true, now),
        other.lapseUnconfirmed(confirmMs, true, now),
      ]);
      expect(swept[0] + swept[1]).toBe(3);
      const queued = (await sendDue(now)).map(([mail]) => mail);
      expect(queued.filter((mail) => mail === 'prospect-lapse')).toHaveLength(3);
      expect(queued).toHaveLength(9);
    });
  });

  /**
   * A queue of jobs on the clock `clock`, whose sender keeps what it sends in `sent` (once `hold`,
   * if given, lets that e-mail go), its log's lines in `log`.
   */
  const jobsOn = (
    clock: { now: number },
    sent: Mail[],
    { hold, log }: { hold?: (mail: Mail) => Promise<void>; log?: string[] } = {},
  ) =>
    mailQueue({
      store,
      from: 'website@agency.example',
      to: 'sales@agency.example',
      content: {
        brand: 'Agency',
        email: 'hello@agency.example',
        hosts: [
          { id: 'anna', name: 'Anna Reid', email: 'anna@agency.example' },
          { id: 'ben', name: 'Ben Okafor', email: 'ben@agency.example' },
          { id: 'cara', name: 'Cara Lund', email: 'cara@agency.example' },
        ],
      },
      booking: { siteUrl: 'https://agency.example', secret: 'x'.repeat(40), confirmMs: 7_200_000 },
      pollMs: 60_000,
      retryBaseMs: 1000,
      now: () => clock.now,
      ...(log && { log: (line: string) => void log.push(line) }),
      sender: {
        send: async (mail) => {
          await hold?.(mail);
          sent.push(mail);
        },
      },
    });

  it('the sweep, on the tests’ clock, releases a call not confirmed within 120 minutes once, and the queue of jobs sends its release', async () => {
    const stored = await bookings.commit(booking(slot), true);
    const clock = { now: at(stored.createdAt) };
    const sent: Mail[] = [];
    const jobs = jobsOn(clock, sent);
    const sweep = () =>
      sweepUnconfirmed({ bookings, confirmMs: 120 * minute, jobs, now: () => clock.now });
    await jobs.drain();
    expect(sent).toHaveLength(3);
    clock.now += 119 * minute;
    expect(await sweep()).toBe(0);
    clock.now += 2 * minute;
    expect(await sweep()).toBe(1);
    await jobs.drain();
    expect(await sweep()).toBe(0);
    await jobs.drain();
    const released = sent.slice(3);
    expect(released.map((mail) => [mail.to, mail.icalEvent?.method])).toEqual([
      ['sales@agency.example', 'CANCEL'],
      ['ada@example.com', 'CANCEL'],
      ['anna@agency.example', 'CANCEL'],
    ]);
    expect(released[1]!.subject).toMatch(/^Not confirmed: your call with Agency, /);
    expect(released[1]!.text).toContain('https://agency.example/schedule\n');
  });

  it('the queue of jobs, on the tests’ clock, sends each reminder once when it is due, and skips one whose call has begun', async () => {
    const { id } = await bookings.commit(booking(slot, ['anna'], [60]), true);
    const clock = { now: booked };
    const sent: Mail[] = [];
    const jobs = jobsOn(clock, sent);
    await jobs.drain();
    expect(sent.map((mail) => mail.to)).toEqual([
      'sales@agency.example',
      'ada@example.com',
      'anna@agency.example',
    ]);
    clock.now = at(slot) - 61 * minute;
    await jobs.drain();
    expect(sent).toHaveLength(3);
    clock.now = at(slot) - 60 * minute;
    await jobs.drain();
    await jobs.drain();
    expect(sent.slice(3).map((mail) => [mail.to, mail.subject.split(',')[0]])).toEqual([
      ['ada@example.com', 'Reminder: your call with Agency in 1 hour'],
      ['anna@agency.example', 'Reminder: your call with Ada Lovelace in 1 hour'],
    ]);
    // A reminder found due only once the call has begun (the server was down) is not sent.
    const other = await bookings.commit(booking(plus(slot, 120), ['anna'], [60]), true);
    clock.now = at(plus(slot, 120)) + minute;
    await jobs.drain();
    expect(sent.slice(5).map((mail) => mail.subject.split(':')[0])).toEqual([
      'Call booked',
      'Your call with Agency',
      'Your call with Ada Lovelace',
    ]);
    expect((await store.claimDue(clock.now, 100, noLease)).length).toBe(0);
    expect(id).not.toBe(other.id);
  });

  describe('a host’s cancellation, sent by the queue of jobs on the tests’ clock', () => {
    const later = ahead('2027-01-07T14:00:00Z');
    const third = ahead('2027-01-08T10:00:00Z');
    /** What each host was sent, in order: its e-mails' calendar methods, by the host's name. */
    const hostMails = (sent: Mail[]) => {
      const mails: Record<string, string[]> = {};
      for (const mail of sent) {
        const host = /^(anna|ben|cara)@/.exec(String(mail.to))?.[1];
        if (host) (mails[host] ??= []).push(String(mail.icalEvent?.method));
      }
      return mails;
    };
    /** A call of Anna's booked, and its first e-mails sent (Anna's invitation among them). */
    const bookedAndSent = async (clock: { now: number }, sent: Mail[], log?: string[]) => {
      const { id } = await bookings.commit(booking(slot, ['anna'], []), true);
      const jobs = jobsOn(clock, sent, { ...(log && { log }) });
      await jobs.drain();
      expect(hostMails(sent)).toEqual({ anna: ['REQUEST'] });
      return { id, jobs };
    };

    it('is not sent to a host the call was moved to and away from before their invitation went', async () => {
      const clock = { now: booked };
      const sent: Mail[] = [];
      const log: string[] = [];
      const { id, jobs } = await bookedAndSent(clock, sent, log);
      clock.now += minute;
      await bookings.moveCall(id, to(later, ['ben'], { reminders: [] }), true, clock.now);
      await bookings.moveCall(id, to(third, ['cara'], { reminders: [] }), true, clock.now);
      await jobs.drain();
      expect(hostMails(sent)).toEqual({ anna: ['REQUEST', 'CANCEL'], cara: ['REQUEST'] });
      expect(log.filter((line) => line.startsWith('The cancellation to the host'))).toEqual([
        expect.stringMatching(/was not sent: the host was never sent the invitation$/),
      ]);
      expect(await store.claimDue(clock.now + 60 * minute, 100, noLease)).toEqual([]);
    });

    it('is not sent to the host a call was moved to when it is cancelled before their invitation went; the prospect and the agency get theirs', async () => {
      const clock = { now: booked };
      const sent: Mail[] = [];
      const { id, jobs } = await bookedAndSent(clock, sent);
      clock.now += minute;
      await bookings.moveCall(id, to(later, ['ben'], { reminders: [] }), true, clock.now);
      await bookings.cancelCall(id, { queueMail: true, now: clock.now, change: { by: 'staff' } });
      await jobs.drain();
      expect(hostMails(sent)).toEqual({ anna: ['REQUEST', 'CANCEL'] });
      expect(
        sent
          .slice(3)
          .map((mail) => `${mail.to} ${mail.icalEvent?.method}`)
          .sort(),
      ).toEqual([
        'ada@example.com CANCEL',
        'anna@agency.example CANCEL',
        'sales@agency.example CANCEL',
      ]);
    });

    it('is sent to every host whose invitation went: moved on, or cancelled', async () => {
      const clock = { now: booked };
      const sent: Mail[] = [];
      const { id, jobs } = await bookedAndSent(clock, sent);
      clock.now += minute;
      await bookings.moveCall(id, to(later, ['ben'], { reminders: [] }), true, clock.now);
      await jobs.drain();
      await bookings.moveCall(id, to(third, ['cara'], { reminders: [] }), true, clock.now);
      await jobs.drain();
      await bookings.cancelCall(id, { queueMail: true, now: clock.now });
      await jobs.drain();
      expect(hostMails(sent)).toEqual({
        anna: ['REQUEST', 'CANCEL'],
        ben: ['REQUEST', 'CANCEL'],
        cara: ['REQUEST', 'CANCEL'],
      });
    });

    it('is not sent to a host whose invitation was given up, nor twice to one it was sent already', async () => {
      const clock = { now: booked };
      const sent: Mail[] = [];
      const { id } = await bookedAndSent(clock, sent);
      // Ben's address refused for good.
      const jobs = jobsOn(clock, sent, {
        hold: async (mail) => {
          if (String(mail.to).startsWith('ben@'))
            throw Object.assign(new Error('550 no such user'), { responseCode: 550 });
        },
      });
      clock.now += minute;
      await bookings.moveCall(id, to(later, ['ben'], { reminders: [] }), true, clock.now);
      await jobs.drain();
      // Back to Anna, whose invitation is dropped by the cancel before it goes.
      await bookings.moveCall(id, to(third, ['anna'], { reminders: [] }), true, clock.now);
      await bookings.cancelCall(id, { queueMail: true, now: clock.now });
      await jobs.drain();
      expect(hostMails(sent)).toEqual({ anna: ['REQUEST', 'CANCEL'] });
      expect(await store.claimDue(clock.now + 60 * minute, 100, noLease)).toEqual([]);
    });

    it('waits for an invitation on its way as the call is cancelled, and goes once it went', async () => {
      const clock = { now: booked };
      const sent: Mail[] = [];
      const { id } = await bookedAndSent(clock, sent);
      let open = () => {};
      const gate = new Promise<void>((resolve) => (open = resolve));
      const slow = jobsOn(clock, sent, {
        hold: (mail) => (String(mail.to).startsWith('ben@') ? gate : Promise.resolve()),
      });
      clock.now += minute;
      await bookings.moveCall(id, to(later, ['ben'], { reminders: [] }), true, clock.now);
      const sending = slow.drain();
      // Ben's invitation is with the SMTP server as the call is cancelled; another process sends
      // the cancellations meanwhile.
      await vi.waitUntil(() => hostMails(sent).anna?.length === 2);
      await bookings.cancelCall(id, { queueMail: true, now: clock.now });
      const other = jobsOn(clock, sent);
      await other.drain();
      expect(hostMails(sent)).toEqual({ anna: ['REQUEST', 'CANCEL'] });
      open();
      await sending;
      clock.now += 10 * minute;
      await other.drain();
      expect(hostMails(sent)).toEqual({ anna: ['REQUEST', 'CANCEL'], ben: ['REQUEST', 'CANCEL'] });
    });
  });
});
