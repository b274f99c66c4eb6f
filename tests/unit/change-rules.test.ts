/** When a booked call can be moved with its change link, on a clock the test sets. */
import { describe, expect, it } from 'vitest';
import { MAX_MOVES } from '../../src/server/booking/change';
import { moveRefusal } from '../../src/server/booking/rules';
import type { StoredEnquiry } from '../../src/server/store/types';

const start = '2027-03-29T09:30:00Z';
const hour = 3_600_000;
/** Why the call cannot be moved with a link made at `sequence`, under a notice of `noticeHours`. */
const whyNotMovable = (enquiry: StoredEnquiry, sequence: number, now: number, noticeHours = 24) =>
  moveRefusal(enquiry, { sequence, maxMoves: MAX_MOVES, noticeHours }, now);
const booked = (call: Partial<NonNullable<StoredEnquiry['call']>> = {}): StoredEnquiry => ({
  id: '00000000-0000-4000-8000-000000000000',
  kind: 'call',
  name: 'Ada',
  email: 'ada@example.com',
  data: {},
  clientIp: '127.0.0.1',
  userAgent: 'test',
  spam: false,
  createdAt: '2027-03-01T10:00:00.000Z',
  mailedAt: null,
  mailAttempts: 0,
  mailFailure: null,
  call: {
    start,
    end: start,
    cancelledAt: null,
    host: 'anna',
    sequence: 1,
    moves: 1,
    confirmedAt: null,
    lapsedAt: null,
    ...call,
  },
});

describe('a change link', () => {
  it('moves a call until its notice period begins, not after', () => {
    const enquiry = booked();
    expect(whyNotMovable(enquiry, 1, Date.parse(start) - 25 * hour)).toBeUndefined();
    expect(whyNotMovable(enquiry, 1, Date.parse(start) - 24 * hour)).toBeUndefined();
    expect(whyNotMovable(enquiry, 1, Date.parse(start) - 24 * hour + 1)).toBe('too-late');
    // Across the clock change of 28 March (London): the notice is 24 hours of time, not of clock.
    expect(whyNotMovable(enquiry, 1, Date.parse('2027-03-27T09:30:00Z'), 48)).toBeUndefined();
  });

  it('works once: a link of an earlier sequence has been used', () => {
    const now = Date.parse(start) - 72 * hour;
    expect(whyNotMovable(booked(), 0, now)).toBe('used');
  });

  it('refuses a cancelled call, one released unconfirmed, and one moved the most times', () => {
    const now = Date.parse(start) - 72 * hour;
    expect(whyNotMovable(booked({ cancelledAt: '2027-03-02T00:00:00Z' }), 1, now)).toBe(
      'already-cancelled',
    );
    const released = '2027-03-01T12:00:00.000Z';
    expect(whyNotMovable(booked({ cancelledAt: released, lapsedAt: released }), 1, now)).toBe(
      'lapsed',
    );
    expect(whyNotMovable(booked({ moves: MAX_MOVES, sequence: 3 }), 3, now)).toBe('limit');
    expect(whyNotMovable(booked({ moves: MAX_MOVES - 1, sequence: 3 }), 3, now)).toBeUndefined();
  });
});
