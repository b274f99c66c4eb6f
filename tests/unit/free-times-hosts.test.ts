/** Free times shared by several hosts, each with their own hours, calls and calendar. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  freeHosts,
  freeSlots,
  slotsOfDate,
  unreadableAt,
  offeredDates,
  type Booked,
} from '../../src/server/booking/free-times';
import type { Availability, Host, Slot } from '../../src/domain/booking';
import type { Busy, CalendarBusy } from '../../src/server/calendars/busy';
import { calendarDate } from '../support/free-times';

const week = (ranges: string[], friday = ranges) => ({
  monday: ranges,
  tuesday: ranges,
  wednesday: ranges,
  thursday: ranges,
  friday,
  saturday: [],
  sunday: [],
});
const anna: Host = { id: 'anna', name: 'Anna Reid', email: 'anna@agency.example' };
// Mornings only.
const ben: Host = { ...anna, id: 'ben', name: 'Ben Okafor', hours: week(['09:30-12:30']) };
const availability: Availability = {
  timeZone: 'Europe/London',
  callMinutes: 30,
  bufferMinutes: 15,
  noticeHours: 24,
  daysAhead: 21,
  callTitle: 'Introductory call',
  hours: week(['09:30-12:30', '13:30-17:00']),
  closed: [],
  reminders: [],
  hosts: [anna, ben],
};
const ms = (iso: string) => Date.parse(iso);
const dayBefore = (date: string) =>
  new Date(ms(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dayAfter = (date: string) =>
  new Date(ms(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
// Monday 4 January 2027 10:00 in London; Thursday 7 January is well inside the window.
const now = ms('2027-01-04T10:00:00Z');
const thursday = { from: '2027-01-07', to: '2027-01-07' };
const starts = (slots: Slot[]) => slots.map((slot) => slot.start.slice(11, 16));
const call = (start: string, host: string | null): Booked => ({
  start: `2027-01-07T${start}:00Z`,
  end: new Date(ms(`2027-01-07T${start}:00Z`) + 30 * 60_000).toISOString().replace('.000', ''),
  host,
});

describe('a time is offered while one host is free', () => {
  it('in the morning, when either of two hosts is; in the afternoon, only when Anna is', () => {
    const booked = [call('09:30', 'anna'), call('13:30', 'anna')];
    const free = starts(freeSlots(availability, booked, now, thursday));
    expect(free).toContain('09:30');
    expect(free).not.toContain('13:30');
    expect(free).toContain('14:15');
  });

  it('not when every host is booked then, or a call of no host holds it', () => {
    const both = [call('10:15', 'anna'), call('10:15', 'ben'), call('11:00', null)];
    const free = starts(freeSlots(availability, both, now, thursday));
    expect(free).not.toContain('10:15');
    expect(free).not.toContain('11:00');
    expect(free).toContain('11:45');
  });

  it("not over a meeting in a host's calendar, nor a call that would leave no buffer before one", () => {
    const calendars: CalendarBusy = new Map([
      // Anna: a meeting from 10:00; Ben: one from 10:50 (10:15 would end at 10:45, 5 minutes before).
      ['anna', [{ start: ms('2027-01-07T10:00:00Z'), end: ms('2027-01-07T12:30:00Z') }]],
      ['ben', [{ start: ms('2027-01-07T10:50:00Z'), end: ms('2027-01-07T11:30:00Z') }]],
    ]);
    const free = starts(freeSlots(availability, [], now, thursday, calendars));
    expect(free.filter((time) => time < '13:00')).toEqual(['09:30', '11:45']);
  });

  it('never from a host whose calendar cannot be read now', () => {
    const calendars: CalendarBusy = new Map([['anna', 'unknown']]);
    const free = starts(freeSlots(availability, [], now, thursday, calendars));
    expect(free).toEqual(['09:30', '10:15', '11:00', '11:45']);
    const nobody: CalendarBusy = new Map([
      ['anna', 'unknown'],
      ['ben', 'unknown'],
    ]);
    expect(freeSlots(availability, [], now, {}, nobody)).toEqual([]);
  });
});

describe('a host in another time zone', () => {
  it('is offered on their own hours, in their zone', () => {
    const newYork: Host = {
      ...anna,
      id: 'nia',
      timeZone: 'America/New_York',
      hours: week(['09:00-10:30']),
    };
    const setup = { ...availability, hosts: [newYork] };
    // 09:00 and 09:45 in New York (EST, UTC-5) on Thursday 7 January.
    expect(starts(freeSlots(setup, [], now, thursday))).toEqual(['14:00', '14:45']);
  });
});

describe('the host a booking goes to', () => {
  const slot = { start: '2027-01-07T10:15:00Z', end: '2027-01-07T10:45:00Z' };
  it('is the free host with the fewest calls in the window, then the first in the file', () => {
    expect(freeHosts(availability, [], slot).map((host) => host.id)).toEqual(['anna', 'ben']);
    const annaBusier = [call('13:30', 'anna')];
    expect(freeHosts(availability, annaBusier, slot).map((host) => host.id)).toEqual([
      'ben',
      'anna',
    ]);
    expect(freeHosts(availability, [call('10:15', 'ben')], slot).map((host) => host.id)).toEqual([
      'anna',
    ]);
  });

  it('is never one whose hours do not have the time', () => {
    const afternoon = { start: '2027-01-07T14:15:00Z', end: '2027-01-07T14:45:00Z' };
    expect(freeHosts(availability, [], afternoon).map((host) => host.id)).toEqual(['anna']);
  });
});

describe('a time no calendar can be read for', () => {
  const morning = { start: '2027-01-07T10:15:00Z', end: '2027-01-07T10:45:00Z' };
  const afternoon = { start: '2027-01-07T14:15:00Z', end: '2027-01-07T14:45:00Z' };
  const annaUnread: CalendarBusy = new Map([['anna', 'unknown']]);
  const bothUnread: CalendarBusy = new Map([
    ['anna', 'unknown'],
    ['ben', 'unknown'],
  ]);

  it('is one whose every host on their hours then has a calendar that cannot be read', () => {
    expect(unreadableAt(availability, morning, bothUnread)).toBe(true);
    // Only Anna works in the afternoon.
    expect(unreadableAt(availability, afternoon, annaUnread)).toBe(true);
  });

  it('is not one with a host whose calendar can be read (taken, if busy)', () => {
    expect(unreadableAt(availability, morning, annaUnread)).toBe(false);
    expect(unreadableAt(availability, morning, new Map())).toBe(false);
    expect(unreadableAt(availability, afternoon, new Map([['ben', 'unknown']]))).toBe(false);
    // Ben's calendar read (and empty), Anna's none to read: a time someone can be given.
    expect(unreadableAt(availability, morning, new Map([['ben', []]]))).toBe(false);
  });
});

describe('over random hours, calendars and bookings (property)', () => {
  const times = ['08:00', '09:00', '09:30', '10:00', '11:15', '12:00', '13:30', '15:00', '17:00'];
  const range = fc
    .tuple(fc.constantFrom(...times), fc.constantFrom(...times))
    .filter(([from, to]) => from < to)
    .map(([from, to]) => `${from}-${to}`);
  const hostArbitrary = (id: string) =>
    fc.record({
      id: fc.constant(id),
      name: fc.constant(id),
      email: fc.constant(`${id}@agency.example`),
      hours: fc.option(
        fc.record({
          monday: fc.array(range, { maxLength: 1 }),
          tuesday: fc.array(range, { maxLength: 1 }),
          wednesday: fc.array(range, { maxLength: 1 }),
          thursday: fc.array(range, { maxLength: 1 }),
          friday: fc.array(range, { maxLength: 1 }),
          saturday: fc.constant([] as string[]),
          sunday: fc.constant([] as string[]),
        }),
        { nil: undefined },
      ),
      // Some hosts elsewhere: their hours are in their own zone.
      timeZone: fc.constantFrom(undefined, 'America/New_York', 'Asia/Kolkata'),
    });
  const window = { from: ms('2027-01-05T00:00:00Z'), to: ms('2027-01-26T00:00:00Z') };
  // On a 15-minute grid, so that intervals often touch a slot or its buffer exactly.
  const quarters = (window.to - window.from) / 900_000;
  const interval = fc
    .tuple(fc.integer({ min: 0, max: quarters }), fc.integer({ min: 1, max: 24 }))
    .map(([quarter, length]) => ({
      start: window.from + quarter * 900_000,
      end: window.from + (quarter + length) * 900_000,
    }));
  const scenario = fc.record({
    hosts: fc.tuple(hostArbitrary('a'), hostArbitrary('b'), hostArbitrary('c')),
    busy: fc.tuple(
      fc.array(interval, { maxLength: 30 }),
      fc.array(interval, { maxLength: 30 }),
      fc.array(interval, { maxLength: 30 }),
    ),
    unreadable: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
    bookings: fc.array(
      fc.tuple(
        fc.constantFrom('a', 'b', 'c', null),
        fc.integer({ min: window.from, max: window.to }),
      ),
      { maxLength: 20 },
    ),
    bufferMinutes: fc.constantFrom(0, 15),
  });

  /** The oracle: overlap by brute force, every interval against every other. */
  const meets = (busy: readonly Busy[], start: number, end: number) =>
    busy.some((interval) => interval.start < end && start < interval.end);

  it('offers no time at which every host is busy, and every time at which one is free', () => {
    fc.assert(
      fc.property(scenario, ({ hosts, busy, unreadable, bookings, bufferMinutes }) => {
        const setup: Availability = { ...availability, bufferMinutes, hosts: [...hosts] };
        const booked: Booked[] = bookings.map(([host, start]) => ({
          host,
          start: new Date(start).toISOString(),
          end: new Date(start + 30 * 60_000).toISOString(),
        }));
        const calendars: CalendarBusy = new Map(
          hosts.map((host, index) => [host.id, unreadable[index] ? 'unknown' : busy[index]!]),
        );
        const buffer = bufferMinutes * 60_000;
        const holding = (host: Host): Busy[] => [
          ...(calendars.get(host.id) as Busy[]),
          ...booked
            .filter((call) => !call.host || call.host === host.id)
            .map((call) => ({ start: ms(call.start), end: ms(call.end) + buffer })),
        ];
        const zoneOf = (host: Host) => host.timeZone ?? setup.timeZone;
        /** A host's slots of one of their own days, in their zone. */
        const hostSlots = (host: Host, date: string) =>
          slotsOfDate({ ...setup, timeZone: zoneOf(host) }, date, host.hours ?? setup.hours);
        /** The hosts free at a slot, found without the code under test's search. */
        const freeAt = (slot: Slot) =>
          setup.hosts.filter(
            (host, index) =>
              !unreadable[index] &&
              hostSlots(host, calendarDate(slot.start, zoneOf(host))).some(
                (own) => own.start === slot.start,
              ) &&
              !meets(holding(host), ms(slot.start), ms(slot.end) + buffer),
          );
        const offered = freeSlots(setup, booked, now, {}, calendars);
        for (const [index, slot] of offered.entries()) {
          const free = freeAt(slot);
          expect(free.length, slot.start).toBeGreaterThan(0);
          // The host a booking would go to, for one offered time in five (each asks the store's view
          // of the whole window again).
          if (index % 5) continue;
          expect(
            freeHosts(setup, booked, slot, calendars)
              .map((host) => host.id)
              .sort(),
          ).toEqual(free.map((host) => host.id).sort());
        }
        // And nothing is held back: every slot of a free host after the notice is offered.
        const earliest = now + setup.noticeHours * 3_600_000;
        const offeredStarts = new Set(offered.map((slot) => slot.start));
        const dates = offeredDates(setup, now);
        const around = [dayBefore(dates[0]!), ...dates, dayAfter(dates.at(-1)!)];
        for (const host of setup.hosts)
          for (const date of around)
            for (const slot of hostSlots(host, date))
              if (
                dates.includes(calendarDate(slot.start, setup.timeZone)) &&
                ms(slot.start) >= earliest &&
                freeAt(slot).length > 0
              )
                expect(offeredStarts.has(slot.start), slot.start).toBe(true);
      }),
      { numRuns: 30 },
    );
  });
});
