/**
 * A host's calendar read through CalDAV itself (`HOST=caldav` in CALENDAR_FEEDS: the calendar of
 * CALENDAR_WRITE, with its credentials), instead of a published feed: a calendar-query REPORT
 * (RFC 4791 §7.8) of the events that reach into the days offered, made one iCalendar text for
 * ./busy-times.ts as a feed's would be. A host's edit counts at the next read, where a published
 * feed (Google's, Microsoft's) may lag by hours; and Fastmail and iCloud publish none that carries
 * credentials. It costs a full answer at each read (no ETag to ask "changed?").
 */
import { CalDavError, guardedFetch, withoutCredentials, type FetchFor } from './caldav-fetch.ts';
import { FeedError, type FeedRead, type FetchOptions } from './fetch-feed.ts';

const DAY = 86_400_000;
/** The days read: from yesterday to past the most days offered (availability.yaml's daysAhead). */
const DAYS_AHEAD = 95;

const utc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');

/** The calendar-query's filter: the events that reach into [from, to). */
const overlapping = (from: number, to: number) => ({
  'comp-filter': {
    _attributes: { name: 'VCALENDAR' },
    'comp-filter': {
      _attributes: { name: 'VEVENT' },
      'time-range': { _attributes: { start: utc(from), end: utc(to) } },
    },
  },
});

/**
 * The components of each calendar object (its VEVENTs, VTIMEZONEs), one VCALENDAR of them all. An
 * object's bounds are whole lines: a line of text is escaped and folded lines go on with a space, so
 * only a real BEGIN or END is one, never a prospect's message saying "END:VCALENDAR" (which cut the
 * object there and hid the host's next event inside the site's own). One without both is no object:
 * the text then fails to parse, and the read with it.
 */
export function joinCalendars(objects: readonly string[]): string {
  const inner = objects.map((object) => {
    const lines = object.split(/\r?\n/);
    const begin = lines.indexOf('BEGIN:VCALENDAR');
    const end = lines.lastIndexOf('END:VCALENDAR');
    if (begin < 0 || end < begin) return 'BEGIN:VCALENDAR\r\n';
    const own = lines.slice(begin + 1, end);
    // Each object's own header lines (VERSION, PRODID, …) come before its first component.
    const first = own.findIndex((line) => line.startsWith('BEGIN:'));
    return first < 0 ? '' : `${own.slice(first).join('\r\n')}\r\n`;
  });
  return `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:caldav-report\r\n${inner.join('')}END:VCALENDAR\r\n`;
}

/** A calendar object's text as tsdav reads it from the answer (text, or CDATA). */
const dataOf = (data: unknown): string | undefined => {
  const text = (data as { _cdata?: unknown } | undefined)?._cdata ?? data;
  return typeof text === 'string' ? text : undefined;
};

/** Reads a calendar collection's events over the days offered; throws FeedError (no address in it). */
export async function reportCalendar(
  url: URL,
  options: FetchOptions,
  now = Date.now(),
  fetchFor: FetchFor = guardedFetch,
): Promise<FeedRead> {
  const from = Math.floor(now / DAY) * DAY - DAY;
  const { url: bare, headers } = withoutCredentials(url);
  const send = fetchFor(options);
  let status = 0;
  let answered: Promise<string> | undefined;
  let answers;
  try {
    // Loaded at the first read, as ./caldav.ts loads it at the first write.
    const { calendarQuery } = await import('tsdav');
    answers = await calendarQuery({
      url: bare.href,
      props: { 'c:calendar-data': {} },
      filters: [overlapping(from, from + DAYS_AHEAD * DAY)],
      depth: '1',
      headers,
      fetch: async (input, init) => {
        const response = await send(input, init);
        status = response.status;
        answered = response.clone().text();
        return response;
      },
    });
  } catch (error) {
    // Only our own messages, or the status: tsdav's quote the answer.
    if (error instanceof CalDavError) throw new FeedError(error.message);
    throw new FeedError(status === 207 ? 'its answer could not be read' : `it answered ${status}`);
  }
  if (status !== 207) throw new FeedError(`it answered ${status}`);
  // An answer tsdav could not read as a multistatus comes back whole, with no props; an empty or
  // cut-off one, and one refusing a part, read as fewer events: none is an empty calendar, whose
  // every time would be offered.
  const whole = /(?:<\/(?:[\w.-]+:)?multistatus\s*>|<(?:[\w.-]+:)?multistatus\b[^>]*\/>)\s*$/.test(
    (await answered) ?? '',
  );
  if (!whole || answers.some((answer) => answer.props === undefined || answer.ok === false))
    throw new FeedError('its answer could not be read');
  const objects = answers.map((answer) => dataOf(answer.props?.calendarData));
  return {
    status: 'modified',
    body: joinCalendars(objects.filter((text) => text !== undefined)),
    etag: undefined,
    lastModified: undefined,
  };
}
