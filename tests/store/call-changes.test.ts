/**
 * A booked call after it is booked, on both stores: its reminders (due their lead before the call,
 * skipped when booked inside it, dropped when it moves or is cancelled), a move (one transaction:
 * the old time free, the new one taken by its host or another, the e-mails of the old time dropped
 * and the move's queued), and the outbox sending them by a clock the test controls.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../src/server/mail/outbox';
import type { Mail } from '../../src/server/mail/templates';
import {
  SlotTaken,
  type CallMove,
  type EnquiryStore,
  type NewEnquiry,
} from '../../src/server/store/types';
import { call, plus } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

const minute = 60_000;
const slot = '2027-01-05T09:30:00Z';
const at = (iso: string) => Date.parse(iso);
/** When the booking's own e-mails are due (they are queued at the real time now, in 2026). */
const booked = at('2027-01-01T12:00:00Z');
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
  beforeEach(async () => {
    // No booking cap: the tests book many calls of one address.
    backend = await backends[kind]({ bookingCap: Infinity });
    store = backend.store;
  });
  afterEach(() => backend.cleanup());

  /** What is due at `now`: [kind, sequence, start, reminder lead], and each claimed is marked sent. */
  const sendDue = async (now: number) => {
    const items = await store.claimDue(now, 100, noLease);
    for (const item of items) await store.markSent(item.id, now);
    return items.map((item) => [
      item.mail,
      item.call?.sequence,
      item.call?.start,
      item.call?.remindMinutes,
    ]);
  };

  describe('reminders', () => {
    it('are queued with a booking, to the prospect and the host, each due its lead before the call', async () => {
      await store.commit(booking(slot), true);
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
      await store.commit(booking(soon), true);
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
      await store.commit(booking(at24h10m), true);
      const reminders = (await sendDue(at(at24h10m))).filter(([mail]) =>
        String(mail).endsWith('-reminder'),
      );
      expect(reminders.map(([, , , lead]) => lead)).toEqual([60, 60]);
    });

    it('go to the prospect alone for a call with no host', async () => {
      await store.commit(booking(slot, [], [60]), true);
      expect((await sendDue(at(slot) - 60 * minute)).map(([mail]) => mail)).toEqual([
        'agency',
        'prospect',
        'prospect-reminder',
      ]);
    });

    it('are never sent for a cancelled call', async () => {
      const { id } = await store.commit(booking(slot), true);
      await sendDue(booked);
      await store.cancelCall(id, true, booked + minute);
      expect((await sendDue(at(slot))).map(([mail, sequence]) => [mail, sequence])).toEqual([
        ['agency-cancel', 1],
        ['prospect-cancel', 1],
        ['host-cancel', 1],
      ]);
    });
  });

  describe('moveCall', () => {
    const later = '2027-01-07T14:00:00Z';

    it('moves the call: the old time free, the new one held by its host, the sequence and moves up', async () => {
      const { id } = await store.commit(booking(slot, ['anna', 'ben']), true);
      const moved = await store.moveCall(id, to(later, ['ben', 'anna']), true, booked);
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
        cancelledAt: null,
      });
      expect(await store.bookedBetween('2027-01-05T00:00:00Z', '2027-01-08T00:00:00Z')).toEqual([
        { id, start: later, end: plus(later, 30), host: 'anna' },
      ]);
      // The old time is anyone's again.
      await store.commit(booking(slot, ['anna'], [], { name: 'Someone Else' }), false);
    });

    it('drops the e-mails of the old time not sent yet, and queues the move’s and the new reminders', async () => {
      const { id } = await store.commit(booking(slot), true);
      // The booking's confirmation went; its invitation to the host and the reminders did not.
      const [agency, prospect] = await store.claimDue(booked, 2, noLease);
      await store.markSent(agency!.id, booked);
      await store.markSent(prospect!.id, booked);
      await store.moveCall(id, to(later), true, booked + minute);
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
      const { id } = await store.commit(booking(slot), true);
      await sendDue(booked);
      await store.moveCall(id, to(later), true, booked + minute);
      const items = await store.claimDue(booked + minute, 100, noLease);
      expect(items.find((item) => item.mail === 'prospect-move')?.call).toEqual({
        sequence: 1,
        host: 'anna',
        start: later,
        end: plus(later, 30),
        previous: { start: slot, end: plus(slot, 30) },
      });
    });

    it('gives the call to another host when its own is not free then: a cancellation to one, an invitation to the other', async () => {
      const { id } = await store.commit(booking(slot, ['anna']), true);
      await store.commit(booking(later, ['anna'], [], { name: 'Busy Anna' }), false);
      await sendDue(booked);
      const moved = await store.moveCall(id, to(later, ['anna', 'ben']), true, booked + minute);
      expect(moved.status === 'moved' && moved.enquiry.call?.host).toBe('ben');
      const items = await store.claimDue(booked + minute, 100, noLease);
      expect(items.map((item) => [item.mail, item.call?.host, item.call?.start])).toEqual([
        ['agency-move', 'ben', later],
        ['prospect-move', 'ben', later],
        ['host-cancel', 'anna', slot],
        ['host', 'ben', later],
      ]);
    });

    it('refuses a time no candidate host is free at (SlotTaken), and changes nothing', async () => {
      const { id } = await store.commit(booking(slot, ['anna']), true);
      await store.commit(booking(later, ['anna'], [], { name: 'Busy Anna' }), false);
      await expect(store.moveCall(id, to(later, ['anna']), true, booked)).rejects.toThrow(
        SlotTaken,
      );
      await expect(store.moveCall(id, to(later, []), true, booked)).rejects.toThrow(SlotTaken);
      expect((await store.findById(id))?.call).toMatchObject({ start: slot, sequence: 0 });
    });

    it('moves within its own time (half an hour on, overlapping the old one)', async () => {
      const { id } = await store.commit(booking(slot, ['anna']), false);
      const moved = await store.moveCall(id, to(plus(slot, 15), ['anna']), false, booked);
      expect(moved.status).toBe('moved');
    });

    it('refuses a cancelled call, a link of an earlier time, and a fourth move', async () => {
      const { id } = await store.commit(booking(slot), false);
      const times = ['2027-01-06T10:00:00Z', '2027-01-07T10:00:00Z', '2027-01-08T10:00:00Z'];
      expect(
        (await store.moveCall(id, to(times[0]!, ['anna'], { sequence: 0 }), false)).status,
      ).toBe('moved');
      // The same link again: the call has moved since.
      expect(
        (await store.moveCall(id, to(times[1]!, ['anna'], { sequence: 0 }), false)).status,
      ).toBe('stale');
      expect((await store.moveCall(id, to(times[1]!), false)).status).toBe('moved');
      expect((await store.moveCall(id, to(times[2]!), false)).status).toBe('moved');
      expect((await store.moveCall(id, to(slot), false)).status).toBe('limit');
      await store.cancelCall(id, false);
      expect((await store.moveCall(id, to(slot), false)).status).toBe('cancelled');
      expect(await store.moveCall(crypto.randomUUID(), to(slot), false)).toEqual({
        status: 'unknown',
      });
    });

    it('a move and a booking racing for one host’s time: exactly one has it', async () => {
      for (let round = 0; round < 5; round++) {
        const start = plus('2027-02-01T10:00:00Z', round * 60);
        const { id } = await store.commit(booking(plus(start, 24 * 60), ['anna'], []), false);
        const results = await Promise.allSettled([
          store.moveCall(id, to(start, ['anna']), false),
          store.commit(booking(start, ['anna'], [], { name: `Rival ${round}` }), false),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect(refused.reason).toBeInstanceOf(SlotTaken);
      }
    });

    it('two moves racing for one time: exactly one has it', async () => {
      const start = '2027-02-03T10:00:00Z';
      const a = await store.commit(booking('2027-02-04T10:00:00Z', ['anna'], []), false);
      const b = await store.commit(
        booking('2027-02-04T11:00:00Z', ['anna'], [], { name: 'B' }),
        false,
      );
      const results = await Promise.allSettled([
        store.moveCall(a.id, to(start), false),
        store.moveCall(b.id, to(start), false),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    });

    it('then cancelled: a cancellation of the moved time, one sequence higher, and no reminder', async () => {
      const { id } = await store.commit(booking(slot), true);
      await store.moveCall(id, to(later), true, booked);
      await sendDue(booked);
      await store.cancelCall(id, true, booked + minute);
      expect(await sendDue(at(later))).toEqual([
        ['agency-cancel', 2, later, undefined],
        ['prospect-cancel', 2, later, undefined],
        ['host-cancel', 2, later, undefined],
      ]);
    });
  });

  it('the outbox, on the tests’ clock, sends each reminder once when it is due, and skips one whose call has begun', async () => {
    const { id } = await store.commit(booking(slot, ['anna'], [60]), true);
    const clock = { now: booked };
    const sent: Mail[] = [];
    const outbox = new Outbox({
      store,
      from: 'website@agency.example',
      to: 'sales@agency.example',
      content: {
        brand: 'Agency',
        email: 'hello@agency.example',
        hosts: [{ id: 'anna', name: 'Anna Reid', email: 'anna@agency.example' }],
      },
      booking: { siteUrl: 'https://agency.example', secret: 'x'.repeat(40) },
      pollMs: 60_000,
      now: () => clock.now,
      sender: { send: async (mail) => void sent.push(mail) },
    });
    await outbox.drain();
    expect(sent.map((mail) => mail.to)).toEqual([
      'sales@agency.example',
      'ada@example.com',
      'anna@agency.example',
    ]);
    clock.now = at(slot) - 61 * minute;
    await outbox.drain();
    expect(sent).toHaveLength(3);
    clock.now = at(slot) - 60 * minute;
    await outbox.drain();
    await outbox.drain();
    expect(sent.slice(3).map((mail) => [mail.to, mail.subject.split(',')[0]])).toEqual([
      ['ada@example.com', 'Reminder: your call with Agency in 1 hour'],
      ['anna@agency.example', 'Reminder: your call with Ada Lovelace in 1 hour'],
    ]);
    // A reminder found due only once the call has begun (the server was down) is not sent.
    const other = await store.commit(booking(plus(slot, 120), ['anna'], [60]), true);
    clock.now = at(plus(slot, 120)) + minute;
    await outbox.drain();
    expect(sent.slice(5).map((mail) => mail.subject.split(':')[0])).toEqual([
      'Call booked',
      'Your call with Agency',
      'Your call with Ada Lovelace',
    ]);
    expect((await store.claimDue(clock.now, 100, noLease)).length).toBe(0);
    expect(id).not.toBe(other.id);
  });
});
