/**
 * Who is asking, and from where: the client's address for the rate limit, and
 * whether a post comes from this site's own pages.
 */
import { HONEYPOT_FIELD } from '../../domain/forms.ts';
import type { Fields } from './body.ts';

const normalise = (address: string) => address.replace(/^::ffff:/, '');

/**
 * The client's address. It is the socket's, unless the socket is a trusted
 * proxy: then the right-most X-Forwarded-For entry that is not itself a
 * trusted proxy. A client cannot forge its way past the limit by sending the
 * header itself, because an untrusted socket's header is ignored.
 */
export function clientAddress(
  socketAddress: string,
  forwardedFor: string | null,
  trusted: string[],
): string {
  const socket = normalise(socketAddress);
  if (!trusted.includes(socket) || !forwardedFor) return socket;
  const chain = forwardedFor
    .split(',')
    .map((hop) => normalise(hop.trim()))
    .filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!trusted.includes(chain[i]!)) return chain[i]!;
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
