/**
 * A zone as an iCalendar event written in it needs it (RFC 5545 §3.6.5): times on the zone's clock
 * (DTSTART;TZID=…), and a VTIMEZONE that gives its offsets and each change of them from a year
 * before the event to a year after, found with the platform's own zone data (Intl), so that a
 * calendar that reads the VTIMEZONE shows the event, and one moved within that time, right.
 */
const DAY = 86_400_000;
const MINUTE = 60_000;

const formats = new Map<string, Intl.DateTimeFormat>();

/** `zone`'s offset from UTC at `ms`, in minutes. */
function offsetMinutes(ms: number, zone: string): number {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    formats.set(zone, format);
  }
  const name = format.formatToParts(ms).find((part) => part.type === 'timeZoneName')!.value;
  const [, sign, hours = '0', minutes = '0'] = /([+-])(\d\d):?(\d\d)?/.exec(name) ?? [];
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

/** +0100: an offset as TZOFFSETFROM and TZOFFSETTO write it. */
const utcOffset = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}${String(Math.abs(minutes) % 60).padStart(2, '0')}`;

/** 20261201T103000: `ms` on a clock `minutes` ahead of UTC (a local DATE-TIME, §3.3.5). */
const localTime = (ms: number, minutes: number) =>
  new Date(ms + minutes * MINUTE)
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '');

/** 20261201T103000: `ms` on `zone`'s clock. */
export const wallTime = (ms: number, zone: string) => localTime(ms, offsetMinutes(ms, zone));

/** Each change of `zone`'s offset within [from, to): when, and from which offset to which. */
function changes(zone: string, from: number, to: number) {
  const found: { at: number; from: number; to: number }[] = [];
  let before = offsetMinutes(from, zone);
  for (let day = from + DAY; day < to; day += DAY) {
    const after = offsetMinutes(day, zone);
    if (after === before) continue;
    let [low, high] = [day - DAY, day];
    while (high - low > MINUTE) {
      const middle = Math.floor((low + high) / 2 / MINUTE) * MINUTE;
      if (offsetMinutes(middle, zone) === before) low = middle;
      else high = middle;
    }
    found.push({ at: high, from: before, to: after });
    before = after;
  }
  return found;
}

/** One observance: from its onset (on the clock before it), the offset `to`. */
const observance = (onset: string, from: number, to: number, daylight: boolean) => [
  `BEGIN:${daylight ? 'DAYLIGHT' : 'STANDARD'}`,
  `DTSTART:${onset}`,
  `TZOFFSETFROM:${utcOffset(from)}`,
  `TZOFFSETTO:${utcOffset(to)}`,
  `END:${daylight ? 'DAYLIGHT' : 'STANDARD'}`,
];

/** The VTIMEZONE of `zone` around the instant `ms` (a year each side), as content lines. */
export function vtimezone(zone: string, ms: number): string[] {
  const from = ms - 366 * DAY;
  const found = changes(zone, from, ms + 366 * DAY);
  const first = offsetMinutes(from, zone);
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${zone}`,
    ...observance('19700101T000000', first, first, false),
    // The later offset of a change is summer time where the clocks go forward.
    ...found.flatMap((change) =>
      observance(
        localTime(change.at, change.from),
        change.from,
        change.to,
        change.to > change.from,
      ),
    ),
    'END:VTIMEZONE',
  ];
}
