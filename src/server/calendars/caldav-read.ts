/**
 * A host's calendar read through CalDAV itself (`HOST=caldav` in CALENDAR_FEEDS: the calendar of
 * CALENDAR_WRITE, with its credentials), instead of a published feed: a calendar-query REPORT
 * (RFC 4791 §7.8) of the events that reach into the days offered, made one iCalendar text for
 * ./busy-times.ts as a feed's would be. A host's edit counts at the next read, where a published
 * feed (Google's, Microsoft's) may lag by hours; and Fastmail and iCloud publish none that carries
 * credentials. It costs a full answer at each read (no ETag to ask "changed?"). The answer's XML,
 * megabytes for a busy year, is read in a feed worker (./multistatus.ts), under its time and
 * memory limits: tsdav read it on the main thread, holding every visitor for seconds.
 */
import {
  CalDavError,
  guardedRequest,
  withoutCredentials,
  type CalDavAnswer,
} from './caldav-fetch.ts';
import { FeedError, type FeedRead, type FetchOptions } from './fetch-feed.ts';
import { FeedReaders, workerMemoryMb } from './workers.ts';

const DAY = 86_400_000;
/** The days read: from yesterday to past the most days offered (availability.yaml's daysAhead). */
const DAYS_AHEAD = 95;

const utc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');

/** The calendar-query of the events that reach into [from, to), as tsdav's calendarQuery wrote it. */
const query = (from: number, to: number) => `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ca="http://apple.com/ns/ical/" xmlns:d="DAV:">
  <d:prop>
    <c:calendar-data/>
  </d:prop>
  <c:filter>
    <c:comp-filter name="VCALENDAR">
      <c:comp-filter name="VEVENT">
        <c:time-range start="${utc(from)}" end="${utc(to)}"/>
      </c:comp-filter>
    </c:comp-filter>
  </c:filter>
</c:calendar-query>`;

/** What a read goes through: the request (guardedRequest), the workers that read the answer's XML. */
export interface ReportUsing {
  request?: typeof guardedRequest;
  /** The service's feed workers; without them, a worker of its own, stopped after the read. */
  readers?: Pick<FeedReaders, 'join'>;
}

/** Reads a calendar collection's events over the days offered; throws FeedError (no address in it). */
export async function reportCalendar(
  url: URL,
  options: FetchOptions,
  now = Date.now(),
  { request = guardedRequest, readers }: ReportUsing = {},
): Promise<FeedRead> {
  const from = Math.floor(now / DAY) * DAY - DAY;
  const { url: bare, headers } = withoutCredentials(url);
  let answer: CalDavAnswer;
  try {
    answer = await request(options)(bare.href, {
      method: 'REPORT',
      headers: { 'Content-Type': 'text/xml;charset=UTF-8', depth: '1', ...headers },
      body: query(from, from + DAYS_AHEAD * DAY),
    });
  } catch (error) {
    // Only our own messages: any other could quote the server.
    throw new FeedError(error instanceof CalDavError ? error.message : 'it could not be read');
  }
  // A refusal says its status, never its text; the bytes of a multistatus go to a worker as they
  // are (moved, not copied), made text and read there: on this thread, only their length counts.
  if (answer.status !== 207) throw new FeedError(`it answered ${answer.status}`);
  if (!answer.headers.get('content-type')?.toLowerCase().includes('xml'))
    throw new FeedError('its answer could not be read');
  const joined = await joinIn(readers, options, bytesOf(answer.body), bare.pathname);
  if (!joined.ok) throw new FeedError(joined.reason);
  return { status: 'modified', body: joined.text, etag: undefined, lastModified: undefined };
}

/** A buffer's bytes as an ArrayBuffer of their own, to move to a worker (a small one is copied). */
const bytesOf = (body: Buffer<ArrayBuffer>): ArrayBuffer =>
  body.byteOffset === 0 && body.byteLength === body.buffer.byteLength
    ? body.buffer
    : new Uint8Array(body).buffer;

/** The answer made one feed's text by `readers`, or a worker of its own (a read outside the service). */
async function joinIn(
  readers: Pick<FeedReaders, 'join'> | undefined,
  options: FetchOptions,
  multistatus: ArrayBuffer,
  collection: string,
) {
  if (readers) return readers.join(multistatus, collection);
  const own = new FeedReaders({
    limits: {
      timeMs: options.timeoutMs,
      memoryMb: workerMemoryMb(options.maxBytes),
      maxSteps: undefined,
    },
    size: 1,
  });
  try {
    return await own.join(multistatus, collection);
  } finally {
    await own.stop();
  }
}
