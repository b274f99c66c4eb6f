/**
 * The fetch that every CalDAV request goes through (tsdav takes it as its `fetch`, ./caldav.ts; a
 * calendar's read, ./caldav-read.ts, its request, whose answer's bytes go to a worker as they are):
 * a node:http request through the feeds' address guard (./fetch-feed.ts), never to a private,
 * link-local or loopback address unless the calendar is configured on loopback, judged as the
 * connection is made so that a host name cannot lead the server into its own network; no pooled
 * socket; a time limit on the whole exchange; at most 1 MB of answer. A user name and password in
 * the address leave it only as an Authorization header. Its errors (CalDavError) name no address
 * and quote no password. No redirect is followed: a CalDAV server has none to give here.
 */
import { lookup as dnsLookup } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { allowedFeedAddress, guardedLookup, isLoopbackUrl } from './fetch-feed.ts';

/** A request that got no answer (or one not to read); its message names no address. */
export class CalDavError extends Error {}

export interface CalDavLimits {
  timeoutMs: number;
  /** The largest answer read (1 MB by default). */
  maxBytes?: number;
}

/** The fetch a request within `limits` goes through (guardedFetch; a test's own). */
export type FetchFor = (limits: CalDavLimits) => typeof fetch;

/** An answer as read, its bytes not yet a Response's (one copy fewer, no text made of them). */
export interface CalDavAnswer {
  status: number;
  headers: Headers;
  body: Buffer<ArrayBuffer>;
}

const MAX_BYTES = 1024 * 1024;

/** An address without its user name and password, and those as an Authorization header. */
export function withoutCredentials(url: URL): { url: URL; headers: Record<string, string> } {
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  if (!url.username && !url.password) return { url: bare, headers: {} };
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { url: bare, headers: { Authorization: `Basic ${Buffer.from(pair).toString('base64')}` } };
}

/** The request's headers for node:http: tsdav's, the credentials', a length for a body. */
function headersOf(init: RequestInit, credentials: Record<string, string>, body?: string) {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(credentials))
    if (!headers.has(name)) headers.set(name, value);
  if (!headers.has('user-agent')) headers.set('user-agent', 'Northgate-site calendar writer');
  if (body !== undefined) headers.set('content-length', String(Buffer.byteLength(body)));
  return Object.fromEntries(headers);
}

/** A fetch for tsdav's requests, within `limits` (see the file's comment); `resolve`: a test's DNS. */
export function guardedFetch(limits: CalDavLimits, resolve = dnsLookup): typeof fetch {
  const request = guardedRequest(limits, resolve);
  return async (input, init) => {
    const { status, headers, body } = await request(
      input instanceof Request ? input.url : input,
      init,
    );
    const empty = [204, 205, 304].includes(status);
    return new Response(empty ? null : body, { status, headers });
  };
}

/** guardedFetch's request, its answer's bytes as they came (a CalDAV answer read in a worker). */
export function guardedRequest(limits: CalDavLimits, resolve = dnsLookup) {
  return async (input: string | URL, init: RequestInit = {}): Promise<CalDavAnswer> => {
    const given = new URL(input);
    const body = init.body ?? undefined;
    if (body !== undefined && typeof body !== 'string')
      throw new CalDavError('its request body is not text');
    const allowLoopback = isLoopbackUrl(given);
    const literal = given.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !allowedFeedAddress(literal, allowLoopback))
      throw new CalDavError('it leads to an address that is not public');
    const { url, headers } = withoutCredentials(given);
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: init.method ?? 'GET',
      headers: headersOf(init, headers, body),
      lookup: guardedLookup(allowLoopback, resolve),
      agent: false,
    });
    return exchange(req, body, limits);
  };
}

/** Sends the request and reads its answer, all within the time limit. */
function exchange(req: http.ClientRequest, body: string | undefined, limits: CalDavLimits) {
  return new Promise<CalDavAnswer>((resolve, reject) => {
    const fail = (error: unknown) => {
      clearTimeout(timer);
      req.destroy();
      reject(error instanceof CalDavError ? error : unreachable(error as NodeJS.ErrnoException));
    };
    const timer = setTimeout(
      () => fail(new CalDavError(`no answer within ${limits.timeoutMs / 1000} s`)),
      limits.timeoutMs,
    );
    req.on('error', fail);
    req.on('response', (res) =>
      answerOf(res, limits.maxBytes ?? MAX_BYTES).then((response) => {
        clearTimeout(timer);
        resolve(response);
      }, fail),
    );
    req.end(body);
  });
}

/** Why a calendar's server could not be reached, naming no address. */
const unreachable = (error: NodeJS.ErrnoException) =>
  new CalDavError(
    error.code === 'EFEEDADDRESS'
      ? error.message
      : `it could not be reached (${error.code ?? 'error'})`,
  );

/** The answer: its status, headers and bytes (at most `maxBytes`). */
async function answerOf(res: IncomingMessage, maxBytes: number): Promise<CalDavAnswer> {
  const status = res.statusCode ?? 0;
  if (Number(res.headers['content-length']) > maxBytes)
    throw new CalDavError(`its answer is larger than ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new CalDavError(`its answer is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  // Response takes 200 to 599 only (a 1xx never ends an exchange).
  if (status < 200 || status > 599) throw new CalDavError(`it answered ${status}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch {
      // A header a Response cannot hold is none CalDAV needs.
    }
  }
  return { status, headers, body: Buffer.concat(chunks, size) };
}
