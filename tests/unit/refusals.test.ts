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

  it('says who moved a call since, and when, in the member’s zone; as before when the store does not know', () => {
    const movedAt = '2027-03-02T14:05:00.000Z';
    const moved = (made: Partial<NonNullable<StoredEnquiry['call']>>) => ({
      ...enquiry,
      call: { ...enquiry.call!, moves: 1, ...made },
    });
    const names = (address: string) =>
      address === 'anna@northgate.example' ? 'Anna Reid' : address;
    const byAnna = moved({ movedBy: 'staff', movedByMember: 'anna@northgate.example', movedAt });
    expect(refusalMessage('used', byAnna, 'Europe/London', names)).toMatch(
      /^That call has been moved since this was shown \(by Anna Reid at 2 Mar 2027, 14:05\), to /,
    );
    // The CLI: the member's address, the time as the store keeps it.
    expect(refusalMessage('used', byAnna)).toContain(
      `(by anna@northgate.example at ${movedAt}), to `,
    );
    expect(
      refusalMessage('used', moved({ movedBy: 'prospect', movedAt }), 'America/New_York'),
    ).toContain('(by its prospect at 2 Mar 2027, 09:05), to ');
    expect(refusalMessage('used', moved({ movedBy: 'staff', movedAt }))).toContain(
      `(by the staff at ${movedAt}), to `,
    );
    // A move before the store kept who, or when.
    expect(refusalMessage('used', moved({}), 'Europe/London', names)).toContain(
      '(by a colleague or its prospect), to ',
    );
    expect(refusalMessage('used', moved({ movedBy: 'prospect' }))).toContain(
      '(by its prospect), to ',
    );
    expect(refusalMessage('used')).toBe(
      'That call has been moved since this was shown (by a colleague or its prospect): nothing was changed. Choose again from its time now.',
    );
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
