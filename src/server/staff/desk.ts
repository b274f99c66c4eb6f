/**
 * What every page of the staff desk (/staff) stands on: what the desk needs (`StaffDesk`, built once
 * by ../app.ts), how its answers are kept (`deskHeaders`, `redirect`), and the record of what a
 * member does (`record`: the audit log and the server's log); who is at it is ./visit.ts's. The
 * pages' handlers: ./sign-in.ts, ./desk-page.ts (the desk itself, its posts in ./desk-actions.ts),
 * ./enquiries-csv.ts, ./publish.ts, ./passkeys.ts.
 * Signed out, every address under /staff answers as the sign-in page does: nothing of a prospect.
 */
import { postHeaders, refusalOf, inMinutes } from '../requests/post-gate.ts';
import type { Services } from '../booking/services.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { log } from '../log.ts';
import { referenceOf, type VitalsRow } from '../../domain/staff.ts';
import type { EnquiryStore, KnownHost } from '../store/types.ts';
import { memberLabel, type StaffMember } from './access.ts';
import type { Publishing } from '../releases/publishing.ts';

/** What the desk needs, built once by ../app.ts. */
export interface StaffDesk {
  store: EnquiryStore;
  /** The bookings, calendars and queue a move or a cancel from the desk goes through. */
  services: Pick<Services, 'store' | 'bookings' | 'jobs' | 'calendars'>;
  /** The queue of jobs that sends e-mail; undefined when e-mail is off (no link can be sent then). */
  jobs: JobQueue | undefined;
  members: ReadonlyMap<string, StaffMember>;
  /** Signs the links (the staff secret). */
  secret: string;
  /** Sessions end after this long idle (STAFF_SESSION_IDLE_MINUTES). */
  idleMs: number;
  /** The site is served on https (SITE_URL): the cookie is then `__Host-` and Secure. */
  secure: boolean;
  /** The site's public address (SITE_URL): the passkeys' relying party. */
  siteUrl: string;
  /**
   * SITE_URL is not set (`siteUrl` is then the build's `site`, not where the desk is opened): a page
   * at this machine's own address (localhost), where alone the desk takes posts then, is the
   * passkeys' relying party.
   */
  localParty?: boolean;
  /** The agency's name, as passkeys show it. */
  brand: string;
  /** Where a call of a host takes place, in words (their video room, or the agency's place). */
  where: (hostId: string | null) => string | undefined;
  /** Field data's p75 per page and metric over the last 28 days, at most a minute old. */
  fieldData: () => Promise<VitalsRow[]>;
  /** Publishing from the browser (EDITING=on): /staff/publish, for editors. */
  publishing?: Publishing;
  now?: () => number;
}

/** The desk, opened on first use; refused while the store cannot be opened. */
export type OpenDesk = () => Promise<StaffDesk>;

/** How an answer of the desk's pages is kept: by no cache, and out of search engines. */
export const deskHeaders = (extra: Record<string, string> = {}) =>
  postHeaders({ 'X-Robots-Tag': 'noindex', ...extra });

export const redirect = (location: string, headers: Record<string, string> = {}) => ({
  type: 'response' as const,
  response: new Response(null, {
    status: 303,
    headers: { ...deskHeaders(headers), Location: location },
  }),
});

/** An enquiry's id (a UUID), as an action's subject. */
const ENQUIRY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An action's subject as the server's log and the desk's audit log show it: an enquiry by its
 * reference (referenceOf), never its whole id, whose booked page shows a call's links with e-mail
 * off. The store keeps the whole id; lines stored before are shown the same way.
 */
export const subjectShown = (subject: string) =>
  ENQUIRY_ID.test(subject) ? referenceOf(subject) : subject;

/** Where a signed-in member goes: the desk. */
export const DESK = '/staff';
/** Where a member signs in, and where anyone signed out is sent. */
export const SIGN_IN_PAGE = '/staff/sign-in';

/**
 * A member's sign-in or action: a line of the audit log, and one of the server's log with the
 * member's label, the action and its subject (an enquiry by its reference, referenceOf: never its
 * whole id, whose booked page shows a call's links with e-mail off), and `said` if given; never
 * the detail, which may be a reason naming a prospect.
 */
export async function record(
  desk: Pick<StaffDesk, 'store'>,
  member: StaffMember,
  now: number,
  {
    action,
    subject = null,
    detail = null,
  }: { action: string; subject?: string | null; detail?: string | null },
  said?: string,
) {
  await desk.store.staff.audit({ at: now, actor: member.email, action, subject, detail });
  const shown = subject && subjectShown(subject);
  log.info(
    `Staff ${memberLabel(member)} ${action}${shown ? ` ${shown}` : ''}${said ? ` ${said}` : ''}`,
  );
}

export type Answered = { type: 'response'; response: Response };

export type Refused = NonNullable<ReturnType<typeof refusalOf>>;

/**
 * Why a member's post did nothing, in the desk's words: over the desk's limit (STAFF_RATE_LIMIT_MAX),
 * when to try again; else the gate's reason.
 */
export function notDone({ status, message, headers }: Refused): string {
  if (status !== 429) return `Not done: ${message}`;
  return `Not done: you have made many changes in a short time. Try again in ${inMinutes(Number(headers['Retry-After'] ?? 60))}.`;
}

/** A host on the desk: one the live site has, or one a publish removed (`former`). */
export type DeskHost = KnownHost & { former?: boolean };

/**
 * The hosts, to filter by and to name beside their calls: the live site's, then those a publish has
 * removed who have calls (`former`), as the store kept their names.
 */
export async function deskHosts(desk: StaffDesk): Promise<DeskHost[]> {
  const live = [...desk.members.values()].flatMap((m) =>
    m.hostId ? [{ id: m.hostId, name: m.name }] : [],
  );
  const former = await desk.store.desk.formerHosts(live.map((host) => host.id));
  return [...live, ...former.map((host) => ({ ...host, former: true }))];
}
