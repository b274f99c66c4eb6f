/**
 * The refusals a member can meet in their browser at Publishing and at the editor's addresses, and
 * at the desk, the editor and signing in while the store cannot be reached, in the staff's words: a
 * staff page with the refusal's status (src/pages/staff/refused.astro), or, to a script (JSON asked;
 * a fetch of the editor's API, whose tab reads the text), the line it always had.
 */
import type { StaffRefusal } from '../../domain/staff.ts';
import { EDITOR_PAGE, isEditorAddress } from '../../domain/editing.ts';
import type { PageAnswer } from '../http/answer.ts';
import { jsonResponse } from '../json.ts';
import { wantsJson } from '../requests/client.ts';
import type { StaffMember } from './access.ts';
import { DESK, SIGN_IN_PAGE, deskHeaders, type Answered } from './desk.ts';

/** Where a refusal is shown: reached by a rewrite only (`showRefused`); asked for itself, not found. */
export const REFUSED_PAGE = '/staff/refused';

/** A member signed in who is not in STAFF_EDITORS, at the editor and at its preview. */
export const NOT_AN_EDITOR = 'Only the site’s editors may use the editor (STAFF_EDITORS).';

const TO_THE_DESK = { href: DESK, label: 'Back to the desk' };
const TO_THE_EDITOR = { href: EDITOR_PAGE, label: 'Back to the editor' };
const TO_SIGN_IN = { href: SIGN_IN_PAGE, label: 'Back to the sign-in page' };

const SIGN_IN_TITLE = 'Signing in is not possible right now';
const SIGN_IN_UNAVAILABLE_WHY =
  'The site cannot reach its store, which keeps the staff’s sign-ins.';
/** What a member does while the store cannot be reached. */
const TRY_AGAIN_LATER = 'Try again in a minute. If this lasts, tell whoever runs the site.';

interface Refusal extends StaffRefusal {
  status: number;
  /** What a script is told, when not `said`. */
  line?: string;
  headers?: Record<string, string>;
}

/** Each refusal, in the words its page says and the line a script reads. */
const REFUSALS = {
  'not-an-editor': {
    status: 403,
    title: 'The editor is for the site’s editors',
    said: NOT_AN_EDITOR,
    todo: 'Ask whoever runs the site to add your address to STAFF_EDITORS.',
    back: TO_THE_DESK,
    line: NOT_AN_EDITOR,
  },
  'publish-not-an-editor': {
    status: 403,
    title: 'Publishing is for the site’s editors',
    said: 'Only editors may publish.',
    todo: 'Ask whoever runs the site to add your address to STAFF_EDITORS.',
    back: TO_THE_DESK,
    line: 'Only editors may publish. Ask whoever runs the site to add your address to STAFF_EDITORS.',
  },
  'publishing-off': {
    status: 404,
    title: 'Publishing is off on this site',
    said: 'Publishing from the browser is off on this site (EDITING is not on).',
    todo: 'The site’s content changes as its code is deployed: ask whoever runs the site.',
    back: TO_THE_DESK,
  },
  'published-elsewhere': {
    status: 409,
    title: 'Publishing is done on another machine',
    // Said by the error (../releases/publishing.ts PublishedElsewhere).
    said: '',
    back: TO_THE_DESK,
  },
  'leave-by-link': {
    status: 405,
    title: 'Nothing was changed',
    said: 'Leaving the preview is a link, not a form: nothing is sent to it.',
    todo: 'Leave the preview with “Leave the preview” at the top of its pages.',
    back: TO_THE_EDITOR,
    line: 'Use GET here.',
    headers: { Allow: 'GET, HEAD' },
  },
  // What is said of prospects is what the forms do on a 503 (docs/offline.md).
  'desk-unavailable': {
    status: 503,
    title: 'The desk cannot be opened right now',
    said: 'The enquiries cannot be read right now: the site cannot reach the store that keeps them.',
    kept: 'Nothing prospects sent is lost: what reached the site is kept in the store. Meanwhile the site tells a prospect their enquiry was not taken yet, and their browser keeps it and sends it again by itself (without JavaScript, they are asked to send it again).',
    todo: TRY_AGAIN_LATER,
    back: TO_THE_DESK,
    line: 'The desk cannot be opened right now: the enquiries cannot be read. Try again in a minute.',
    headers: { 'Retry-After': '30' },
  },
  // The draft is a folder of the server's, apart from the store: only who is signed in is unknown.
  'editor-unavailable': {
    status: 503,
    title: 'The editor cannot be opened right now',
    said: 'The site cannot reach its store, which keeps who is signed in: it cannot tell that you may use the editor.',
    kept: 'Nothing saved in the editor is lost: the draft is kept apart from the store.',
    todo: TRY_AGAIN_LATER,
    back: TO_THE_EDITOR,
    line: 'The editor is unavailable just now: try again in a minute.',
    headers: { 'Retry-After': '30' },
  },
  // Who may sign in is the content's and the server's, but the links, passkeys and sessions are the
  // store's: none of them can be checked or kept.
  'sign-in-unavailable': {
    status: 503,
    title: SIGN_IN_TITLE,
    // Under the title on its page; a script's line (the passkey's answer) has no title above it.
    said: SIGN_IN_UNAVAILABLE_WHY,
    todo: TRY_AGAIN_LATER,
    back: TO_SIGN_IN,
    line: `${SIGN_IN_TITLE}. ${SIGN_IN_UNAVAILABLE_WHY} ${TRY_AGAIN_LATER}`,
    headers: { 'Retry-After': '30' },
  },
  'not-from-the-site': {
    status: 403,
    title: 'Nothing was changed',
    said: 'Only the editor’s own pages may change the draft.',
    todo: 'This came from another page or site. Make the change in the editor itself.',
    back: TO_THE_EDITOR,
  },
} satisfies Record<string, Refusal>;

export type RefusalKind = keyof typeof REFUSALS;

/** A refusal as a staff page renders it (src/pages/staff/refused.astro). */
export interface RefusedPage extends PageAnswer {
  refusal: StaffRefusal;
  /** Who is signed in; unknown while the store (which holds the sessions) cannot be reached. */
  member?: StaffMember;
}

/**
 * Whether a refusal goes to a person's browser as a page: anything but JSON asked for, or a
 * script's fetch of the editor's API and files (Keystatic's Save shows the line); a browser sent
 * there by a form (Sec-Fetch-Mode: navigate) gets the page.
 */
function asPage(request: Request) {
  if (wantsJson(request)) return false;
  const { pathname } = new URL(request.url);
  const editorsPage = pathname === EDITOR_PAGE || pathname.startsWith(`${EDITOR_PAGE}/`);
  const scripts = isEditorAddress(pathname) && !editorsPage;
  return !scripts || request.headers.get('sec-fetch-mode') === 'navigate';
}

/**
 * Refusal `kind` of `member`'s request (`shown`: the words of an error that says it, or a way back
 * of its own): its page, or to a script its line, as text or JSON as asked, with the same status.
 */
export function staffRefusal(
  request: Request,
  kind: RefusalKind,
  member: StaffMember | undefined,
  shown: Partial<Pick<StaffRefusal, 'said' | 'back'>> = {},
): RefusedPage | Answered {
  const { status, line, headers = {}, ...words }: Refusal = REFUSALS[kind];
  const refusal = { ...words, ...shown };
  const all = deskHeaders(headers);
  if (asPage(request)) return { type: 'page', status, headers: all, refusal, member };
  return scriptAnswer(wantsJson(request), status, line ?? refusal.said, all);
}

/** A refusal's line to a script, as JSON `{ error }` or as text. */
function scriptAnswer(
  json: boolean,
  status: number,
  text: string,
  headers: Record<string, string>,
): Answered {
  const response = json
    ? jsonResponse(status, { error: text }, headers)
    : new Response(text, {
        status,
        headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
      });
  return { type: 'response', response };
}

/**
 * Refusal `kind` while the store cannot be reached (who is signed in is unknown: nobody is named):
 * "Try again" leading to `again` (none: the kind's own way back); a post, unless `postSaid` is
 * false, said to have done nothing.
 */
function unreachable(request: Request, kind: RefusalKind, again?: string, postSaid = true) {
  const { said } = REFUSALS[kind];
  return staffRefusal(request, kind, undefined, {
    ...(postSaid && request.method === 'POST' && { said: `Nothing was done. ${said}` }),
    ...(again && { back: { href: again, label: 'Try again' } }),
  });
}

/** The desk (its pages, Publishing, the Preview, the CSV): "Try again" leading to `again`. */
export const deskUnavailable = (request: Request, again = DESK): RefusedPage | Answered =>
  unreachable(request, 'desk-unavailable', again);

/**
 * The editor's addresses: its page's "Try again" asking for the same address; the editor's own
 * fetches (a Save) get the line they always had.
 */
export const editorUnavailable = (request: Request) =>
  unreachable(request, 'editor-unavailable', askedAgain(request), false);

/**
 * Signing in (its page, its posts): a GET's "Try again" asks for the same address (an e-mailed
 * link's token kept); a post (no link sent, nobody signed in) leads back to the sign-in page.
 */
export const signInUnavailable = (request: Request): RefusedPage | Answered =>
  unreachable(
    request,
    'sign-in-unavailable',
    request.method === 'POST' ? undefined : askedAgain(request),
  );

/** The same to a passkey's step (JSON only, read by PasskeyButton's script, which shows `error`). */
export function signInUnavailableJson(): Answered {
  const { status, line, headers } = REFUSALS['sign-in-unavailable'];
  return scriptAnswer(true, status, line, deskHeaders(headers));
}

/** The address asked, to ask again: a GET's with its query, a post's page without what it sent. */
export function askedAgain(request: Request) {
  const { pathname, search } = new URL(request.url);
  // One slash first: '//host/…' would be another site's address.
  const path = `/${pathname.replace(/^\/+/, '')}`;
  return request.method === 'GET' ? `${path}${search}` : path;
}

/** What a page or the middleware hands Astro to show a refusal: its context, or `Astro`. */
interface Rewriter {
  request: Request;
  url: URL;
  locals: { refused?: RefusedPage };
  rewrite(payload: Request): Promise<Response>;
}

/**
 * The refusal's page, rendered in place of the address asked for (Astro's rewrite, which runs the
 * middleware again): a GET of REFUSED_PAGE with the request's headers, so that a post's body, read
 * already, is not read again.
 */
export function showRefused(astro: Rewriter, page: RefusedPage) {
  astro.locals.refused = page;
  return astro.rewrite(
    new Request(new URL(REFUSED_PAGE, astro.url), { headers: astro.request.headers }),
  );
}
