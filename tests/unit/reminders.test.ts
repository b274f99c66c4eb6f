/**
 * When a booked call's reminders go out (src/domain/reminders.ts), on a clock the test sets: their
 * leads as availability.yaml writes them, each due its lead before the call unless that falls
 * within 15 minutes of the booking, none once the call has begun, and the notice period.
 */
import { describe, expect, it } from 'vitest';
import {
  callHasBegun,
  dueReminders,
  insideNotice,
  reminderLeads,
  reminderMinutes,
} from '../../src/domain/reminders';

const start = '2027-03-29T09:30:00Z';
const minute = 60_000;
const hour = 60 * minute;

describe('reminders', () => {
  it('read their leads as availability.yaml writes them', () => {
    expect(['90m', '24h', '2d', '1h'].map(reminderMinutes)).toEqual([90, 1440, 2880, 60]);
    for (const text of ['24', 'h', '1.5h', '-1h', '24 h', '1w', '123456m'])
      expect(reminderMinutes(text), text).toBeUndefined();
    expect(reminderLeads({ reminders: ['24h', '1h'] })).toEqual([1440, 60]);
  });

  it('are due each its lead before the call, but for one within 15 minutes of now', () => {
    const at = Date.parse(start);
    const now = at - 2 * hour;
    expect(dueReminders(start, [1440, 60], now)).toEqual([{ minutes: 60, dueAt: at - hour }]);
    // A reminder due 15 minutes after the booking is sent; one due sooner is left out.
    expect(dueReminders(start, [60], at - hour - 15 * minute)).toEqual([
      { minutes: 60, dueAt: at - hour },
    ]);
    expect(dueReminders(start, [60], at - hour - 15 * minute + 1)).toEqual([]);
  });

  it('are not sent once the call has begun', () => {
    expect(callHasBegun(start, Date.parse(start) - 1)).toBe(false);
    expect(callHasBegun(start, Date.parse(start))).toBe(true);
  });

  it('fall inside the notice period when less than its hours before the call', () => {
    expect(insideNotice(24 * hour, 24)).toBe(false);
    expect(insideNotice(24 * hour - 1, 24)).toBe(true);
    expect(insideNotice(0, 0)).toBe(false);
  });
});
