/**
 * Who is asking, and from where: the client's address for the rate limit, and
 * whether a post comes from this site's own pages.
 */
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { HONEYPOT_FIELD } from '../../domain/forms.ts';
import { canonicalAddress } from '../networks.ts';
import type { Fields } from './body.ts';

/** Longer than any address with a port ("[" + 45 + "%" zone + "]:65535"): not worth parsing. */
const MAX_HOP = 80;

/**
 * One X-Forwarded-For entry as an address, in one spelling (../networks.ts canonicalAddress): a
 * bare address (`203.0.113.7`, `2001:db8::1`), or one with a port as some balancers write it
 * (`203.0.113.7:51234`, `[2001:db8::1]:443`, `[2001:db8::1]`), the port left off: a new port each
 * connection must not make a new client. Undefined for anything else (`unknown`, `_hidden`, junk).
 */
export function forwardedAddress(hop: string): string | undefined {
  const text = hop.trim();
  if (text.length > MAX_HOP) return undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) {
    const [, address, port] = bracketed;
    return isIPv6(address!) && validPort(port) ? canonicalAddress(address!) : undefined;
  }
  if (isIP(text)) return canonicalAddress(text);
  // An IPv6 address without brackets cannot carry a port: its last group would be read as one.
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(text);
  if (withPort && isIPv4(withPort[1]!) && validPort(withPort[2])) return withPort[1]!;
  return undefined;
}

const validPort = (port: string | undefined) => port === undefined || Number(port) <= 65_535;

/** The socket's address in the same spelling (an empty one, in tests, stays as it is). */
const socketClient = (address: string) => canonicalAddress(address) ?? address;

/**
 * Whether a socket address is one of the trusted proxies (TRUSTED_PROXIES), however either is
 * spelled.
 */
export const isTrustedProxy = (socketAddress: string, trusted: readonly string[]) =>
  trusted.some((proxy) => (canonicalAddress(proxy) ?? proxy) === socketClient(socketAddress));

/**
 * The client's address. It is the socket's, unless the socket is a trusted proxy: then the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy. A client cannot forge its way
 * past the limit by sending the header itself, because an untrusted socket's header is ignored.
 *
 * When that entry is not an address (`unknown`, `_hidden`, junk), the client is the socket, the
 * proxy: the entries left of it may well be the client's own writing (a proxy appends to whatever
 * header the client sent), so skipping on to them would let a client name itself, a new name every
 * post. Counted as the proxy, all such posts share one limit: a stricter limit, never a looser one.
 * The Forwarded header (RFC 7239) is not read at all.
 */
export function clientAddress(
  socketAddress: string,
  forwardedFor: string | null,
  trusted: string[],
): string {
  const socket = socketClient(socketAddress);
  if (!forwardedFor || !isTrustedProxy(socket, trusted)) return socket;
  const chain = forwardedFor.split(',');
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = forwardedAddress(chain[i]!);
    if (hop === undefined) return socket;
    if (!isTrustedProxy(hop, trusted)) return hop;
  }
  return socket;
}

/**
 * Whether an origin is this machine's: localhost (and its subdomains, which browsers resolve
 * themselves, never through DNS), 127.0.0.0/8 or [::1].
 */
export function isLoopbackOrigin(origin: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/**
 * A cross-site post: the browser says so (Sec-Fetch-Site: cross-site), or its Origin is neither the
 * site's own nor an allowed one. The site's own origin is SITE_URL when set, never the request's
 * Host header, which the client writes (a rebound DNS name would make any page "same-origin").
 * Without SITE_URL (a local run), only a loopback origin can be the site's (and only the one the
 * request arrived at): a page under any other name is refused, rebound to this machine or not.
 * Requests without these headers (curl, server-to-server) are not cross-site: no browser sends a
 * post without them.
 */
export function isCrossSite(
  request: Request,
  { siteOrigin, allowedOrigins }: { siteOrigin?: string | undefined; allowedOrigins: string[] },
): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site') return true;
  const origin = request.headers.get('origin');
  if (!origin) return false;
  if (origin === 'null') return true;
  const own = siteOrigin ?? (isLoopbackOrigin(origin) ? new URL(request.url).origin : undefined);
  return origin !== own && !allowedOrigins.includes(origin);
}

/** Whether the client asked for JSON (the islands' fetch) rather than a page (a native post). */
export const wantsJson = (request: Request) =>
  (request.headers.get('accept') ?? '').includes('application/json');

export const caughtByHoneypot = (fields: Fields) =>
  (fields.get(HONEYPOT_FIELD) ?? []).some((value) => value.trim() !== '');
