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
 * A cross-site post: the browser says so (Sec-Fetch-Site: cross-site), or its Origin is neither the
 * site's own nor an allowed one. The site's own origin is SITE_URL when set, never the request's
 * Host header, which the client writes (a rebound DNS name would make any page "same-origin");
 * without SITE_URL (a local run) it is the address the request arrived at. Requests without
 * these headers (curl, server-to-server) are not cross-site: no browser sends a post without them.
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
  const own = siteOrigin ?? new URL(request.url).origin;
  return origin !== own && !allowedOrigins.includes(origin);
}

/** Whether the client asked for JSON (the islands' fetch) rather than a page (a native post). */
export const wantsJson = (request: Request) =>
  (request.headers.get('accept') ?? '').includes('application/json');

export const caughtByHoneypot = (fields: Fields) =>
  (fields.get(HONEYPOT_FIELD) ?? []).some((value) => value.trim() !== '');
