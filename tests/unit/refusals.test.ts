/**
 * Why a move, a cancel or a confirmation is refused, said to the staff (the desk and the CLI) from
 * one table (src/server/booking/refusals.ts): a sentence for each refusal, with the call's time or
 * release when the call is given, and nothing of what its prospect typed.
 */
import { describe, expect, it } from 'vitest';
import {
  isRefusal,
  refusalMessage,
  refusedCall,
  type CallRefusal,
} from '../../src/server/booking/refusals';
import type { StoredEnquiry } from '../../src/server/store/types';
import { call } from '../support/records';

const ALL: CallRefusal[] = [
  'unknown',
  'lapsed',
  'already-cancelled',
  'past',
  'used',
  'same',
  'limit',
  'too-late',
];

const { call: _asked, ...fields } = call('2027-03-29T09:30:00Z', {
  data: { name: 'Ada', email: 'ada@example.com', message: 'Secret plan', time_zone: 'Asia/Tokyo' },
});
const enquiry: StoredEnquiry = {
  ...fields,
  id: 'e-1',
  createdAt: '2027-03-01T09:00:00.000Z',
  mailedAt: null,
  mailAttempts: 0,
  mailFailure: null,
  call: {
    start: '2027-03-29T09:30:00Z',
    end: '2027-03-29T10:00:00Z',
    cancelledAt: '2027-03-01T11:00:00.000Z',
    host: 'anna',
    sequence: 1,
    moves: 0,
    confirmedAt: null,
    lapsedAt: '2027-03-01T11:00:00.000Z',
  },
};

describe('a refusal', () => {
  it('is a sentence of its own for each, with or without the call', () => {
    const said = ALL.map((refusal) => refusalMessage(refusal));
    expect(new Set(said).size).toBe(ALL.length);
    for (const sentence of [...said, ...ALL.map((r) => refusalMessage(r, enquiry))])
      expect(sentence).toMatch(/^[A-Z][^\n]*\.$/);
  });

  it('says the call’s time and release when given the call, and nothing its prospect typed', () => {
    expect(refusalMessage('lapsed', enquiry)).toBe(
      'That call is no longer booked: it was not confirmed in time and its time was released at 2027-03-01T11:00:00.000Z.',
    );
    expect(refusalMessage('lapsed')).toBe(
      'That call is no longer booked: it was not confirmed in time and its time was released.',
    );
    expect(refusalMessage('past', enquiry)).toMatch(/^That call has taken place \(.*2027.*\): /);
    // A call moved since the desk showed it: to when, in the member's zone (else the agency's).
    expect(refusalMessage('used', enquiry, 'America/New_York')).toContain(
      ', to Monday, 29 March 2027, 05:30 Eastern Time',
    );
    expect(refusalMessage('used', enquiry)).toContain(', to Monday, 29 March 2027, 10:30');
    for (const refusal of ALL) {
      expect(refusalMessage(refusal, enquiry)).not.toContain('Secret plan');
      expect(refusalMessage(refusal, enquiry)).not.toContain('ada@example.com');
    }
  });

  it('is a word of its vocabulary, and an answer with its call (none for an unknown one)', () => {
    for (const refusal of ALL) expect(isRefusal(refusal)).toBe(true);
    for (const word of ['cancelled', 'moved', 'toString', '__proto__', 'refused', ''])
      expect(isRefusal(word), word).toBe(false);
    expect(refusedCall('unknown', enquiry)).toEqual({ status: 'unknown' });
    expect(refusedCall('lapsed', undefined)).toEqual({ status: 'unknown' });
    expect(refusedCall('limit', enquiry)).toEqual({ status: 'limit', enquiry });
  });
});
