/**
 * A feed's own VTIMEZONE, read at a bounded cost. ical.js lists every change of a zone from each
 * observance's DTSTART to five years past the time it converts, stepping its rule: Outlook's zones
 * begin in 1601 (a quarter of a second of a core per zone and read on these machines), one begun
 * in year 1 took more, and one whose rule changes the clocks every second, or never meets its own
 * parts, never finished (one invitation anyone can send held a read for its whole time limit, and
 * the host's calendar was unreadable).
 *
 * So a zone's rules are read only in the forms time zones use: once a year, on the nth weekday of
 * a month, a date, or a weekday among seven dates in a row; each begun no earlier than the year
 * before the window (a change of the clocks before it is not read by any time in the window), or
 * the year before its UNTIL. Any other zone is not read: its times are read in the host's zone, as
 * an unknown zone's are, with a warning.
 */
import ICAL from 'ical.js';

/** The most observances with a rule, and dates of change (RDATE), one zone may hold. */
const MAX_RULES = 50;
const MAX_DATES = 2_000;

/** A zone of the feed as ical.js reads it, its rules begun near `firstYear`; undefined if none may be. */
export function feedZone(vtimezone: ICAL.Component, firstYear: number): ICAL.Timezone | undefined {
  // A copy: one parsed feed is read for several windows.
  const zone = new ICAL.Component(structuredClone(vtimezone.toJSON()));
  let rules = 0;
  let dates = 0;
  for (const observance of zone.getAllSubcomponents()) {
    dates += observance.getAllProperties('rdate').length;
    // ical.js reads an observance's first RRULE only, from its DTSTART.
    const rule = observance.getFirstPropertyValue('rrule');
    const start = observance.getFirstPropertyValue('dtstart') as ICAL.Time | null;
    if (!rule || !start) continue;
    // (A rule ical.js refused is text: see parseLeniently in ./busy-times.ts.)
    if (!(rule instanceof ICAL.Recur)) return undefined;
    if (++rules > MAX_RULES || !onceAYear(rule, start)) return undefined;
    const year = Math.min(Math.max(start.year, firstYear), (rule.until?.year ?? Infinity) - 1);
    if (year > start.year) {
      const later = start.clone();
      later.year = year;
      observance.updatePropertyWithValue('dtstart', later);
    }
  }
  return dates > MAX_DATES ? undefined : new ICAL.Timezone(zone);
}

/** The fewest days of each month. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether a rule changes the clocks once a year at most, in a form ical.js steps a year at a time:
 * the nth weekday of a month (`BYMONTH=10;BYDAY=-1SU`), a date (`BYMONTH=3;BYMONTHDAY=22`), a
 * weekday among seven dates in a row (`BYMONTH=3;BYDAY=SU;BYMONTHDAY=8,…,14`), or DTSTART's date.
 */
function onceAYear(rule: ICAL.Recur, start: ICAL.Time): boolean {
  if (rule.freq !== 'YEARLY' || rule.interval !== 1 || rule.count) return false;
  const { BYMONTH: months, BYDAY: weekdays, BYMONTHDAY: dates, ...others } = rule.parts;
  if (Object.keys(others).length > 0) return false;
  if (!months && !weekdays && !dates) return !(start.month === 2 && start.day === 29);
  if (months?.length !== 1 || !Number.isInteger(months[0]) || months[0]! < 1 || months[0]! > 12)
    return false;
  const length = MONTH_DAYS[months[0]! - 1]!;
  const inMonth = (date: number) =>
    Number.isInteger(date) && date !== 0 && Math.abs(date) <= length;
  if (!weekdays) return dates?.length === 1 && inMonth(dates[0]!);
  const weekday =
    weekdays.length === 1 ? /^([+-]?[1-5])?(?:MO|TU|WE|TH|FR|SA|SU)$/.exec(weekdays[0]!) : null;
  if (!weekday) return false;
  if (!dates) return weekday[1] !== undefined;
  return (
    weekday[1] === undefined &&
    dates.length === 7 &&
    dates.every((date, i) => date > 0 && date === dates[0]! + i && date <= length)
  );
}
