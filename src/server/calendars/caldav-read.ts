/**
 * A host's calendar read through CalDAV itself (`HOST=caldav` in CALENDAR_FEEDS: the calendar of
 * CALENDAR_WRITE, with its credentials), instead of a published feed: a calendar-query REPORT
 * (RFC 4791 §7.8) of the events that reach into the days offered, made one iCalendar text for
 * ./busy-times.ts as a feed's would be. A host's edit counts at the next read, where a published
 * feed (Google's, Microsoft's) may lag by hours; and Fastmail and iCloud publish none that carries
 * credentials. It costs a full answer at each read (no ETag to ask "changed?").
 */
import { caldav as sendCalDav, CalDavError, type CalDav } from './caldav.ts';
import { FeedError, type FeedRead, type FetchOptions } from './fetch-feed.ts';

const DAY = 86_400_000;
/** The days read: from yesterday to past the most days offered (availability.yaml's daysAhead). */
const DAYS_AHEAD = 95;

const utc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');

const query = (from: number, to: number) =>
  `<?xml version="1.0" encoding="utf-8"?>
<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:prop><C:calendar-data/></D:prop>
  <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">
    <C:time-range start="${utc(from)}" end="${utc(to)}"/>
  </C:comp-filter></C:comp-filter></C:filter>
</C:calendar-query>`;

const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** An XML element's text: its CDATA as written, its entities read. */
const xmlText = (text: string) =>
  text.includes('<![CDATA[')
    ? text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    : text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) =>
        name.startsWith('#')
          ? String.fromCodePoint(
              Number(name[1]?.toLowerCase() === 'x' ? `0${name.slice(1)}` : name.slice(1)),
            )
          : (entities[name] ?? whole),
      );

/** The components of each calendar object (its VEVENTs, VTIMEZONEs), one VCALENDAR of them all. */
export function joinCalendars(objects: readonly string[]): string {
  const inner = objects.map((object) =>
    object
      .replace(/\r?\n/g, '\r\n')
      .replace(/^[\s\S]*?BEGIN:VCALENDAR\r\n/, '')
      .replace(/END:VCALENDAR[\s\S]*$/, '')
      // Each object's own header lines (VERSION, PRODID, …) come before its first component.
      .replace(/^(?:(?!BEGIN:)[^\r\n]*\r\n)*/, ''),
  );
  return `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:caldav-report\r\n${inner.join('')}END:VCALENDAR\r\n`;
}

/** The calendar-data of a REPORT's answer (a multistatus), each a calendar object's text. */
export const calendarData = (xml: string): string[] =>
  [
    ...xml.matchAll(/<(?:[\w-]+:)?calendar-data\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?calendar-data>/g),
  ].map((match) => xmlText(match[1]!));

/** Reads a calendar collection's events over the days offered; throws FeedError (no address in it). */
export async function reportCalendar(
  url: URL,
  options: FetchOptions,
  now = Date.now(),
  caldav: CalDav = sendCalDav,
): Promise<FeedRead> {
  const from = Math.floor(now / DAY) * DAY - DAY;
  let answer;
  try {
    answer = await caldav({
      method: 'REPORT',
      url,
      report: true,
      body: query(from, from + DAYS_AHEAD * DAY),
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
    });
  } catch (error) {
    throw new FeedError(error instanceof CalDavError ? error.message : 'it could not be read');
  }
  if (answer.status !== 207) throw new FeedError(`it answered ${answer.status}`);
  return {
    status: 'modified',
    body: joinCalendars(calendarData(answer.body)),
    etag: undefined,
    lastModified: undefined,
  };
}
