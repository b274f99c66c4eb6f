/**
 * Who is at a page of the desk (the desk itself, Publishing, the editor's Preview, the CSV): a
 * member signed in; else the sign-in page, a refused post, or, while the store cannot be reached,
 * the page that says so (./refused.ts: the sessions are in the store too).
 */
import { refusal, refusalOf, type PostVerdict } from '../requests/post-gate.ts';
import { reportStoreFailure } from '../log.ts';
import { signedIn, type StaffMember } from './access.ts';
import {
  redirect,
  SIGN_IN_PAGE,
  type Answered,
  type OpenDesk,
  type Refused,
  type StaffDesk,
} from './desk.ts';
import { askedAgain, deskUnavailable, type RefusedPage } from './refused.ts';

/** A post the gate refused, answered as the gate answers one (to a visitor not signed in). */
const gateRefusal = (request: Request, refused: Refused): Answered => ({
  type: 'response',
  response: refusal(request, refused.status, refused.message, refused.headers),
});

/**
 * Who is at the desk: a member signed in, with the refusal of their post if the gate refused it
 * (their page says so); else a refused post, sign-in, or the store out of reach, with "Try again"
 * leading to `again` (the page asked, by default).
 */
export async function signedInVisit(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
  again = askedAgain(request),
): Promise<
  | Answered
  | RefusedPage
  | { desk: StaffDesk; member: StaffMember; now: number; session: string; refused?: Refused }
> {
  const refused = post && refusalOf(post);
  let visit;
  try {
    const desk = await open();
    const now = desk.now?.() ?? Date.now();
    // The first read of the store: a store gone since it opened fails here.
    visit = { desk, now, current: await signedIn(request, { ...desk, now }) };
  } catch (error) {
    // Logged as the store's other failures are: once in a while, no user or password (../log.ts).
    reportStoreFailure(error);
    return deskUnavailable(request, again);
  }
  const { desk, now, current } = visit;
  if (!current) return refused ? gateRefusal(request, refused) : redirect(SIGN_IN_PAGE);
  return { desk, member: current.member, now, session: current.hash, ...(refused && { refused }) };
}
