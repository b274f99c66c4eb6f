/**
 * Who may use the staff desk and how they prove it: the members (the hosts of availability.yaml and
 * STAFF_EMAILS), the sign-in links' tokens (a random id signed with the staff secret; the store
 * keeps only a hash of the id), and the sessions (a random token in an HttpOnly cookie, kept in the
 * store only as its hash). How many links a member is sent: ./links.ts.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EnquiryStore } from '../store/types.ts';
import type { StaffSession } from '../store/staff.ts';

/** A member of staff: their address (lower case), name and zone. */
export interface StaffMember {
  email: string;
  name: string;
  timeZone: string;
  /** Their host id in availability.yaml, if they take calls. */
  hostId?: string;
  /** Listed in STAFF_EDITORS: they may edit the content and publish it. */
  editor?: boolean;
}

/**
 * Whether a member signed in may edit and publish (/keystatic, /staff/publish): only those that
 * STAFF_EDITORS names. Every write of the editor and of Publishing asks this first.
 */
export const isEditor = (member: StaffMember | undefined): boolean => member?.editor === true;

/** A session's longest life, however active. */
export const SESSION_MAX_MS = 12 * 3_600_000;

/** An address as members are kept: trimmed, lower case. */
export const addressKey = (email: string) => email.trim().toLowerCase();

/**
 * The members, by address: the hosts first (they take calls), then STAFF_EMAILS, then
 * STAFF_EDITORS (members whether or not listed before, and the only editors).
 */
export function staffMembers(
  hosts: readonly { id: string; name: string; email: string; timeZone?: string }[],
  staffEmails: readonly string[],
  agencyZone: string,
  staffEditors: readonly string[] = [],
): ReadonlyMap<string, StaffMember> {
  const members = new Map<string, StaffMember>();
  for (const host of hosts)
    members.set(addressKey(host.email), {
      email: addressKey(host.email),
      name: host.name,
      timeZone: host.timeZone ?? agencyZone,
      hostId: host.id,
    });
  for (const email of [...staffEmails, ...staffEditors].map(addressKey))
    if (email && !members.has(email))
      members.set(email, { email, name: email, timeZone: agencyZone });
  for (const email of staffEditors.map(addressKey)) {
    const member = members.get(email);
    if (member) members.set(email, { ...member, editor: true });
  }
  return members;
}

const sign = (secret: string, id: string) =>
  createHmac('sha256', secret).update(`staff-link:${id}`).digest('base64url');

/** A new link's id and its token (the id, signed). */
export function newLink(secret: string) {
  const id = randomBytes(18).toString('base64url');
  return { id, token: linkToken(secret, id) };
}

/** The token of link `id`: the id, signed. */
export const linkToken = (secret: string, id: string) => `${id}.${sign(secret, id)}`;

/** The link id a token names, if its signature is this site's; else undefined. */
export function linkId(secret: string, token: string): string | undefined {
  const [id, signature, extra] = token.split('.');
  if (!id || !signature || extra !== undefined || id.length > 64) return undefined;
  const expected = Buffer.from(sign(secret, id));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
}

/** A session's token, and the hash the store keeps it under. */
export function newSessionToken() {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: storedHash(token) };
}

/** What the store keeps of anything that signs in (a session's token, a link's id, a challenge). */
export const storedHash = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * A member as the server's log names them: their host id, else their address's local part (the
 * log takes out any e-mail address).
 */
export const memberLabel = (member: StaffMember) => member.hostId ?? member.email.split('@')[0]!;

/**
 * The session cookie's name: `__Host-` on https, where the browser then insists on Secure, the
 * path / and no domain (no other host or path can set it); a plain name on http (a local run).
 */
export const cookieName = (secure: boolean) => (secure ? '__Host-staff' : 'staff');

/** The Set-Cookie of a session (a token), or of its end (none). */
export function sessionCookie(secure: boolean, token: string | undefined, maxAgeS = 43_200) {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
  return token === undefined
    ? [`${cookieName(secure)}=`, 'Max-Age=0', ...attributes].join('; ')
    : [`${cookieName(secure)}=${token}`, `Max-Age=${maxAgeS}`, ...attributes].join('; ');
}

/** The session token a request's cookie carries, if any. */
export function cookieToken(request: Request, secure: boolean): string | undefined {
  const name = cookieName(secure);
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/** The member signed in by a request's cookie, if their session is alive and they are staff still. */
export async function signedIn(
  request: Request,
  {
    store,
    members,
    secure,
    idleMs,
    now,
  }: {
    store: EnquiryStore;
    members: ReadonlyMap<string, StaffMember>;
    secure: boolean;
    idleMs: number;
    now: number;
  },
): Promise<{ member: StaffMember; session: StaffSession; hash: string } | undefined> {
  const token = cookieToken(request, secure);
  if (!token || token.length > 100) return undefined;
  const hash = storedHash(token);
  const session = await store.staff.session(hash, now, idleMs, SESSION_MAX_MS);
  const member = session && members.get(session.email);
  return member && session && { member, session, hash };
}

/**
 * Who the desk's rate limit counts a post against: its member, whatever their network, so that one
 * member's busy morning does not stop the others in the office. A hash: the limit's table never
 * holds an address. None without a live session (the network is counted then).
 */
export async function memberLimitKey(
  request: Request,
  desk: Omit<Parameters<typeof signedIn>[1], 'now'>,
): Promise<string | undefined> {
  const current = await signedIn(request, { ...desk, now: Date.now() });
  return current && `member ${storedHash(addressKey(current.member.email)).slice(0, 22)}`;
}
