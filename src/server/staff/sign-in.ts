/**
 * Signing in to the staff desk with a one-time link (/staff/sign-in), and signing out
 * (/staff/sign-out). A passkey's sign-in is ./passkeys.ts's, and starts its session here.
 */
import { first } from '../requests/body.ts';
import { refusalOf, type PostVerdict } from '../requests/post-gate.ts';
import type { PageAnswer } from '../http/answer.ts';
import { log } from '../log.ts';
import {
  addressKey,
  linkId,
  memberLabel,
  newSessionToken,
  sessionCookie,
  signedIn,
  storedHash,
  type StaffMember,
} from './access.ts';
import { sendLink } from './links.ts';
import {
  DESK,
  SIGN_IN_PAGE,
  deskHeaders,
  record,
  redirect,
  type OpenDesk,
  type StaffDesk,
} from './desk.ts';
import { signInUnavailable, type RefusedPage } from './refused.ts';

/** What the sign-in page shows. */
export type SignInState =
  | { status: 'form' | 'sent' }
  | { status: 'confirm'; token: string }
  | { status: 'invalid' | 'used' | 'expired' }
  | { status: 'refused'; message: string };

export interface SignInOutcome extends PageAnswer {
  state: SignInState;
}

const page = (state: SignInState, status = 200, headers: Record<string, string> = {}) => ({
  type: 'page' as const,
  status,
  headers: deskHeaders(headers),
  state,
});

/**
 * /staff/sign-in: the form (GET), a link asked for (POST email), a link opened (GET token: a
 * button, since mail scanners open links) and used (POST token: signed in). With the store out of
 * reach, the staff's page that says signing in is not possible right now.
 */
export async function handleSignIn(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
): Promise<SignInOutcome | RefusedPage | { type: 'response'; response: Response }> {
  const refused = post && refusalOf(post);
  if (refused)
    return page({ status: 'refused', message: refused.message }, refused.status, refused.headers);
  const desk = await open().catch(() => undefined);
  if (!desk) return signInUnavailable(request);
  const now = desk.now?.() ?? Date.now();
  const token = post?.ok
    ? first(post.fields, 'token')
    : (new URL(request.url).searchParams.get('token') ?? '');
  if (token) {
    const id = linkId(desk.secret, token);
    if (!id) return page({ status: 'invalid' }, 400);
    // A GET only shows the button (mail scanners open links); the post signs in.
    if (request.method !== 'POST') {
      const state = await desk.store.staff.checkLink(storedHash(id), now);
      return 'refused' in state
        ? page({ status: state.refused === 'unknown' ? 'invalid' : state.refused }, 410)
        : page({ status: 'confirm', token });
    }
    const used = await desk.store.staff.useLink(storedHash(id), now);
    if ('refused' in used)
      return page({ status: used.refused === 'unknown' ? 'invalid' : used.refused }, 410);
    const member = desk.members.get(used.email);
    if (!member) return page({ status: 'invalid' }, 410);
    const cookie = await startSession(desk, member, 'with a link', now);
    return redirect(DESK, { 'Set-Cookie': cookie });
  }
  if (request.method !== 'POST') {
    const current = await signedIn(request, { ...desk, now });
    return current ? redirect(DESK) : page({ status: 'form' });
  }
  const email = addressKey(post?.ok ? first(post.fields, 'email') : '').slice(0, 254);
  const member = desk.members.get(email);
  // The same answer for every address, sent or not: the page never says who is staff.
  if (member && desk.jobs && (await sendLink(desk.store, member.email, now))) {
    log.info(`Staff ${memberLabel(member)} is sent a sign-in link`);
    desk.jobs.kick();
  }
  return page({ status: 'sent' });
}

/** A member signed in (`how`: with a link, with a passkey): their session, and its Set-Cookie. */
export async function startSession(desk: StaffDesk, member: StaffMember, how: string, now: number) {
  const session = newSessionToken();
  await desk.store.staff.startSession(session.hash, member.email, now);
  await record(desk, member, now, { action: 'signed in', detail: how }, how);
  return sessionCookie(desk.secure, session.token);
}

/**
 * /staff/sign-out (POST): the session ended in the store, and its cookie. A refused post never comes
 * here: the route does not show refusals, so the middleware answers them (src/server/http/routes.ts).
 */
export async function handleSignOut(request: Request, open: OpenDesk) {
  const desk = await open().catch(() => undefined);
  if (desk) {
    const now = desk.now?.() ?? Date.now();
    const current = await signedIn(request, { ...desk, now });
    if (current) {
      await desk.store.staff.endSession(current.hash, now);
      await record(desk, current.member, now, { action: 'signed out' });
    }
  }
  return redirect(SIGN_IN_PAGE, {
    'Set-Cookie': sessionCookie(desk?.secure ?? false, undefined),
  });
}
