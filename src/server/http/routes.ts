/**
 * Which methods each address of the server takes. The HTTP server (./http.ts) answers every other
 * method itself, before Astro sees the request: 405 with an Allow header, 204 to OPTIONS, 501 to a
 * method it does not know. Prerendered pages and build files take GET and HEAD; the on-demand
 * routes (the files of src/pages with `prerender = false`) are listed here, and the middleware
 * (src/middleware.ts) refuses to serve one that is not, so a new route cannot skip the list.
 */

import { BEACON_LIMIT } from '../../domain/vitals.ts';
import type { PostBody } from '../requests/post-gate.ts';

/** DELETE: the visual editor's removal of an unused picture only (src/domain/editing.ts). */
export type Method = 'GET' | 'HEAD' | 'POST' | 'DELETE';

export interface RoutePolicy {
  methods: readonly Method[];
  /**
   * A POST refused by the gate (./post-gate.ts) is still handed to the route, which shows it with
   * the visitor's form (what was typed stays); otherwise the gate answers it alone.
   */
  showsRefusals?: boolean;
  /** What its posts carry: a form unless said (the gate reads and limits it). */
  body?: PostBody;
  /** Field data (src/server/vitals/): its own service, limit and switch (VITALS=off: 404). */
  fieldData?: boolean;
  /**
   * The staff desk's: its posts count against a limit of their own (STAFF_RATE_LIMIT_MAX), not the
   * enquiry forms' few, so that a member's morning of actions is never throttled; and a post must
   * say it comes from the site's own page (Origin, or Sec-Fetch-Site: same-origin), as every
   * browser's does: one that says nothing is refused too.
   */
  staff?: boolean;
  /**
   * Which of the staff's limits its posts count against: the desk's (the default), the sign-in's
   * (the signed out's posts, apart: ../booking/services.ts), or none (signing out always works).
   */
  staffLimit?: 'desk' | 'sign-in' | 'none';
  /** A call's link (confirm, move, cancel): its posts count against the links' own limit. */
  callLink?: boolean;
}

const page: RoutePolicy = { methods: ['GET', 'HEAD'] };
const form: RoutePolicy = { methods: ['POST'], showsRefusals: true };
const callLink: RoutePolicy = {
  methods: ['GET', 'HEAD', 'POST'],
  showsRefusals: true,
  callLink: true,
};

/** The route pattern of src/pages/[...redirect].astro, which takes every address that is no page. */
export const NOT_A_PAGE = '/[...redirect]';

export const onDemandRoutes: Record<string, RoutePolicy> = {
  '/healthz': page,
  '/schedule': { methods: ['GET', 'HEAD', 'POST'], showsRefusals: true },
  '/schedule/booked': page,
  '/schedule/cancel': callLink,
  '/schedule/change': callLink,
  '/schedule/confirm': callLink,
  '/schedule/slots.json': page,
  '/speed': page,
  // A member's refused post is said on the page they were on, what they typed kept.
  '/staff': { methods: ['GET', 'HEAD', 'POST'], staff: true, showsRefusals: true },
  '/staff/publish': { methods: ['GET', 'HEAD', 'POST'], staff: true, showsRefusals: true },
  '/staff/sign-in': { methods: ['GET', 'HEAD', 'POST'], staff: true, staffLimit: 'sign-in' },
  '/staff/sign-out': { methods: ['POST'], staff: true, staffLimit: 'none' },
  // A refusal of Publishing's or the editor's, shown by a rewrite (src/server/staff/refused.ts).
  '/staff/refused': page,
  // The editor's Preview on the live site (EDITING=on), while its build is made: a staff page.
  '/keystatic/preview': page,
  // A post (the desk's button), never a GET: another site could make a member's browser GET it.
  '/staff/enquiries.csv': { methods: ['POST'], staff: true },
  '/staff/passkey': {
    methods: ['POST'],
    body: { kind: 'json', limit: 16 * 1024 },
    staff: true,
    staffLimit: 'sign-in',
  },
  '/send-mail.php': form,
  '/php/email.php': form,
  '/vitals': { methods: ['POST'], body: { kind: 'json', limit: BEACON_LIMIT }, fieldData: true },
  // Every other address (src/pages/[...redirect].astro): a redirect's 301, or the not-found page.
  // Matched by Astro's route pattern only; this server answers an address it does not know as before.
  [NOT_A_PAGE]: page,
};

export const staticFiles: RoutePolicy = page;

/**
 * On-demand routes Astro adds itself, which the site does not serve: its images are files of the
 * build, and it has no server islands. The middleware answers them as an address the site does not
 * have (404), except /_image in `astro dev`, which makes the pages' images there.
 */
export const astroRoutes: ReadonlySet<string> = new Set(['/_image', '/_server-islands/[name]']);

/**
 * Methods of HTTP itself (RFC 9110, and PATCH). A request with one of them that a route does not
 * take gets 405; any other method (WebDAV's PROPFIND, a made-up one) gets 501.
 */
export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'TRACE',
  'CONNECT',
]);

/**
 * A request's path as routes are matched: percent-escapes decoded, repeated slashes and a trailing
 * slash dropped, as Astro matches (`/sch%65dule//` is /schedule). Undefined for a path that does
 * not decode.
 */
export function routePath(url: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent((url.split('?')[0] ?? '/').split('#')[0]!);
  } catch {
    return undefined;
  }
  path = path.replace(/\/{2,}/g, '/');
  return path.length > 1 ? path.replace(/\/+$/, '') : '/';
}

export const allowHeader = (policy: RoutePolicy) => policy.methods.join(', ');
