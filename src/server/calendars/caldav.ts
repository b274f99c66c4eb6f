/**
 * The few CalDAV requests a call's event needs (RFC 4791 over WebDAV): PUT an event resource (only
 * if absent, or only over the version we know, by its ETag), GET it, DELETE it. Sent through the
 * feeds' own guard (./fetch-feed.ts): never to a private, link-local or loopback address unless the
 * calendar is configured on loopback, so a host name cannot lead the server into its own network.
 * The user name and password ride in the configured URL and leave it only as an Authorization
 * header; errors name no address. (Why not tsdav: ARCHITECTURE.md, "CalDAV".)
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { allowedFeedAddress, guardedLookup, isLoopbackUrl } from './fetch-feed.ts';

/** A request that got no answer (or one not to read); its message names no address. */
export class CalDavError extends Error {}

export interface CalDavAnswer {
  status: number;
  etag: string | null;
  /** A GET's text (at most MAX_BYTES). */
  body: string;
}

export interface CalDavRequest {
  method: 'PUT' | 'GET' | 'DELETE' | 'REPORT';
  /** The event's address: its calendar's, with the user name and password, and its own name. */
  url: URL;
  body?: string;
  /** PUT or DELETE only over this version (If-Match). */
  ifMatch?: string;
  /** PUT only where no event is (If-None-Match: *). */
  ifAbsent?: boolean;
  /** A REPORT's: its body is XML, asked of the collection's members (Depth: 1). */
  report?: boolean;
  timeoutMs: number;
  /** The largest answer read (1 MB by default). */
  maxBytes?: number;
}

/** Sends one request (see CalDavRequest); the answer whatever its status. */
export type CalDav = (request: CalDavRequest) => Promise<CalDavAnswer>;

const MAX_BYTES = 1024 * 1024;

/** An event's address in a calendar collection: the collection's, and a name made of `name`. */
export function eventUrl(collection: URL, name: string): URL {
  const base = new URL(collection.href.endsWith('/') ? collection.href : `${collection.href}/`);
  return new URL(`${encodeURIComponent(name.replace(/[^A-Za-z0-9._-]/g, '-'))}.ics`, base);
}

/** The Authorization header of a URL's user name and password, if it has them. */
function authorization(url: URL): Record<string, string> {
  if (!url.username && !url.password) return {};
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

function headersOf(request: CalDavRequest): Record<string, string> {
  return {
    'User-Agent': 'Northgate-site calendar writer',
    ...authorization(request.url),
    ...(request.report && { Depth: '1' }),
    ...(request.body !== undefined && {
      'Content-Type': `${request.report ? 'application/xml' : 'text/calendar'}; charset=utf-8`,
      'Content-Length': String(Buffer.byteLength(request.body)),
    }),
    ...(request.ifMatch && { 'If-Match': request.ifMatch }),
    ...(request.ifAbsent && { 'If-None-Match': '*' }),
  };
}

/** Sends a CalDAV request through the feeds' address guard. */
export const caldav: CalDav = (request) => {
  const allowLoopback = isLoopbackUrl(request.url);
  const literal = request.url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !allowedFeedAddress(literal, allowLoopback))
    return Promise.reject(new CalDavError('it leads to an address that is not public'));
  return new Promise((resolve, reject) => {
    const target = new URL(request.url.href);
    target.username = '';
    target.password = '';
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: request.method,
      headers: headersOf(request),
      lookup: guardedLookup(allowLoopback),
      agent: false,
      timeout: request.timeoutMs,
    });
    req.on('timeout', () =>
      req.destroy(new CalDavError(`no answer within ${request.timeoutMs / 1000} s`)),
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error instanceof CalDavError
          ? error
          : new CalDavError(
              error.code === 'EFEEDADDRESS'
                ? error.message
                : `it could not be reached (${error.code ?? 'error'})`,
            ),
      ),
    );
    req.on('response', (res) => void answerOf(res, request.maxBytes).then(resolve, reject));
    req.end(request.body);
  });
};

/** The answer's status, ETag and text (at most `maxBytes`: larger, an error). */
async function answerOf(res: IncomingMessage, maxBytes = MAX_BYTES): Promise<CalDavAnswer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw new CalDavError(`its answer is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  const etag = res.headers.etag;
  return {
    status: res.statusCode ?? 0,
    etag: typeof etag === 'string' && etag.length <= 200 ? etag : null,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}
