/**
 * The few CalDAV requests a call's event needs (RFC 4791), made by tsdav (why: ARCHITECTURE.md,
 * "CalDAV"): create an event resource only where none is (If-None-Match: *), replace it only over
 * the version we know (If-Match: its ETag), delete it, GET it. Each is sent through a fetch made for
 * it with its time limit: the guarded one of ./caldav-fetch.ts, unless a test hands another. The
 * user name and password of the configured address reach tsdav only as an Authorization header.
 */
import {
  CalDavError,
  guardedFetch,
  withoutCredentials,
  type CalDavLimits,
  type FetchFor,
} from './caldav-fetch.ts';

export { CalDavError, type FetchFor };

export interface CalDavAnswer {
  status: number;
  etag: string | null;
  /** A GET's text (at most the answer's size limit). */
  body: string;
}

export interface CalDavRequest extends CalDavLimits {
  method: 'PUT' | 'GET' | 'DELETE';
  /** The event's address: its calendar's, with the user name and password, and its own name. */
  url: URL;
  body?: string;
  /** PUT or DELETE only over this version (If-Match). */
  ifMatch?: string;
  /** PUT only where no event is (If-None-Match: *). */
  ifAbsent?: boolean;
}

/** Sends one request (see CalDavRequest); the answer whatever its status. */
export type CalDav = (request: CalDavRequest) => Promise<CalDavAnswer>;

/** An event's address in a calendar collection: the collection's, and a name made of `name`. */
export function eventUrl(collection: URL, name: string): URL {
  const base = new URL(collection.href.endsWith('/') ? collection.href : `${collection.href}/`);
  return new URL(`${encodeURIComponent(name.replace(/[^A-Za-z0-9._-]/g, '-'))}.ics`, base);
}

interface Sending {
  headers: Record<string, string>;
  fetch: typeof fetch;
}

/**
 * The request made by tsdav, sent; a GET, which tsdav has no call for, sent as it is. tsdav is
 * loaded at the first write: a server with no calendar to write to (most tests' and starts') does
 * not spend a twentieth of its start on it.
 */
async function send(request: CalDavRequest, url: string, sending: Sending): Promise<Response> {
  const data = request.body ?? '';
  const etag = request.ifMatch;
  if (request.method === 'GET') return sending.fetch(url, { headers: sending.headers });
  const { createCalendarObject, deleteCalendarObject, updateCalendarObject } =
    await import('tsdav');
  if (request.method === 'DELETE')
    return deleteCalendarObject({ calendarObject: { url, etag }, ...sending });
  if (request.ifAbsent)
    return createCalendarObject({
      calendar: { url: new URL('./', url).href },
      filename: url.slice(url.lastIndexOf('/') + 1),
      iCalString: data,
      ...sending,
    });
  return updateCalendarObject({ calendarObject: { url, data, etag }, ...sending });
}

/** CalDAV's requests, each through the fetch `fetchFor` makes for it. */
export function calDavOver(fetchFor: FetchFor): CalDav {
  return async (request) => {
    const { url, headers } = withoutCredentials(request.url);
    const response = await send(request, url.href, { headers, fetch: fetchFor(request) });
    const etag = response.headers.get('etag');
    return {
      status: response.status,
      etag: etag !== null && etag.length <= 200 ? etag : null,
      body: await response.text(),
    };
  };
}

/** Sends a CalDAV request through the feeds' address guard. */
export const caldav: CalDav = calDavOver(guardedFetch);
