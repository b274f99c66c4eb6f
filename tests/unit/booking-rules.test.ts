/**
 * What booking decides, without a database (src/server/booking/rules.ts): the caps, the hosts a
 * booking or a move may go to, the refusals of a move, a cancel and a confirmation (one vocabulary,
 * src/server/booking/refusals.ts), and the e-mails each queues.
 * The store's tests (tests/store/) check that they are kept, on both engines.
 */
import { describe, expect, it } from 'vitest';
import {
  bookingCapReached,
  candidateHosts,
  checkCancel,
  checkMove,
  confirmResult,
  mailsOnCancel,
  mailsOnCommit,
  mailsOnLapse,
  mailsOnMove,
  moveCandidates,
  moveRefusal,
  movedCall,
  storedForm,
} from '../../src/server/booking/rules';
import { REMINDER_MIN_GAP_MS } from '../../src/domain/reminders';
import type { CallAhead, StoredCall, StoredEnquiry } from '../../src/server/store/types';
import { call, plus } from '../support/records';

const start = '2027-01-05T09:30:00Z';
const now = Date.parse('2027-01-01T12:00:00Z');
const caps = { bookingCap: 2, networkCap: 6 };
const ahead = (email: string, clientIp: string, confirmed = true): CallAhead => ({
  email,
  clientIp,
  confirmed,
});

const booked: StoredCall = {
  start,
  end: plus(start, 30),
  cancelledAt: null,
  host: 'anna',
  sequence: 0,
  moves: 0,
  confirmedAt: null,
  lapsedAt: null,
};
const stored = (over: Partial<StoredCall> = {}): StoredEnquiry => {
  const { call: _asked, ...rest } = call(start);
  return {
    ...rest,
    id: 'e-1',
    createdAt: new Date(now).toISOString(),
    mailedAt: null,
    mailAttempts: 0,
    mailFailure: null,
    call: { ...booked, ...over },
  };
};
const kinds = (mails: { kind: string }[]) => mails.map(({ kind }) => kind);

describe('the caps', () => {
  const booking = call(start, { email: 'Ada@Example.com', clientIp: '2001:db8:1:2::7' });

  it('count an address in any case, and a client by its IPv6 /64', () => {
    expect(bookingCapReached([ahead('ada@example.com', '192.0.2.1')], booking, caps)).toBe(
      undefined,
    );
    expect(
      bookingCapReached(
        [ahead('ADA@example.com', '192.0.2.1'), ahead('ada@example.com', '192.0.2.2')],
        booking,
        caps,
      ),
    ).toMatchObject({ limit: 'email', cap: 2 });
    expect(
      bookingCapReached(
        [ahead('a@x.co', '2001:db8:1:2::1'), ahead('b@x.co', '2001:db8:1:2:ffff::9')],
        booking,
        caps,
      ),
    ).toMatchObject({ limit: 'client' });
  });

  it('count one mailbox however its domain is spelled', () => {
    // A soft hyphen, a full-width letter, an ideographic full stop: mail goes to ada@example.com.
    const spellings = ['ada@exam\u00adple.com', 'ada@\uff45xample.com', 'ada@example\u3002com'];
    for (const spelling of spellings) {
      const again = call(start, { email: spelling, clientIp: '203.0.113.9' });
      expect(
        bookingCapReached(
          [ahead('ada@example.com', '192.0.2.1'), ahead('ADA@EXAMPLE.COM', '192.0.2.2')],
          again,
          caps,
        ),
        spelling,
      ).toMatchObject({ limit: 'email', cap: 2 });
      expect(
        bookingCapReached(
          [ahead(spelling, '192.0.2.1'), ahead(spelling, '192.0.2.2')],
          booking,
          caps,
        ),
        spelling,
      ).toMatchObject({ limit: 'email', cap: 2 });
    }
    // Another mailbox at the same domain, or the same name at another, counts apart.
    const twice = [ahead('ada@example.com', '192.0.2.1'), ahead('ada@example.com', '192.0.2.2')];
    for (const other of ['bob@example.com', 'ada@example.org', 'xada@example.com'])
      expect(
        bookingCapReached(twice, call(start, { email: other, clientIp: '203.0.113.9' }), caps),
      ).toBe(undefined);
  });

  it('count a wider network (an IPv4 /24) up to its own cap', () => {
    const v4 = call(start, { email: 'new@x.co', clientIp: '198.51.100.77' });
    const five = Array.from({ length: 5 }, (_, i) => ahead(`p${i}@x.co`, `198.51.100.${i + 1}`));
    expect(bookingCapReached(five, v4, caps)).toBe(undefined);
    expect(
      bookingCapReached([...five, ahead('p5@x.co', '198.51.100.200')], v4, caps),
    ).toMatchObject({ limit: 'network', cap: 6 });
  });

  it('hold unconfirmed calls to their share, and let a confirmed one past it', () => {
    const waiting = [ahead('a@x.co', '192.0.2.1', false), ahead('b@x.co', '192.0.2.2', false)];
    const unconfirmed = call(start, {
      email: 'c@x.co',
      clientIp: '203.0.113.1',
      call: { start, end: plus(start, 30), maxUnconfirmed: 2 },
    });
    expect(bookingCapReached(waiting, unconfirmed, caps)).toMatchObject({ limit: 'unconfirmed' });
    const confirmed = { ...unconfirmed, call: { ...unconfirmed.call!, confirmed: true } };
    expect(bookingCapReached(waiting, confirmed, caps)).toBe(undefined);
  });
});

describe('the hosts', () => {
  it('of a booking are its own, in order, or none (a call that holds every host)', () => {
    expect(candidateHosts({ start, end: start, hosts: ['ben', 'anna'] })).toEqual(['ben', 'anna']);
    expect(candidateHosts({ start, end: start })).toEqual([null]);
  });

  it('of a move start with the call’s own host when it is offered', () => {
    expect(moveCandidates('anna', ['ben', 'anna', 'cleo'])).toEqual(['anna', 'ben', 'cleo']);
    expect(moveCandidates('anna', ['ben'])).toEqual(['ben']);
    expect(moveCandidates(null, ['ben'])).toEqual(['ben']);
  });

  it('spam is kept without its call, so that it holds no time', () => {
    expect(storedForm(call(start, { spam: true })).call).toBeUndefined();
    expect(storedForm(call(start)).call?.start).toBe(start);
  });
});

describe('the e-mails of a booking', () => {
  it('are the agency’s notice alone for an enquiry', () => {
    expect(mailsOnCommit({ ...call(), kind: 'enquiry' }, null, now)).toEqual([
      { kind: 'agency', dueAt: now },
    ]);
  });

  it('are the notice, the confirmation, the invitation and the reminders still ahead', () => {
    const asked = call(start, { call: { start, end: plus(start, 30), reminders: [1440, 60] } });
    const mails = mailsOnCommit(asked, 'anna', now);
    expect(kinds(mails)).toEqual([
      'agency',
      'prospect',
      'host',
      'prospect-reminder',
      'host-reminder',
      'prospect-reminder',
      'host-reminder',
    ]);
    expect(mails[3]).toMatchObject({
      dueAt: Date.parse(start) - 1440 * 60_000,
      payload: { call: { remindMinutes: 1440, host: 'anna', sequence: 0 } },
    });
  });

  it('skip a reminder that would fall within 15 minutes of the booking', () => {
    const soon = new Date(now + REMINDER_MIN_GAP_MS + 60 * 60_000 - 1).toISOString();
    const asked = call(soon, { call: { start: soon, end: plus(soon, 30), reminders: [60] } });
    expect(kinds(mailsOnCommit(asked, null, now))).toEqual(['agency', 'prospect']);
  });
});

describe('a move', () => {
  const move = { start: plus(start, 60), end: plus(start, 90), hosts: ['anna'], maxMoves: 3 };

  it('is refused when there is no call, it lapsed, it is cancelled, the link is used, the same time or over the limit', () => {
    expect(checkMove(undefined, move, now)).toEqual({ refused: { status: 'unknown' } });
    const refusal = (over: Partial<StoredCall>, asked = move) => {
      const checked = checkMove(stored(over), asked, now);
      return 'refused' in checked ? checked.refused.status : 'allowed';
    };
    const at = '2027-01-01T00:00:00.000Z';
    expect(refusal({ cancelledAt: at, lapsedAt: at })).toBe('lapsed');
    expect(refusal({ cancelledAt: at })).toBe('already-cancelled');
    expect(refusal({ sequence: 2 }, { ...move, sequence: 1 } as typeof move)).toBe('used');
    expect(refusal({}, { ...move, start })).toBe('same');
    expect(refusal({ moves: 3 })).toBe('limit');
    expect(refusal({ moves: 2 })).toBe('allowed');
    expect(checkMove(stored({ moves: 3 }), move, now)).toMatchObject({
      refused: { status: 'limit', enquiry: { id: 'e-1' } },
    });
  });

  it('with a link respects the notice period; the staff’s move does not', () => {
    const hour = 3_600_000;
    const link = { sequence: 0, maxMoves: 3, noticeHours: 24 };
    expect(moveRefusal(stored(), link, Date.parse(start) - 24 * hour)).toBeUndefined();
    expect(moveRefusal(stored(), link, Date.parse(start) - 24 * hour + 1)).toBe('too-late');
    expect(moveRefusal(stored(), move, Date.parse(start) - hour)).toBeUndefined();
  });

  it('to its own host updates the host’s event; to another, cancels one and invites the other', () => {
    const enquiry = stored();
    const same = movedCall(enquiry, booked, move, 'anna', now);
    expect(same.call).toMatchObject({ start: move.start, sequence: 1, moves: 1, host: 'anna' });
    expect(same.result).toMatchObject({ status: 'moved', previous: { start, host: 'anna' } });
    expect(kinds(mailsOnMove(booked, same.call, [], now))).toEqual([
      'agency-move',
      'prospect-move',
      'host-move',
    ]);
    const other = movedCall(enquiry, booked, move, 'ben', now).call;
    const mails = mailsOnMove(booked, other, [], now, { by: 'staff', reason: 'Ill' });
    expect(
      mails.map(({ kind, payload }) => [kind, payload?.call?.host, payload?.call?.start]),
    ).toEqual([
      ['agency-move', 'ben', move.start],
      ['prospect-move', 'ben', move.start],
      ['host-cancel', 'anna', start],
      ['host', 'ben', move.start],
    ]);
    expect(mails[0]!.payload?.call?.change).toEqual({ by: 'staff', reason: 'Ill' });
  });
});

describe('a cancel, a lapse and a confirmation', () => {
  it('cancel is refused when there is no call, it lapsed, it is cancelled already, or it has begun', () => {
    expect(checkCancel(undefined, now)).toEqual({ refused: { status: 'unknown' } });
    expect(checkCancel(stored({ cancelledAt: 'x' }), now)).toMatchObject({
      refused: { status: 'already-cancelled' },
    });
    expect(checkCancel(stored({ cancelledAt: 'x', lapsedAt: 'x' }), now)).toMatchObject({
      refused: { status: 'lapsed' },
    });
    expect(checkCancel(stored(), Date.parse(start))).toMatchObject({ refused: { status: 'past' } });
    expect(checkCancel(stored(), now)).toMatchObject({ before: booked });
  });

  it('cancel asked at the sequence the desk showed is refused once the call has moved since', () => {
    const moved = stored({ sequence: booked.sequence + 1 });
    expect(checkCancel(moved, now, booked.sequence)).toMatchObject({ refused: { status: 'used' } });
    // An old page's post (no sequence it could show: -1) is out of date too.
    expect(checkCancel(moved, now, -1)).toMatchObject({ refused: { status: 'used' } });
    expect(checkCancel(moved, now, booked.sequence + 1)).toMatchObject({ before: moved.call });
    // Not asked (the CLI, a prospect's link): cancelled at any sequence.
    expect(checkCancel(moved, now)).toMatchObject({ before: moved.call });
    // Cancelled since (which raises it too): said as cancelled, not as moved.
    const gone = stored({ sequence: booked.sequence + 1, cancelledAt: 'x' });
    expect(checkCancel(gone, now, booked.sequence)).toMatchObject({
      refused: { status: 'already-cancelled' },
    });
  });

  it('cancellations and releases go to the agency, the prospect and the host, as the call is now', () => {
    const cancelled = { ...booked, sequence: 1 };
    expect(kinds(mailsOnCancel(cancelled, now))).toEqual([
      'agency-cancel',
      'prospect-cancel',
      'host-cancel',
    ]);
    expect(mailsOnLapse({ ...cancelled, host: null }, now)).toEqual([
      {
        kind: 'agency-lapse',
        dueAt: now,
        payload: { call: { sequence: 1, host: null, start, end: booked.end } },
      },
      {
        kind: 'prospect-lapse',
        dueAt: now,
        payload: { call: { sequence: 1, host: null, start, end: booked.end } },
      },
    ]);
  });

  it('a confirmation says what it came to', () => {
    expect(confirmResult(undefined, false, now)).toEqual({ status: 'unknown' });
    expect(confirmResult(stored(), true, now).status).toBe('confirmed');
    expect(confirmResult(stored({ cancelledAt: 'x' }), false, now).status).toBe(
      'already-cancelled',
    );
    expect(confirmResult(stored({ cancelledAt: 'x', lapsedAt: 'x' }), false, now).status).toBe(
      'lapsed',
    );
    expect(confirmResult(stored(), false, Date.parse(start)).status).toBe('past');
    expect(confirmResult(stored({ confirmedAt: 'x' }), false, now).status).toBe(
      'already-confirmed',
    );
  });
});
