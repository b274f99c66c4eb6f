/**
 * The line to the agency when bookings come in faster than people book: its rule (more than the
 * hour's number, at most once every 6 hours), on a clock the test moves (nothing sleeps), and what
 * it logs and mails.
 */
import { describe, expect, it } from 'vitest';
import { BookingPaceAlert } from '../../src/server/booking/pace-alert';
import { bookingAlertDue } from '../../src/server/booking/rules';
import type { Mail } from '../../src/server/mail/message';
import type { BookingAlertRule } from '../../src/server/store/types';

const HOUR = 3_600_000;
const rule: BookingAlertRule = { perHour: 10, quietMs: 6 * HOUR };

describe('the rule', () => {
  it('is met by more calls than the hour’s number, never the number itself', () => {
    expect(bookingAlertDue(10, undefined, 0, rule)).toBe(false);
    expect(bookingAlertDue(11, undefined, 0, rule)).toBe(true);
  });

  it('keeps quiet for 6 hours after an alert, to the millisecond', () => {
    const last = Date.parse('2026-11-26T10:00:00Z');
    expect(bookingAlertDue(50, last, last + 6 * HOUR - 1, rule)).toBe(false);
    expect(bookingAlertDue(50, last, last + 6 * HOUR, rule)).toBe(true);
  });
});

/** The bookings' side of it, in memory: the bookings' times and the last alert, with the store's rule. */
function memoryStore() {
  const bookedAt: number[] = [];
  let last: number | undefined;
  return {
    bookedAt,
    async claimBookingAlert(r: BookingAlertRule, now = 0) {
      const recent = bookedAt.filter((at) => at > now - HOUR && at <= now).length;
      if (!bookingAlertDue(recent, last, now, r)) return undefined;
      last = now;
      return recent;
    },
  };
}

describe('the alert', () => {
  it('logs a line of counts and mails the agency once, then at most once every 6 hours', async () => {
    let now = Date.parse('2026-11-26T09:00:00Z');
    const store = memoryStore();
    const sent: Mail[] = [];
    const lines: string[] = [];
    const alert = new BookingPaceAlert({
      bookings: store,
      rule,
      mail: {
        send: async (mail) => void sent.push(mail),
        from: 'site@a.example',
        to: 'sales@a.example',
      },
      log: (line) => lines.push(line),
      now: () => now,
    });
    // A booking a minute: the eleventh within the hour is one too many.
    const book = async () => {
      store.bookedAt.push(now);
      await alert.check();
      now += 60_000;
    };
    for (let i = 0; i < 10; i++) await book();
    expect(sent).toHaveLength(0);
    await book();
    expect(sent).toHaveLength(1);
    expect(lines).toEqual([
      expect.stringMatching(/^Bookings are coming in fast: 11 calls booked in the last hour/),
    ]);
    // No one's data in the line: counts only.
    expect(lines[0]).not.toMatch(/@example|\d+\.\d+\.\d+\.\d+/);
    const [mail] = sent;
    expect(mail).toMatchObject({ to: 'sales@a.example', from: 'site@a.example' });
    expect(mail!.subject).toBe('Bookings are coming in fast: 11 calls in the last hour');
    expect(mail!.text).toContain('npm run enquiries');
    expect(mail!.text).toContain('npm run enquiries -- --cancel REF');
    // Six more hours of a booking a minute: one more alert, six hours after the first.
    const first = now - 60_000;
    for (let i = 0; i < 6 * 60; i++) await book();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.messageId).toBe(`<booking-alert.${first + 6 * HOUR}@enquiries.invalid>`);
  });

  it('with e-mail off, logs; a failing send or store is logged, never thrown', async () => {
    const now = Date.parse('2026-11-26T09:00:00Z');
    const lines: string[] = [];
    const busy = { claimBookingAlert: async () => 12 };
    await new BookingPaceAlert({
      bookings: busy,
      rule,
      log: (l) => lines.push(l),
      now: () => now,
    }).check();
    expect(lines[0]).toContain('e-mail is off');
    await new BookingPaceAlert({
      bookings: busy,
      rule,
      mail: {
        send: async () => Promise.reject(new Error('421 try later')),
        from: 'a@a.example',
        to: 'b@a.example',
      },
      log: (l) => lines.push(l),
      now: () => now,
    }).check();
    expect(lines.at(-1)).toContain('failed: 421 try later');
    await new BookingPaceAlert({
      bookings: { claimBookingAlert: async () => Promise.reject(new Error('database gone')) },
      rule,
      log: (l) => lines.push(l),
    }).check();
    expect(lines.at(-1)).toContain('database gone');
  });
});
