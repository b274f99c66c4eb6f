import { describe, expect, it } from 'vitest';
import {
  agencyDate,
  freeSlots,
  nearest,
  offeredDates,
  offeredSlot,
  offeredTimes,
  refusal,
  slotsOfDate,
} from '../../src/server/booking/free-times';
import { dayAfter, isTimeZone, type Availability, type Slot } from '../../src/domain/booking';
import {
  acceptedLocale,
  callDayFirst,
  formatCallTime,
  readingLocale,
  visitorLocale,
  zoneLabel,
} from '../../src/domain/call-times';

// Like src/content/data/availability.yaml, but with hours and closed dates of the tests' own.
const availability: Availability = {
  timeZone: 'Europe/London',
  callMinutes: 30,
  bufferMinutes: 15,
  noticeHours: 24,
  daysAhead: 21,
  callTitle: 'Introductory call',
  hours: {
    monday: ['09:30-12:30', '13:30-17:00'],
    tuesday: ['09:30-12:30'],
    wednesday: ['09:30-12:30'],
    thursday: ['09:30-12:30'],
    friday: ['09:30-12:30'],
    saturday: [],
    sunday: [],
  },
  closed: [{ date: '2027-01-12', reason: 'Staff day' }],
  hosts: [{ id: 'anna', name: 'Anna Reid', email: 'anna@agency.example' }],
  reminders: ['24h', '1h'],
};

const withHours = (hours: Partial<Availability['hours']>): Availability => ({
  ...availability,
  hours: { ...availability.hours, ...hours },
});

const ms = (iso: string) => Date.parse(iso);
const starts = (slots: Slot[]) => slots.map((slot) => slot.start);

// Monday 4 January 2027, 10:00 in London (GMT, so also 10:00Z): the earliest start with 24 h notice
// is Tuesday 5 January 10:00Z.
const now = ms('2027-01-04T10:00:00Z');

describe('slotsOfDate', () => {
  it('cuts opening hours into calls with the buffer between them', () => {
    expect(slotsOfDate(availability, '2027-01-05')).toEqual([
      { start: '2027-01-05T09:30:00Z', end: '2027-01-05T10:00:00Z' },
      { start: '2027-01-05T10:15:00Z', end: '2027-01-05T10:45:00Z' },
      { start: '2027-01-05T11:00:00Z', end: '2027-01-05T11:30:00Z' },
      { start: '2027-01-05T11:45:00Z', end: '2027-01-05T12:15:00Z' },
    ]);
  });

  it('never lets a call run past closing, but lets one end exactly at it', () => {
    // 11:45 would end at 12:15, a minute after closing.
    expect(starts(slotsOfDate(withHours({ tuesday: ['09:30-12:14'] }), '2027-01-05'))).toEqual([
      '2027-01-05T09:30:00Z',
      '2027-01-05T10:15:00Z',
      '2027-01-05T11:00:00Z',
    ]);
    const exact = slotsOfDate(withHours({ tuesday: ['09:30-12:15'] }), '2027-01-05');
    expect(exact.at(-1)).toEqual({ start: '2027-01-05T11:45:00Z', end: '2027-01-05T12:15:00Z' });
  });

  it('lays out each of two ranges in a day from its own opening time', () => {
    expect(starts(slotsOfDate(availability, '2027-01-04'))).toEqual([
      '2027-01-04T09:30:00Z',
      '2027-01-04T10:15:00Z',
      '2027-01-04T11:00:00Z',
      '2027-01-04T11:45:00Z',
      '2027-01-04T13:30:00Z',
      '2027-01-04T14:15:00Z',
      '2027-01-04T15:00:00Z',
      '2027-01-04T15:45:00Z',
      '2027-01-04T16:30:00Z',
    ]);
  });

  it('gives none on a weekday without hours, or on a closed date', () => {
    expect(slotsOfDate(availability, '2027-01-09')).toEqual([]); // a Saturday
    expect(slotsOfDate(availability, '2027-01-12')).toEqual([]); // a closed Tuesday
    expect(slotsOfDate(availability, '2027-01-19')).toHaveLength(4); // the next Tuesday
  });
});

describe('the notice period', () => {
  it('leaves out slots that start before now + noticeHours', () => {
    const free = starts(freeSlots(availability, [], now, { to: '2027-01-05' }));
    expect(free).toEqual(['2027-01-05T10:15:00Z', '2027-01-05T11:00:00Z', '2027-01-05T11:45:00Z']);
  });

  it('is why refusal() turns down a slot within it', () => {
    const notice = "Calls need at least 24 hours' notice: choose a later time.";
    expect(refusal(availability, '2027-01-05T09:30:00Z', now)).toBe(notice);
    expect(refusal(availability, '2027-01-04T11:00:00Z', now)).toBe(notice); // today, still ahead
    expect(refusal({ ...availability, noticeHours: 1 }, '2027-01-04T10:15:00Z', now)).toBe(
      "Calls need at least 1 hour' notice: choose a later time.",
    );
    expect(refusal(availability, '2027-01-05T10:15:00Z', now)).toBeUndefined();
  });

  it('gives way to "already passed" for a start that is not ahead of now', () => {
    expect(refusal(availability, '2027-01-04T09:30:00Z', now)).toBe(
      'That time has already passed.',
    );
    expect(refusal(availability, '2027-01-04T10:00:00Z', now)).toBe(
      'That time has already passed.',
    );
  });
});

describe('the days ahead', () => {
  it('run from today in the agency zone to today + daysAhead', () => {
    const dates = offeredDates(availability, now);
    expect(dates).toHaveLength(22);
    expect(dates[0]).toBe('2027-01-04');
    expect(dates.at(-1)).toBe('2027-01-25');
    // 23:30Z on 30 June is 00:30 on 1 July in London (BST): London's today, not UTC's.
    expect(offeredDates(availability, ms('2027-06-30T23:30:00Z'))[0]).toBe('2027-07-01');
    expect(agencyDate(availability, '2027-06-30T23:30:00Z')).toBe('2027-07-01');
  });

  it('bound the free slots', () => {
    const free = freeSlots(availability, [], now);
    expect(free[0]!.start).toBe('2027-01-05T10:15:00Z');
    expect(free.at(-1)!.start).toBe('2027-01-25T16:30:00Z');
  });

  it('are why refusal() turns down a later start', () => {
    expect(refusal(availability, '2027-01-25T16:30:00Z', now)).toBeUndefined();
    expect(refusal(availability, '2027-01-26T09:30:00Z', now)).toBe(
      'Calls can be booked up to 21 days ahead: choose an earlier time.',
    );
  });
});

describe('closed dates and days without hours', () => {
  it('offer no free slots', () => {
    const free = freeSlots(availability, [], now);
    const on = (date: string) =>
      free.filter((slot) => agencyDate(availability, slot.start) === date);
    expect(on('2027-01-12')).toEqual([]); // closed
    expect(on('2027-01-09')).toEqual([]); // Saturday
    expect(on('2027-01-13')).toHaveLength(4);
  });

  it('are refused as a day without calls', () => {
    const noCalls = 'We have no calls that day: choose another day.';
    expect(refusal(availability, '2027-01-12T09:30:00Z', now)).toBe(noCalls);
    expect(refusal(availability, '2027-01-09T09:30:00Z', now)).toBe(noCalls);
  });
});

describe('a start that is not an offered slot', () => {
  const outside = 'That time is outside our opening hours: choose one of the times offered.';

  it('is refused when off the grid or outside the hours', () => {
    expect(refusal(availability, '2027-01-05T10:07:00Z', now)).toBe(outside);
    expect(refusal(availability, '2027-01-05T13:00:00Z', now)).toBe(outside); // Tuesday afternoon
    expect(refusal(availability, '2027-01-05T12:30:00Z', now)).toBe(outside); // closing time
    expect(offeredSlot(availability, '2027-01-05T10:07:00Z')).toBeUndefined();
  });

  it('is refused as not a time at all when it does not parse', () => {
    for (const garbage of ['tomorrow at ten', '', '2027-01-05', '2027-01-05T10:15']) {
      expect(refusal(availability, garbage, now)).toBe('Choose one of the times offered.');
      expect(offeredSlot(availability, garbage)).toBeUndefined();
    }
  });

  it('is accepted, and named in UTC, when it is an offered one', () => {
    const slot = { start: '2027-01-05T10:15:00Z', end: '2027-01-05T10:45:00Z' };
    expect(refusal(availability, slot.start, now)).toBeUndefined();
    expect(offeredSlot(availability, slot.start)).toEqual(slot);
    // The same instant written with an offset names the same slot.
    expect(refusal(availability, '2027-01-05T11:15:00+01:00', now)).toBeUndefined();
    expect(offeredSlot(availability, '2027-01-05T11:15:00+01:00')).toEqual(slot);
  });
});

describe('booked calls', () => {
  it('take out the slots they overlap or leave no buffer after, and leave the rest', () => {
    const booked = [
      // Ends as 09:30 starts: no 15 minutes between them.
      { start: '2027-01-07T09:00:00Z', end: '2027-01-07T09:30:00Z' },
      // Inside 10:15; ends at 11:00, so 11:00 has no buffer either; 11:45 is free.
      { start: '2027-01-07T10:30:00Z', end: '2027-01-07T11:00:00Z' },
    ];
    const thursday = { from: '2027-01-07', to: '2027-01-07' };
    expect(starts(freeSlots(availability, [], now, thursday))).toEqual([
      '2027-01-07T09:30:00Z',
      '2027-01-07T10:15:00Z',
      '2027-01-07T11:00:00Z',
      '2027-01-07T11:45:00Z',
    ]);
    expect(starts(freeSlots(availability, booked, now, thursday))).toEqual([
      '2027-01-07T11:45:00Z',
    ]);
    // One that ends 15 minutes before a slot leaves it free.
    const early = [{ start: '2027-01-07T08:45:00Z', end: '2027-01-07T09:15:00Z' }];
    expect(starts(freeSlots(availability, early, now, thursday))[0]).toBe('2027-01-07T09:30:00Z');
  });
});

describe('daylight saving in Europe/London', () => {
  const weekend = withHours({ saturday: ['09:00-10:00'], sunday: ['09:00-10:00'] });

  it('puts 09:00 local at 08:00Z in BST and 09:00Z in GMT', () => {
    expect(slotsOfDate(weekend, '2027-03-27')).toEqual([
      { start: '2027-03-27T09:00:00Z', end: '2027-03-27T09:30:00Z' },
    ]);
    // 28 March 2027: the clocks go forward at 01:00Z.
    expect(slotsOfDate(weekend, '2027-03-28')).toEqual([
      { start: '2027-03-28T08:00:00Z', end: '2027-03-28T08:30:00Z' },
    ]);
    expect(slotsOfDate(weekend, '2027-10-30')).toEqual([
      { start: '2027-10-30T08:00:00Z', end: '2027-10-30T08:30:00Z' },
    ]);
    // 31 October 2027: the clocks go back at 01:00Z.
    expect(slotsOfDate(weekend, '2027-10-31')).toEqual([
      { start: '2027-10-31T09:00:00Z', end: '2027-10-31T09:30:00Z' },
    ]);
  });

  // The checks every slot of a day must pass, whatever the clocks do.
  const expectWellFormed = (slots: Slot[], close: string) => {
    slots.forEach((slot, i) => {
      expect(ms(slot.end) - ms(slot.start)).toBe(30 * 60_000);
      if (i > 0) expect(ms(slot.start) - ms(slots[i - 1]!.end)).toBe(15 * 60_000);
    });
    expect(ms(slots.at(-1)!.end)).toBeLessThanOrEqual(ms(close));
  };

  const night = withHours({ sunday: ['00:00-03:00'] });

  it('lays out calls in real time on the short day (00:00-03:00 is 2 hours)', () => {
    const slots = slotsOfDate(night, '2027-03-28');
    expect(starts(slots)).toEqual([
      '2027-03-28T00:00:00Z',
      '2027-03-28T00:45:00Z',
      '2027-03-28T01:30:00Z',
    ]);
    expectWellFormed(slots, '2027-03-28T02:00:00Z'); // 03:00 BST
  });

  it('lays out calls in real time on the long day (00:00-03:00 is 4 hours)', () => {
    const slots = slotsOfDate(night, '2027-10-31');
    expect(starts(slots)).toEqual([
      '2027-10-30T23:00:00Z', // 00:00 BST on the 31st
      '2027-10-30T23:45:00Z',
      '2027-10-31T00:30:00Z',
      '2027-10-31T01:15:00Z',
      '2027-10-31T02:00:00Z',
    ]);
    expectWellFormed(slots, '2027-10-31T03:00:00Z'); // 03:00 GMT
    // The first slot starts on the 30th in UTC but belongs to the agency's 31st.
    expect(refusal(night, '2027-10-30T23:00:00Z', ms('2027-10-20T12:00:00Z'))).toBeUndefined();
  });

  it('opens a range whose start the clocks skip at the time after the change', () => {
    // 01:00 does not exist on 28 March; 01:00-03:00 is 02:00-03:00 BST, i.e. 01:00Z-02:00Z.
    expect(slotsOfDate(withHours({ sunday: ['01:00-03:00'] }), '2027-03-28')).toEqual([
      { start: '2027-03-28T01:00:00Z', end: '2027-03-28T01:30:00Z' },
    ]);
  });
});

describe("the day a call's change page lists first", () => {
  const at = (start: string): Slot => ({ start, end: start });
  // Free days in New York: 1, 2 and 9 December (the 2nd's 03:00Z is still the 1st there).
  const slots = [
    at('2026-12-01T15:00:00Z'),
    at('2026-12-03T03:00:00Z'),
    at('2026-12-09T15:00:00Z'),
  ];
  const zone = 'America/New_York';

  it("is the call's own date in the zone shown, when free days lie before and on or after it", () => {
    expect(callDayFirst(slots, zone, '2026-12-08T02:00:00Z')).toBe('2026-12-07');
    expect(callDayFirst(slots, zone, '2026-12-09T18:00:00Z')).toBe('2026-12-09');
  });

  it('is the first free day (none given) for a call on or before it, or after the last', () => {
    expect(callDayFirst(slots, zone, '2026-12-01T16:00:00Z')).toBe('');
    expect(callDayFirst(slots, zone, '2026-11-30T16:00:00Z')).toBe('');
    expect(callDayFirst(slots, zone, '2026-12-10T16:00:00Z')).toBe('');
    expect(callDayFirst([], zone, '2026-12-08T16:00:00Z')).toBe('');
  });
});

describe('formatCallTime', () => {
  // The agency's locale (en-GB, 24-hour) unless one is given.
  it('shows a call in the visitor zone as well as the agency zone', () => {
    // Before either change: 5 hours apart.
    expect(formatCallTime('2027-03-10T15:00:00Z', 'America/New_York')).toBe(
      'Wednesday, 10 March 2027, 10:00 Eastern Time',
    );
    expect(formatCallTime('2027-03-10T15:00:00Z', 'Europe/London')).toBe(
      'Wednesday, 10 March 2027, 15:00 UK time',
    );
  });

  it('knows the fortnight in March when New York has changed and London has not', () => {
    // US clocks went forward on 14 March 2027, UK clocks on 28 March: 4 hours apart.
    const start = '2027-03-22T14:00:00Z';
    expect(formatCallTime(start, 'America/New_York')).toMatch(/22 March 2027, 10:00 Eastern Time$/);
    expect(formatCallTime(start, 'Europe/London')).toMatch(/22 March 2027, 14:00 UK time$/);
  });

  it('names a zone the same in summer and winter, the clock telling the change', () => {
    expect(formatCallTime('2027-04-05T14:00:00Z', 'Europe/London')).toMatch(/, 15:00 UK time$/);
    expect(formatCallTime('2027-01-05T14:00:00Z', 'Europe/London')).toMatch(/, 14:00 UK time$/);
    expect(formatCallTime('2027-07-05T14:00:00Z', 'Europe/Paris')).toMatch(
      /, 16:00 Central European Time$/,
    );
  });

  it('gives the offset of a zone with no common name, as it is that day', () => {
    expect(formatCallTime('2027-07-05T14:00:00Z', 'Etc/GMT+5')).toMatch(/, 09:00 GMT-5$/);
    expect(formatCallTime('2027-07-05T14:00:00Z', 'UTC')).toMatch(/, 14:00 UTC$/);
  });

  it('writes a 12-hour clock and US dates for en-US, a 24-hour one for en-GB', () => {
    const start = '2027-03-10T15:00:00Z';
    expect(formatCallTime(start, 'America/New_York', 'en-US')).toBe(
      'Wednesday, March 10, 2027, 10:00 AM Eastern Time',
    );
    expect(formatCallTime('2027-03-10T20:30:00Z', 'America/New_York', 'en-US')).toMatch(
      /, 3:30 PM Eastern Time$/,
    );
    expect(formatCallTime(start, 'America/New_York', 'en-GB')).toMatch(/, 10:00 Eastern Time$/);
    // Plain spaces (ICU writes a narrow one before AM): a subject line stays ASCII.
    expect(formatCallTime(start, 'America/New_York', 'en-US')).toMatch(/^[\x20-\x7e]+$/);
  });

  it("gives the visitor's date where it differs from the agency's", () => {
    const start = '2027-03-23T02:00:00Z';
    expect(formatCallTime(start, 'America/New_York')).toMatch(/Monday,? 22 March 2027, 22:00/);
    expect(formatCallTime(start, 'Europe/London')).toMatch(/Tuesday,? 23 March 2027, 02:00/);
    expect(formatCallTime(start, 'America/New_York', 'en-US')).toMatch(
      /^Monday, March 22, 2027, 10:00 PM/,
    );
  });
});

describe('zoneLabel', () => {
  it('names a zone and its city, the city as its people write it today', () => {
    expect(zoneLabel('America/New_York')).toBe('Eastern Time (New York)');
    // What Chromium reports for India, whatever the system's zone: never "Calcutta".
    expect(Intl.DateTimeFormat('en', { timeZone: 'Asia/Kolkata' }).resolvedOptions().timeZone).toBe(
      'Asia/Calcutta',
    );
    expect(zoneLabel('Asia/Calcutta')).toBe('India Standard Time (Kolkata)');
    expect(zoneLabel('Asia/Kolkata')).toBe('India Standard Time (Kolkata)');
    expect(zoneLabel('Europe/Kiev')).toMatch(/\(Kyiv\)$/);
    expect(zoneLabel('Asia/Saigon')).toMatch(/\(Ho Chi Minh City\)$/);
    expect(zoneLabel('Asia/Katmandu')).toMatch(/\(Kathmandu\)$/);
    expect(zoneLabel('America/Argentina/Buenos_Aires')).toMatch(/\(Buenos Aires\)$/);
  });

  it('names a zone of no place by its offset alone, and no city after what an object inherits', () => {
    // Etc/GMT+5 is five hours behind UTC: its name's sign is POSIX's, and no city's.
    expect(zoneLabel('Etc/GMT+5')).toBe('GMT-5');
    expect(zoneLabel('Etc/UTC')).toBe('UTC');
    expect(zoneLabel('UTC')).toBe('UTC');
    expect(zoneLabel('Area/constructor')).toMatch(/\(constructor\)$/);
  });
});

describe('the locale times are read in', () => {
  it("keeps an English locale, and otherwise follows the clock of the visitor's own", () => {
    expect(readingLocale('en-US')).toBe('en-US');
    expect(readingLocale('en-AU')).toBe('en-AU');
    expect(readingLocale('de-DE')).toBe('en-GB');
    expect(readingLocale('es-MX')).toBe('en-US');
  });

  it('with no locale known, goes by the zone: 12-hour in the Americas, else 24-hour', () => {
    expect(readingLocale(undefined, 'America/Chicago')).toBe('en-US');
    expect(readingLocale(undefined, 'Europe/Berlin')).toBe('en-GB');
    expect(readingLocale('not a locale', 'Asia/Tokyo')).toBe('en-GB');
  });

  it('keeps only the language and region of what a browser or a crafted post sends', () => {
    expect(visitorLocale('en-US-u-ca-islamic-nu-arab-hc-h23')).toBe('en-US');
    expect(visitorLocale('zh-Hant-TW')).toBe('zh-TW');
    for (const bad of ['', '<script>', 'en_US\r\nBcc: x', 'x'.repeat(80), 42, undefined])
      expect(visitorLocale(bad)).toBeUndefined();
  });

  it('reads the language an Accept-Language header prefers', () => {
    expect(acceptedLocale('en-US,en;q=0.9')).toBe('en-US');
    expect(acceptedLocale('fr;q=0.5, en-gb;q=0.8, *')).toBe('en-GB');
    expect(acceptedLocale('*')).toBeUndefined();
    expect(acceptedLocale(null)).toBeUndefined();
  });
});

describe('nearest', () => {
  const free = ['09:30', '10:15', '11:00', '11:45', '13:30'].map((time) => ({
    start: `2027-01-05T${time}:00Z`,
    end: '',
  }));

  it('takes the free slots nearest to the wanted start, and lists them in time order', () => {
    expect(starts(nearest(free, '2027-01-05T11:10:00Z'))).toEqual([
      '2027-01-05T10:15:00Z',
      '2027-01-05T11:00:00Z',
      '2027-01-05T11:45:00Z',
    ]);
    expect(starts(nearest(free, '2027-01-05T14:00:00Z', 2))).toEqual([
      '2027-01-05T11:45:00Z',
      '2027-01-05T13:30:00Z',
    ]);
  });

  it('puts the earlier of two equally near slots first', () => {
    // 10:37:30 is 22.5 minutes from both 10:15 and 11:00; the input order must not matter.
    expect(starts(nearest([...free].reverse(), '2027-01-05T10:37:30Z', 2))).toEqual([
      '2027-01-05T10:15:00Z',
      '2027-01-05T11:00:00Z',
    ]);
  });
});

describe('dayAfter', () => {
  it('gives the next calendar date across months, years and a clock change', () => {
    expect(dayAfter('2026-12-31')).toBe('2027-01-01');
    expect(dayAfter('2028-02-28')).toBe('2028-02-29');
    expect(dayAfter('2026-03-28')).toBe('2026-03-29');
    expect(dayAfter('2026-03-29')).toBe('2026-03-30');
  });
});

describe('isTimeZone', () => {
  it('knows a real zone from a made-up or empty one', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe("the offered window's times", () => {
  // A Monday morning before the window: 24 hours' notice, 21 days ahead (to Monday 2027-01-25).
  const now = Date.parse('2027-01-04T08:00:00Z');
  const perWeekday = {
    monday: slotsOfDate(availability, '2027-01-04').length,
    other: slotsOfDate(availability, '2027-01-05').length,
  };

  it('are every host’s slots from the notice to the days ahead, whatever is booked', () => {
    // Monday 4 January is inside the notice; then Tuesday to Friday, three full weeks of them
    // (Tuesday 12 January closed), and the Mondays of 11, 18 and 25 January.
    const expected = 3 * perWeekday.monday + (3 * 4 - 1) * perWeekday.other;
    expect(perWeekday).toEqual({ monday: 9, other: 4 });
    expect(offeredTimes(availability, now)).toBe(expected);
    // Each host's hours count: a second host with the entry's hours doubles them.
    const two = {
      ...availability,
      hosts: [...availability.hosts, { id: 'ben', name: 'Ben', email: 'ben@agency.example' }],
    };
    expect(offeredTimes(two, now)).toBe(2 * expected);
  });

  it('lose the slots that come inside the notice as the day goes on, from a day laid out once', () => {
    const at = (iso: string) => offeredTimes(availability, Date.parse(iso));
    const morning = at('2027-01-04T08:00:00Z');
    // By Monday 10:00, Tuesday 09:30 is inside the notice.
    expect(at('2027-01-04T10:00:00Z')).toBe(morning - 1);
    expect(freeSlots(availability, [], now).length).toBe(morning);
  });
});
