/**
 * When something was saved, in a marketer's words and in their own time zone: "today 09:23",
 * "yesterday 17:02", "3 March, 14:05", "3 March 2025, 14:05". Never an ISO stamp. Plain code that
 * imports only the domain's words, so that both halves of the editor use it: the dev server renders
 * the History pages in the time zone the editor's tab reports (a cookie, `TIME_ZONE_COOKIE`), and
 * the tab writes a page's times again in its own zone when the page was rendered in another
 * (../browser/tab-history.ts).
 */
import { MONTH_NAMES } from '../domain/time-zone.ts';

/** The cookie in which the editor's tab tells the dev server its time zone ("Europe/London"). */
export const TIME_ZONE_COOKIE = 'editor-time-zone';

export interface TimeWordsOptions {
  /** What "today" is measured from, in ms since the epoch. */
  now?: number;
  /** The reader's time zone ("Europe/London"); none or an unknown one: this machine's. */
  timeZone?: string | undefined;
  /** With the seconds ("today 09:23:41"): two saves in the same minute told apart. */
  seconds?: boolean;
  /** Which of several saves in the same second this is, from 1, oldest first. */
  order?: number;
}

/** A time zone the platform knows, else undefined (this machine's zone is used). */
export function knownTimeZone(name: string | null | undefined): string | undefined {
  if (!name || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The calendar day, hour, minute and second of an instant in a zone. */
function partsOf(at: number, timeZone: string | undefined) {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: knownTimeZone(timeZone),
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(
    format.formatToParts(new Date(at)).map((part) => [part.type, part.value]),
  );
  const number = (type: string) => Number(parts[type]);
  return {
    year: number('year'),
    month: number('month'),
    day: number('day'),
    time: `${parts.hour}:${parts.minute}`,
    second: parts.second ?? '00',
  };
}

/** Days from the epoch of a calendar date: two dates' difference in days, whatever the zone. */
const dayNumber = ({ year, month, day }: { year: number; month: number; day: number }) =>
  Math.round(Date.UTC(year, month - 1, day) / 86_400_000);

/** "1st", "2nd", "3rd", "4th", "11th", "21st". */
const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
};

/** When `at` was, as the reader says it: "today 09:23", "yesterday 17:02", "3 March, 14:05". */
export function timeWords(at: number, options: TimeWordsOptions = {}): string {
  const { now = Date.now(), timeZone, seconds = false, order } = options;
  const then = partsOf(at, timeZone);
  const today = partsOf(now, timeZone);
  const time = seconds || order ? `${then.time}:${then.second}` : then.time;
  const daysAgo = dayNumber(today) - dayNumber(then);
  const day =
    daysAgo <= 0
      ? 'today'
      : daysAgo === 1
        ? 'yesterday'
        : then.year === today.year
          ? `${then.day} ${MONTH_NAMES[then.month - 1]},`
          : `${then.day} ${MONTH_NAMES[then.month - 1]} ${then.year},`;
  return `${day} ${time}${order ? ` (${ordinal(order)} save that second)` : ''}`;
}

/** How each of several times is told apart from the others: its seconds, and an order if need be. */
export interface Apart {
  seconds: boolean;
  order?: number;
}

/**
 * How to tell each of these saves from the others when they are listed together, by their times:
 * with the seconds where two fall in the same minute, and with an order (oldest first) where two
 * fall in the same second too. In the order given, newest first; `ids` says which are one save
 * listed twice (a save of several entries), which need nothing to tell them apart.
 */
export function apart(
  times: readonly number[],
  timeZone?: string,
  ids: readonly string[] = times.map((_, index) => String(index)),
): Apart[] {
  const minuteOf = (at: number) => {
    const { year, month, day, time } = partsOf(at, timeZone);
    return `${year}-${month}-${day} ${time}`;
  };
  // Each save once, in the order given.
  const saves = [...new Map(times.map((at, index) => [ids[index]!, at])).entries()];
  const minutes = new Map(saves.map(([id, at]) => [id, minuteOf(at)]));
  const second = (at: number) => Math.floor(at / 1000);
  const of = new Map(
    saves.map(([id, at], index): [string, Apart] => {
      const sharesMinute = saves.some(
        ([other]) => other !== id && minutes.get(other) === minutes.get(id),
      );
      const sameSecond = saves.filter(([, other]) => second(other) === second(at));
      if (sameSecond.length < 2) return [id, { seconds: sharesMinute }];
      // Oldest first: listed newest first, a save listed later is the earlier one.
      const older = sameSecond.filter(
        ([, other], i) => other < at || (other === at && saves.indexOf(sameSecond[i]!) > index),
      );
      return [id, { seconds: true, order: older.length + 1 }];
    }),
  );
  return ids.map((id) => of.get(id)!);
}
