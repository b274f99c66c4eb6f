/**
 * How a call's time reads, in any zone: Intl only, so that the dialog's time picker (in the browser)
 * and the server's pages, e-mails and staff CLI share it. Working out the times themselves is
 * src/server/booking/free-times.ts's business (Temporal).
 */
import { DEFAULT_TIME_ZONE, type Slot } from './booking.ts';

/**
 * One formatter per locale, zone and options, kept: making one costs some fifty times a use of it,
 * and a day of the time picker, a page of free times or a call's e-mails format dozens of times in
 * the same few zones. At most a few hundred are kept (a zone's name in another case is another key).
 */
const formatters = new Map<string, Intl.DateTimeFormat | undefined>();
const MAX_FORMATTERS = 400;

/** A kept formatter; undefined when the platform refuses its options (an old browser's Intl). */
function formatterOrNone(locale: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale} ${JSON.stringify(options)}`;
  if (formatters.has(key)) return formatters.get(key);
  let made: Intl.DateTimeFormat | undefined;
  try {
    made = new Intl.DateTimeFormat(locale, options);
  } catch {
    made = undefined;
  }
  if (formatters.size >= MAX_FORMATTERS) formatters.clear();
  formatters.set(key, made);
  return made;
}

const formatter = (locale: string, options: Intl.DateTimeFormatOptions) =>
  formatterOrNone(locale, options) ?? formatterOrNone('en-GB', options)!;

/** The locale of the times when none is known: the agency's (its site is in British English). */
export const DEFAULT_LOCALE = 'en-GB';

/**
 * A visitor's locale as a booking keeps it ('en-US', 'de-DE'): a language tag cut to its language
 * and region, so that nothing else a browser (or a crafted post) sends, such as another calendar
 * or numbering system, reaches the times; undefined when it is no tag.
 */
export function visitorLocale(tag: unknown): string | undefined {
  if (typeof tag !== 'string' || !tag || tag.length > 64) return undefined;
  try {
    const { language, region } = new Intl.Locale(tag);
    const cut = region ? `${language}-${region}` : language;
    return Intl.DateTimeFormat.supportedLocalesOf(cut).length ? cut : undefined;
  } catch {
    return undefined;
  }
}

/** The language a request's Accept-Language header prefers most ('en-US,en;q=0.9' gives 'en-US'). */
export function acceptedLocale(header: string | null | undefined): string | undefined {
  let best: { tag: string; q: number } | undefined;
  for (const part of (header ?? '').slice(0, 500).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const q = Number(
      params
        .find((p) => p.trim().startsWith('q='))
        ?.trim()
        .slice(2) ?? 1,
    );
    const locale = visitorLocale(tag.trim());
    if (locale && Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { tag: locale, q };
  }
  return best?.tag;
}

const twelveHour = (locale: string) =>
  ['h11', 'h12'].includes(formatter(locale, { hour: 'numeric' }).resolvedOptions().hourCycle ?? '');

/**
 * The locale a reader's times are written in. The words are English: an English locale is kept
 * (en-US, en-AU, en-IN: their own clock and order of day and month); another language's clock
 * chooses between en-US (12-hour) and en-GB (24-hour). With no locale known, the zone's: the
 * Americas read a 12-hour clock, the rest of the world the agency's 24-hour one.
 */
export function readingLocale(locale: string | undefined, timeZone?: string): string {
  const known = visitorLocale(locale);
  if (!known) return timeZone?.startsWith('America/') ? 'en-US' : DEFAULT_LOCALE;
  if (known.startsWith('en')) return known;
  return twelveHour(known) ? 'en-US' : 'en-GB';
}

/** ICU puts narrow and thin spaces in times ('10:00\u202fAM'): plain ones read (and mail) alike. */
const plainSpaces = (text: string) => text.replace(/[\u202f\u2009]/g, ' ');

export const formatIn = (
  start: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
  locale = DEFAULT_LOCALE,
) => plainSpaces(formatter(locale, { timeZone, ...options }).format(new Date(start)));

/** '09:30', or '9:30 AM' where the clock has 12 hours. */
export const clock = (start: string, timeZone: string, locale = DEFAULT_LOCALE) =>
  formatIn(
    start,
    timeZone,
    { hour: twelveHour(locale) ? 'numeric' : '2-digit', minute: '2-digit' },
    locale,
  );

/** 'Tuesday 1 December' ('Tuesday, December 1' in en-US). */
export const dayLabel = (start: string, timeZone: string, locale = DEFAULT_LOCALE) =>
  formatIn(start, timeZone, { weekday: 'long', day: 'numeric', month: 'long' }, locale);

/** The calendar date of an instant in a zone, '2026-12-01'. */
export const dateIn = (start: string, timeZone: string) =>
  formatter('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(start),
  );

const zonePart = (timeZone: string, style: string, locale: string, at: number | string) =>
  formatterOrNone(locale, { timeZone, timeZoneName: style } as Intl.DateTimeFormatOptions)
    ?.formatToParts(new Date(at))
    .find((part) => part.type === 'timeZoneName')?.value;

/**
 * A zone as people name it, the same all year: 'Eastern Time', 'Central European Time', 'UK time'
 * (what the platform calls 'United Kingdom Time'). A zone with no such name is its offset on the
 * day `at` ('GMT-5', 'UTC'), as is every zone where the platform has no generic names.
 */
export function zoneName(
  timeZone: string,
  locale = DEFAULT_LOCALE,
  at: number | string = Date.now(),
) {
  if (timeZone === 'Europe/London') return 'UK time';
  const generic = zonePart(timeZone, 'longGeneric', locale, at);
  if (generic && !/^(GMT|UTC)/.test(generic)) return generic;
  const offset =
    zonePart(timeZone, 'shortOffset', locale, at) ?? zonePart(timeZone, 'short', locale, at);
  return !offset || /^(GMT|UTC)([+-]0+(:00)?)?$/.test(offset) ? 'UTC' : offset;
}

/**
 * The names of places that the platform's zones still spell as they once were: Chromium reports
 * India's zone as Asia/Calcutta whatever the system says (Asia/Kolkata), and so Kyiv, Ho Chi Minh
 * City, Kathmandu. A visitor reads the name their city goes by today.
 */
const RENAMED: Record<string, string> = {
  Calcutta: 'Kolkata',
  Kiev: 'Kyiv',
  Saigon: 'Ho Chi Minh City',
  Katmandu: 'Kathmandu',
  Rangoon: 'Yangon',
  Godthab: 'Nuuk',
  Faeroe: 'Faroe',
  Asmera: 'Asmara',
  Truk: 'Chuuk',
  Ponape: 'Pohnpei',
};

/** The city a zone is named after, as people write it: 'New York', 'Kolkata' (of Asia/Calcutta). */
export function zoneCity(timeZone: string) {
  const place = (timeZone.split('/').at(-1) ?? timeZone).replaceAll('_', ' ');
  return Object.hasOwn(RENAMED, place) ? RENAMED[place]! : place;
}

/**
 * 'Eastern Time (New York)', 'India Standard Time (Kolkata)': a zone as people say it, and its city.
 * A zone of no place (UTC, Etc/GMT+5, whose sign is POSIX's, the offset's opposite) is its name alone.
 */
export function zoneLabel(timeZone: string, locale = DEFAULT_LOCALE) {
  const name = zoneName(timeZone, locale);
  const city = /^Etc\/|^[^/]*$/.test(timeZone) ? name : zoneCity(timeZone);
  return name === city ? name : `${name} (${city})`;
}

/**
 * 'Tuesday 1 December 2026, 09:30 UK time' in a zone ('Tuesday, December 1, 2026, 10:00 AM Eastern
 * Time' in en-US): how mails and pages name a call's time.
 */
export function formatCallTime(start: string, timeZone: string, locale = DEFAULT_LOCALE): string {
  const day = formatIn(start, timeZone, { dateStyle: 'full' }, locale);
  return `${day}, ${clock(start, timeZone, locale)} ${zoneName(timeZone, locale, start)}`;
}

/** Slots grouped by their date in a zone, in order, leaving out those in `leaveOut`. */
export function byDate(slots: readonly Slot[], timeZone: string, leaveOut: readonly Slot[] = []) {
  const left = new Set(leaveOut.map((slot) => slot.start));
  const days = new Map<string, Slot[]>();
  for (const slot of slots) {
    if (left.has(slot.start)) continue;
    const date = dateIn(slot.start, timeZone);
    days.set(date, [...(days.get(date) ?? []), slot]);
  }
  return days;
}

/**
 * The date a call's change page lists first (in the zone it shows): the call's own, so that the
 * times near it come first, when it falls within the free days; else '' (the first free day), as
 * for a call before the first free day or past the last.
 */
export function callDayFirst(slots: readonly Slot[], timeZone: string, start: string): string {
  const day = dateIn(start, timeZone);
  const dates = [...byDate(slots, timeZone).keys()];
  return dates[0] !== undefined && dates[0] < day && dates.at(-1)! >= day ? day : '';
}

/** The first of `dates` on or after `from` (calendar dates, in order); the first when none is. */
export const firstFrom = (dates: readonly string[], from: string) =>
  dates.find((date) => date >= from) ?? dates[0] ?? '';

/** The slots of the first `days` dates (in a zone) that have any: the first answer a phone waits for. */
export function firstDays(slots: readonly Slot[], timeZone: string, days: number): Slot[] {
  const dates = [...byDate(slots, timeZone).keys()].slice(0, days);
  const last = dates.at(-1);
  return last === undefined ? [] : slots.filter((slot) => dateIn(slot.start, timeZone) <= last);
}

/**
 * The zones a booked call is shown in, from what was stored with it: the agency's when it was
 * booked, and the visitor's (their browser's; the agency's for a booking made without JavaScript),
 * with the locale each reads times in.
 */
export function callZones(data: Record<string, unknown>) {
  const agency =
    typeof data.agency_time_zone === 'string' ? data.agency_time_zone : DEFAULT_TIME_ZONE;
  const visitor = typeof data.time_zone === 'string' ? data.time_zone : agency;
  return {
    agency,
    visitor,
    /** How the agency's copies write times: its zone's clock. */
    agencyLocale: readingLocale(undefined, agency),
    /** How the prospect's do: their browser's locale, as stored with the booking, else their zone's. */
    visitorLocale: readingLocale(
      typeof data.locale === 'string' ? data.locale : undefined,
      visitor,
    ),
  };
}
