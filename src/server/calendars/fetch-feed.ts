/**
 * One read of a calendar feed, as a stranger's server cannot abuse it: a conditional GET (ETag,
 * Last-Modified), a time limit and a size limit (after decompression too), at most three redirects
 * and never to another scheme, and never to a private, link-local or loopback address (a feed
 * configured on loopback, as the tests' are, may stay there). Errors say what went wrong without
 * the feed's secret address.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { createGunzip } from 'node:zlib';
import { ipv6Groups } from '../networks.ts';

export type FeedRead =
  | { status: 'modified'; body: string; etag: string | undefined; lastModified: string | undefined }
  | { status: 'not-modified' };

/** A read that failed; its message names no address. */
export class FeedError extends Error {}

export interface FetchOptions {
  /** Read through CalDAV (a REPORT, ./caldav-read.ts), not a GET of a feed. */
  caldav?: boolean;
  etag?: string | undefined;
  lastModified?: string | undefined;
  timeoutMs: number;
  maxBytes: number;
}

const MAX_REDIRECTS = 3;

/** Addresses a feed must not lead the server to: its own network, the cloud's metadata, loopback. */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  // IPv6 addresses that carry an IPv4 one, and reach it on a host that routes them: IPv4-compatible
  // (::a.b.c.d, deprecated), 6to4 (2002:AABB:CCDD::, its IPv4 in bits 16-48), Teredo (2001::/32,
  // a server's IPv4 and a client's, the latter inverted) and local-use NAT64 (64:ff9b:1::/48,
  // whose IPv4 sits where the operator's prefix length puts it, so cannot be read from here).
  // None is a way a real calendar host is reached, so each is refused whole rather than judged by
  // the IPv4 address inside; the well-known NAT64 prefix is judged (nat64 below).
  ['::', 96],
  ['2002::', 16],
  ['2001::', 32],
  ['64:ff9b:1::', 48],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
/**
 * NAT64's well-known prefix (RFC 6052): on an IPv6-only host, DNS64 answers every IPv4-only host
 * (a calendar service among them) as 64:ff9b::a.b.c.d, the IPv4 address in the last 32 bits, and
 * the gateway connects to that address. So it is judged as that IPv4 address: a public one is a
 * feed like any other, a private one (64:ff9b::10.0.0.1) refused.
 */
const nat64 = new BlockList();
nat64.addSubnet('64:ff9b::', 96, 'ipv6');

/** Whether the server may connect to `address` for a feed (loopback only if the feed is there). */
export function allowedFeedAddress(address: string, allowLoopback: boolean): boolean {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return allowedFeedAddress(mapped, allowLoopback);
  if (family === 'ipv6' && nat64.check(address, 'ipv6')) {
    const [high, low] = ipv6Groups(address)!.slice(6) as [number, number];
    // Loopback through a gateway is the gateway's, never the feed's own: no allowance.
    return allowedFeedAddress([high >> 8, high & 0xff, low >> 8, low & 0xff].join('.'), false);
  }
  if (allowLoopback && loopback.check(address, family)) return true;
  return !blocked.check(address, family);
}

export const isLoopbackUrl = (url: URL) =>
  url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname);

/**
 * A DNS lookup that answers only the addresses a feed may use, so a host name cannot lead past them
 * (`resolve`: Node's, or a test's own DNS).
 */
export const guardedLookup =
  (allowLoopback: boolean, resolve: typeof dnsLookup = dnsLookup): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const ok = (addresses as LookupAddress[]).filter((a) =>
        allowedFeedAddress(a.address, allowLoopback),
      );
      if (ok.length === 0)
        return callback(
          Object.assign(new Error('its host name leads to an address that is not public'), {
            code: 'EFEEDADDRESS',
          }),
          '',
          0,
        );
      if ((options as { all?: boolean }).all) return (callback as Function)(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  };

/** Reads a feed once. Throws FeedError (or resolves not-modified when the copy held is current). */
export async function fetchFeed(start: URL, options: FetchOptions): Promise<FeedRead> {
  const allowLoopback = isLoopbackUrl(start);
  const deadline = Date.now() + options.timeoutMs;
  let url = start;
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== start.protocol)
      throw new FeedError(`it redirected to another scheme (${url.protocol})`);
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !allowedFeedAddress(literal, allowLoopback))
      throw new FeedError('it leads to an address that is not public');
    const answer = await request(url, options, allowLoopback, deadline);
    if ('location' in answer) {
      if (redirects >= MAX_REDIRECTS) throw new FeedError('it redirected too many times');
      url = new URL(answer.location, url);
      continue;
    }
    return answer;
  }
}

function request(
  url: URL,
  options: FetchOptions,
  allowLoopback: boolean,
  deadline: number,
): Promise<FeedRead | { location: string }> {
  return new Promise((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0)
      return reject(new FeedError(`no answer within ${options.timeoutMs / 1000} s`));
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      headers: requestHeaders(options),
      lookup: guardedLookup(allowLoopback),
      agent: false,
    });
    const timer = setTimeout(
      () => settle.fail(new FeedError(`no answer within ${options.timeoutMs / 1000} s`)),
      remaining,
    );
    const settle: Settle = {
      resolve(answer) {
        clearTimeout(timer);
        resolve(answer);
      },
      reject(error) {
        clearTimeout(timer);
        reject(error);
      },
      fail(error) {
        clearTimeout(timer);
        req.destroy();
        reject(error);
      },
    };
    req.on('error', (error: NodeJS.ErrnoException) =>
      settle.reject(error instanceof FeedError ? error : new FeedError(unreachable(error))),
    );
    req.on('response', (res) => answerOf(res, options.maxBytes, settle));
    req.end();
  });
}

/** How a read ends, its time limit stopped: with an answer, an error, or an error that ends it. */
interface Settle {
  resolve(answer: FeedRead | { location: string }): void;
  reject(error: FeedError): void;
  /** Ends the request too. */
  fail(error: FeedError): void;
}

/** A conditional GET when a copy is held (its ETag, its Last-Modified), of a feed, gzipped or not. */
function requestHeaders(options: FetchOptions) {
  const headers: Record<string, string> = {
    Accept: 'text/calendar, */*;q=0.5',
    'Accept-Encoding': 'gzip',
    'User-Agent': 'Northgate-site calendar reader',
  };
  if (options.etag) headers['If-None-Match'] = options.etag;
  if (options.lastModified) headers['If-Modified-Since'] = options.lastModified;
  return headers;
}

/** Why a feed's server could not be reached, naming no address. */
const unreachable = (error: NodeJS.ErrnoException) =>
  error.code === 'EFEEDADDRESS'
    ? error.message
    : `it could not be reached (${error.code ?? error.message})`;

/** What the server answered: a redirect, not modified, a refusal, or a feed of its size at most. */
function answerOf(res: IncomingMessage, maxBytes: number, settle: Settle) {
  const status = res.statusCode ?? 0;
  if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
    res.resume();
    return settle.resolve({ location: res.headers.location });
  }
  if (status === 304) {
    res.resume();
    return settle.resolve({ status: 'not-modified' });
  }
  if (status !== 200) {
    res.resume();
    return settle.reject(new FeedError(`it answered ${status}`));
  }
  const declared = Number(res.headers['content-length']);
  if (declared > maxBytes) return settle.fail(new FeedError(`it is larger than ${maxBytes} bytes`));
  readFeed(res, maxBytes, settle);
}

/** The feed's text, decompressed, cut off past `maxBytes`; with its validators for the next read. */
function readFeed(res: IncomingMessage, maxBytes: number, settle: Settle) {
  const stream = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      settle.fail(new FeedError(`it is larger than ${maxBytes} bytes`));
      return;
    }
    chunks.push(chunk);
  });
  stream.on('error', () => settle.fail(new FeedError('its answer could not be read')));
  stream.on('end', () => {
    const header = (name: string) => {
      const value = res.headers[name];
      return typeof value === 'string' && value.length <= 200 ? value : undefined;
    };
    settle.resolve({
      status: 'modified',
      body: Buffer.concat(chunks).toString('utf8'),
      etag: header('etag'),
      lastModified: header('last-modified'),
    });
  });
}
