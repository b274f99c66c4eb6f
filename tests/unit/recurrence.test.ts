/**
 * Where a recurrence rule is stepped from (calendars/recurrence.ts): from near a time on the wall
 * clock, with the occurrences from that time on those of the series as written, and few steps
 * before it.
 */
import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { planOf, wallMs, type Plan } from '../../src/server/calendars/recurrence';

const DAY = 86_400_000;
const ms = (iso: string) => Date.parse(`${iso}Z`);
/** A date-time as a feed writes it, on the wall clock (floating). */
const time = (iso: string) => ICAL.Time.fromDateTimeString(iso);
const date = (iso: string) => ICAL.Time.fromDateString(iso);
const rule = (text: string) => ICAL.Recur.fromString(text);

/** The occurrences of `recur` stepped from `start`, on the wall clock, in [from, to); at most `most`. */
function stepped(recur: ICAL.Recur, start: ICAL.Time, from: number, to: number, most = 5_000) {
  const found: number[] = [];
  const iterator = recur.iterator(start);
  let steps = 0;
  for (let next = iterator.next(); next && steps < 200_000; next = iterator.next(), steps++) {
    const at = wallMs(next);
    if (at >= to || found.length >= most) break;
    if (at >= from) found.push(at);
  }
  return { found, steps };
}

/** What a plan steps in [from, to): nothing when there is none, and up to its `before`. */
function planned(plan: Plan | undefined, from: number, to: number, most?: number) {
  if (!plan) return { found: [], steps: 0 };
  return stepped(plan.rule, plan.start, from, Math.min(to, plan.before ?? Infinity), most);
}

describe('a feed’s time on the wall clock', () => {
  it('reads as UTC, a date at its midnight', () => {
    expect(wallMs(time('2026-03-29T01:30:00'))).toBe(ms('2026-03-29T01:30:00'));
    expect(wallMs(date('2026-12-24'))).toBe(ms('2026-12-24T00:00:00'));
    expect(wallMs(time('1900-01-01T09:00:00'))).toBe(ms('1900-01-01T09:00:00'));
  });
});

describe('a rule stepped from near a time', () => {
  const target = ms('2026-11-29T20:00:00');

  it('moves a daily series from 1900 to some days before the time: the same 09:00s after it, a few steps', () => {
    const first = time('1900-01-01T09:00:00');
    const plan = planOf(rule('FREQ=DAILY'), first, target)!;
    expect(target - wallMs(plan.start)).toBeLessThan(3 * DAY);
    const { found, steps } = planned(plan, target, target + 3 * DAY);
    expect(found).toEqual([
      ms('2026-11-30T09:00:00'),
      ms('2026-12-01T09:00:00'),
      ms('2026-12-02T09:00:00'),
    ]);
    expect(steps).toBeLessThan(10);
  });

  it('moves a start early enough for ical.js to settle: started at an hour BYHOUR leaves out, it passes over that day', () => {
    const late = rule('FREQ=HOURLY;BYHOUR=23;BYMINUTE=30');
    const plan = planOf(late, time('2026-10-06T13:00:00'), target)!;
    expect(planned(plan, target, target + 2 * DAY).found).toEqual([
      ms('2026-11-29T23:30:00'),
      ms('2026-11-30T23:30:00'),
    ]);
  });

  it('keeps the day of the month and the date: the 31st in a month that has one, 29 February in a leap year', () => {
    const to = ms('2033-01-01T00:00:00');
    const monthly = rule('FREQ=MONTHLY');
    const the31st = time('2020-01-31T10:00:00');
    const plan = planOf(monthly, the31st, target)!;
    expect(plan.start.day).toBe(31);
    expect(planned(plan, target, to).found).toEqual(stepped(monthly, the31st, target, to).found);
    const yearly = rule('FREQ=YEARLY');
    const leapDay = date('1996-02-29');
    const leap = planOf(yearly, leapDay, target)!;
    expect([leap.start.month, leap.start.day]).toEqual([2, 29]);
    expect(ICAL.Time.isLeapYear(leap.start.year)).toBe(true);
    expect(planned(leap, target, to).found).toEqual(stepped(yearly, leapDay, target, to).found);
  });

  it('counts what a COUNT of one a period has left, and has nothing left of one that ended', () => {
    const first = time('2020-01-01T08:00:00');
    // 2,530 days from 1 January 2020: the last is on 4 December 2026.
    const rest = planOf(rule('FREQ=DAILY;COUNT=2530'), first, target)!;
    expect(rest.rule.count).toBeLessThan(10);
    expect(planned(rest, target, target + 30 * DAY).found).toHaveLength(5);
    expect(planOf(rule('FREQ=DAILY;COUNT=10'), first, target)).toBeUndefined();
    // Two occurrences a minute at least: over by 2024 at the latest.
    expect(planOf(rule('FREQ=MINUTELY;BYSECOND=0,30;COUNT=2000000'), first, target)).toBe(
      undefined,
    );
  });

  it('steps from the start as written what ical.js steps differently from elsewhere, or a small COUNT it cannot count', () => {
    const first = time('2019-01-07T10:00:00');
    for (const text of [
      'FREQ=YEARLY;BYWEEKNO=20',
      'FREQ=MONTHLY;BYMONTH=3',
      'FREQ=MONTHLY;BYMONTHDAY=31;COUNT=500',
    ])
      expect(planOf(rule(text), first, target)!.start, text).toBe(first);
  });

  it('reads a large COUNT it cannot count as if the series went on, stopping where it must be over', () => {
    const first = time('2019-01-07T12:00:00');
    const plan = planOf(rule('FREQ=WEEKLY;BYDAY=MO,FR;COUNT=5000'), first, target)!;
    expect(plan.rule.count).toBeNull();
    expect(plan.before).toBe(wallMs(first) + 5001 * 7 * DAY);
    expect(target - wallMs(plan.start)).toBeLessThan(30 * DAY);
  });

  const days = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
  const some = <T>(values: T[]) =>
    fc.option(fc.subarray(values, { minLength: 1 }), { nil: undefined });
  const periods: Record<string, number> = {
    ...{ SECONDLY: 1000, MINUTELY: 60_000, HOURLY: 3_600_000, DAILY: DAY, WEEKLY: 7 * DAY },
    ...{ MONTHLY: 30 * DAY, YEARLY: 365 * DAY },
  };
  const rules = fc.record({
    freq: fc.constantFrom('SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'),
    interval: fc.integer({ min: 1, max: 4 }),
    byday: some(days),
    bymonthday: some([1, 15, 28, 29, 31, -1]),
    bymonth: some([1, 2, 6, 12]),
    byhour: some([0, 9, 23]),
    byminute: some([0, 30]),
    count: fc.option(fc.integer({ min: 1, max: 1500 }), { nil: undefined }),
    periodsBack: fc.integer({ min: 0, max: 300 }),
    seconds: fc.integer({ min: 0, max: 86_399 }),
    isDate: fc.boolean(),
  });

  it('gives from the time on what stepping from the start gives: the same, or more for a COUNT it cannot count', () => {
    fc.assert(
      fc.property(rules, (r) => {
        const isDate = r.isDate && !['SECONDLY', 'MINUTELY', 'HOURLY'].includes(r.freq);
        const coarse = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(r.freq);
        const dated = r.freq === 'MONTHLY' || r.freq === 'YEARLY';
        // Only what ical.js steps in good time from any start (./busy-times.test.ts says which).
        const parts = [`FREQ=${r.freq}`, `INTERVAL=${r.interval}`];
        if (r.byday && (coarse || r.freq === 'HOURLY')) parts.push(`BYDAY=${r.byday}`);
        if (r.bymonthday && dated && !r.byday) parts.push(`BYMONTHDAY=${r.bymonthday}`);
        if (r.bymonth && coarse) parts.push(`BYMONTH=${r.bymonth}`);
        if (r.byhour && !isDate && r.freq !== 'SECONDLY') parts.push(`BYHOUR=${r.byhour}`);
        if (r.byminute && !isDate && r.freq !== 'SECONDLY') parts.push(`BYMINUTE=${r.byminute}`);
        if (r.count) parts.push(`COUNT=${r.count}`);
        const back = r.periodsBack % (r.freq === 'YEARLY' ? 40 : r.freq === 'MONTHLY' ? 120 : 300);
        const start = new Date(
          target - back * periods[r.freq]! * r.interval + (isDate ? 0 : r.seconds * 1000),
        ).toISOString();
        const first = isDate ? date(start.slice(0, 10)) : time(start.slice(0, 19));
        const recur = rule(parts.join(';'));
        const to = target + 40 * periods[r.freq]! * r.interval;
        let expected: number[];
        try {
          expected = stepped(recur, first, target, to, 300).found;
        } catch {
          return; // A rule ical.js refuses (never met): nothing to compare.
        }
        const plan = planOf(recur, first, target);
        const found = planned(plan, target, to, 300).found;
        if (plan && recur.count && plan.rule.count === null)
          expect(found, parts.join(';')).toEqual(expect.arrayContaining(expected));
        else expect(found, `${parts.join(';')} from ${start}`).toEqual(expected);
      }),
      { numRuns: 150, seed: 54 },
    );
  });
});
