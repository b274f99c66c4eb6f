/**
 * The staff desk (/staff): signing in with a one-time link, signing out, and the desk itself (the
 * calls ahead, the enquiries, the audit log), each a handler that decides an outcome for its page.
 * Signed out, every address under /staff answers as the sign-in page does: nothing of a prospect.
 */
import { first } from '../requests/body.ts';
import {
  inMinutes,
  postHeaders,
  refusal as gateRefusal,
  refusalOf,
  type PostVerdict,
} from '../requests/post-gate.ts';
import type { PageAnswer } from '../http/answer.ts';
import type { Availability, Slot } from '../../domain/booking.ts';
import { moveBookedCall } from '../booking/change.ts';
import type { CancelRefusal } from '../booking/refusals.ts';
import { cancelRefusal } from '../booking/rules.ts';
import { currentMoves } from '../booking/queries.ts';
import type { Services } from '../booking/services.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { withoutBidiControls } from '../safe-text.ts';
import { log } from '../log.ts';
import { csvHeader, csvRows } from '../enquiries/listing.ts';
import type {
  AuditLine,
  DeskCall,
  DeskItem,
  MemberPasskey,
  VitalsRow,
} from '../../domain/staff.ts';
import type { CalendarWriteState } from '../store/calendar-writes.ts';
import { SlotTaken, type EnquiryStore, type StoredEnquiry } from '../store/types.ts';
import type { ExportCursor, KnownHost } from '../store/types.ts';
import { CalendarsUnreadable } from '../booking/messages.ts';
import {
  addressKey,
  isEditor,
  linkId,
  memberLabel,
  newSessionToken,
  sessionCookie,
  signedIn,
  storedHash,
  type StaffMember,
} from './access.ts';
import { sendLink } from './links.ts';
import { cancelDetail, deskChange, enquiryDetail, moveDetail } from './records.ts';
import { doneAt, doneMessage, landing, type Done } from './landing.ts';
import {
  deskAddress,
  deskFilters,
  deskItem,
  deskQuery,
  MAX_BULK,
  noteText,
  PAGE_SIZE,
  whoIn,
  type DeskFilters,
} from './desk-view.ts';
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

/** What the sign-in page shows. */
export type SignInState =
  | { status: 'form' | 'sent' | 'unavailable' }
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

/** Where a signed-in member goes: the desk. */
const DESK = '/staff';

/**
 * /staff/sign-in: the form (GET), a link asked for (POST email), a link opened (GET token: a
 * button, since mail scanners open links) and used (POST token: signed in).
 */
export async function handleSignIn(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
): Promise<SignInOutcome | { type: 'response'; response: Response }> {
  const refused = post && refusalOf(post);
  if (refused)
    return page({ status: 'refused', message: refused.message }, refused.status, refused.headers);
  const desk = await open().catch(() => undefined);
  if (!desk) return page({ status: 'unavailable' }, 503);
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
 * A member's sign-in or action: a line of the audit log, and one of the server's log with the
 * member's label, the action and its subject (an enquiry's reference), and `said` if given; never
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
  log.info(
    `Staff ${memberLabel(member)} ${action}${subject ? ` ${subject}` : ''}${said ? ` ${said}` : ''}`,
  );
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
  return redirect('/staff/sign-in', {
    'Set-Cookie': sessionCookie(desk?.secure ?? false, undefined),
  });
}

/** Visitor text as the desk shows it: no bidi control (each value is also in a <bdi> there). */
const shown = withoutBidiControls;

/**
 * An audit line as the desk shows it: the member by name and address; its subject and detail may
 * hold what a visitor typed.
 */
const deskAudit = (line: AuditLine, members: StaffDesk['members']): AuditLine => ({
  ...line,
  actor: actorLabel(line.actor, members),
  subject: line.subject === null ? null : shown(line.subject),
  detail: line.detail === null ? null : shown(line.detail),
});

/** A member as the audit log names them: 'Anna Reid (anna@…)', or their address alone. */
const actorLabel = (email: string, members: StaffDesk['members']) => {
  const name = members.get(email)?.name;
  return name && name !== email ? `${name} (${email})` : email;
};

export interface DeskView extends PageAnswer {
  member: StaffMember;
  /**
   * The call chosen to move or cancel (`?call=ID`): the times it can move to, each with the host
   * who would take it (by start), from date `from` (`?day=`); or (`&step=cancel`) the step that
   * asks before a cancel.
   */
  selected?: {
    call: DeskCall;
    /** The call's sequence as shown: a move from this page is refused once another has moved it. */
    sequence: number;
    moves: Slot[];
    hosts: Record<string, string>;
    step: 'move' | 'cancel';
    from: string;
  };
  /** What the last action did, said once (`?done=`), or why a post did nothing. */
  done?: string;
  /** A note the member typed whose post was refused: kept in its item's box, to send again. */
  kept?: { id: string; note: string };
  /** The item it is said at (`?at=`, an item's id shown on the page); none: at the top. */
  doneAt?: string;
  /**
   * The anchor of the line at the top when the item is not on this page (a call cancelled leaves
   * the calls ahead): the item's own, so that the page still opens at what it says.
   */
  doneAnchor?: string;
  /** The list asked for, narrowed (search, host, dates), and its page. */
  filters: DeskFilters;
  /** The page's items, in the list's order. */
  items: DeskItem[];
  /** The addresses of the pages before and after this one, if any. */
  previous?: string;
  next?: string;
  /** This page's address: its forms post to it, and the member comes back to it. */
  here: string;
  /** The hosts, to filter by (those removed last); the member's own host id, if they take calls. */
  hosts: DeskHost[];
  myHost: string | undefined;
  audit: AuditLine[];
  /** The member's passkeys, oldest first: none, and the desk offers one first. */
  passkeys: MemberPasskey[];
  /** Field data of the last 28 days: p75 per page and metric, as `npm run vitals` shows it. */
  vitals: VitalsRow[];
  /** An editor, with editing on (EDITING): the desk links to the editor and to Publishing. */
  edits: boolean;
  /** Each call's write into its host's calendar (CALENDAR_WRITE), by id. */
  calendarWrites: Map<string, CalendarWriteState>;
}

/**
 * /staff: signed out, to the sign-in page; a GET shows the desk; a POST moves or cancels a call,
 * marks enquiries handled (or new again), a call held or a no-show, or adds a note, each recorded
 * in the audit log.
 */
export async function handleDesk(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
  availability: Availability,
): Promise<DeskView | Answered> {
  const visit = await signedInVisit(request, post, open);
  if ('type' in visit) return visit;
  const { desk, member, now, session, refused } = visit;
  const url = new URL(request.url);
  if (refused) {
    // The desk as the member had it, saying why nothing was done, their note still typed.
    const { doneAt: _, ...view } = await deskView(desk, member, url, availability, now);
    const note = post?.ok && first(post.fields, 'action') === 'note' && first(post.fields, 'note');
    return {
      ...view,
      status: refused.status,
      headers: deskHeaders(refused.headers),
      done: `${notDone(refused)}${note ? ' Your note is still in its box below.' : ''}`,
      doneAnchor: 'done',
      ...(note && { kept: { id: first(post.fields, 'id').slice(0, 64), note } }),
    };
  }
  if (request.method === 'POST' && post?.ok)
    return deskPost({ desk, member, session }, post.fields, url, availability, now);
  return deskView(desk, member, url, availability, now);
}

export type Answered = { type: 'response'; response: Response };

type Refused = NonNullable<ReturnType<typeof refusalOf>>;

/**
 * Why a member's post did nothing, in the desk's words: over the desk's limit (STAFF_RATE_LIMIT_MAX),
 * when to try again; else the gate's reason.
 */
export function notDone({ status, message, headers }: Refused): string {
  if (status !== 429) return `Not done: ${message}`;
  return `Not done: you have made many changes in a short time. Try again in ${inMinutes(Number(headers['Retry-After'] ?? 60))}.`;
}

/** A post the gate refused, answered as the gate answers one (to a visitor not signed in). */
const refusal = (request: Request, refused: Refused): Answered => ({
  type: 'response',
  response: gateRefusal(request, refused.status, refused.message, refused.headers),
});

/**
 * Who is at the desk: a member signed in, with the refusal of their post if the gate refused it
 * (their page says so); else a desk that cannot open, a refused post, or sign-in.
 */
export async function signedInVisit(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
): Promise<
  | Answered
  | { desk: StaffDesk; member: StaffMember; now: number; session: string; refused?: Refused }
> {
  const refused = post && refusalOf(post);
  const desk = await open().catch(() => undefined);
  if (!desk)
    return {
      type: 'response',
      response: new Response('The desk cannot be opened right now.', {
        status: 503,
        headers: deskHeaders({ 'Retry-After': '30' }),
      }),
    };
  const now = desk.now?.() ?? Date.now();
  const current = await signedIn(request, { ...desk, now });
  if (!current) return refused ? refusal(request, refused) : redirect('/staff/sign-in');
  return { desk, member: current.member, now, session: current.hash, ...(refused && { refused }) };
}

/** What a member's post does (a call moved or cancelled, an enquiry marked), and where they go next. */
async function deskPost(
  { desk, member, session }: { desk: StaffDesk; member: StaffMember; session: string },
  fields: Map<string, string[]>,
  url: URL,
  availability: Availability,
  now: number,
): Promise<Answered> {
  const action = first(fields, 'action');
  if (action === 'remove-passkey' || action === 'sign-out-elsewhere') {
    const passkey = first(fields, 'passkey').slice(0, 1024);
    return redirect(landing(url, await ownSignIn(desk, member, action, passkey, session, now), ''));
  }
  const id = first(fields, 'id').slice(0, 64);
  // A cancel asks first, on a step of its own: this post (the old form's) changes nothing.
  if (action === 'cancel') return redirect(landing(url, undefined, id, 'cancel'));
  if (action === 'cancel-confirmed' || action === 'move') {
    const change = action === 'move' ? 'move' : 'cancel';
    const done = await changeCall(desk, member, change, id, fields, availability, now);
    return redirect(landing(url, done, id));
  }
  if (action === 'write-again')
    return redirect(landing(url, await writeAgain(desk, member, id, now), id));
  if (action === 'bulk-handled') {
    const ids = [...new Set((fields.get('ids') ?? []).map((one) => one.slice(0, 64)))];
    return redirect(landing(url, await markAll(desk, member, ids.slice(0, MAX_BULK), now), ''));
  }
  const done = await markOne(desk, member, action, id, fields, now);
  return redirect(done ? landing(url, done, id) : `${DESK}${url.search}`);
}

/**
 * The member's own sign-in, for a device lost or left signed in: one of their passkeys removed (a
 * colleague's id removes nothing), or every session of theirs but this one ended.
 */
async function ownSignIn(
  desk: StaffDesk,
  member: StaffMember,
  action: 'remove-passkey' | 'sign-out-elsewhere',
  passkey: string,
  session: string,
  now: number,
): Promise<Done> {
  if (action === 'remove-passkey') {
    if (!(await desk.store.staff.removePasskey(passkey, member.email))) return 'passkey-unknown';
    await record(desk, member, now, { action: 'removed a passkey' });
    return 'passkey-removed';
  }
  const ended = await desk.store.staff.endOtherSessions(member.email, session, now);
  await record(desk, member, now, {
    action: 'signed out on every other device',
    detail: `${ended} ${ended === 1 ? 'session' : 'sessions'} ended`,
  });
  return 'signed-out-elsewhere';
}

/** A call written into its host's calendar again (CALENDAR_WRITE), in the audit log. */
async function writeAgain(desk: StaffDesk, member: StaffMember, id: string, now: number) {
  if (!(await desk.services.bookings.writeAgain(id, now))) return 'unknown';
  await record(desk, member, now, {
    action: 'asked to write the call into its host calendar again',
    subject: id,
  });
  return 'write-again';
}

/** Enquiries marked handled in one post (the list's checkboxes), each in the audit log. */
async function markAll(desk: StaffDesk, member: StaffMember, ids: string[], now: number) {
  if (ids.length === 0) return 'none-chosen';
  const marked = await desk.store.desk.markAllHandled(ids, member.email, now);
  for (const id of marked)
    await record(desk, member, now, {
      action: 'marked handled',
      subject: id,
      detail: await nameOf(desk, id),
    });
  return 'bulk';
}

/** An enquiry's prospect as an audit line names them (./records.ts). */
const nameOf = async (desk: StaffDesk, id: string) => {
  const enquiry = await desk.store.findById(id);
  return enquiry ? enquiryDetail(enquiry.name) : null;
};

/** One item marked: handled or new, its call held or a no-show (or neither), a note added. */
async function markOne(
  desk: StaffDesk,
  member: StaffMember,
  action: string,
  id: string,
  fields: Map<string, string[]>,
  now: number,
): Promise<Done | undefined> {
  if (!id) return undefined;
  if (action === 'handled' || action === 'new') {
    const handledBy = action === 'handled' ? member.email : null;
    if (!(await desk.store.staff.markHandled(id, handledBy, now))) return 'unknown';
    await record(desk, member, now, {
      action: `marked ${action}`,
      subject: id,
      detail: await nameOf(desk, id),
    });
    return action;
  }
  if (action === 'held' || action === 'no-show' || action === 'unmark') {
    const outcome = action === 'unmark' ? null : action;
    if (!(await desk.store.desk.markOutcome(id, outcome, member.email, now))) return 'not-begun';
    const said = { held: 'marked the call held', 'no-show': 'marked the call a no-show' };
    await record(desk, member, now, {
      action: outcome ? said[outcome] : 'unmarked the call',
      subject: id,
      detail: await nameOf(desk, id),
    });
    return action;
  }
  if (action === 'note') {
    const body = noteText(first(fields, 'note'));
    if (!body) return 'note-empty';
    if (!(await desk.store.desk.addNote({ enquiryId: id, author: member.email, at: now, body })))
      return 'unknown';
    // The note itself stays on the desk: it may say what a prospect told the member.
    await record(desk, member, now, {
      action: 'added a note',
      subject: id,
      detail: await nameOf(desk, id),
    });
    return 'noted';
  }
  return undefined;
}

/** The desk as the member asked for it: the list, its page, the call chosen, what was done. */
async function deskView(
  desk: StaffDesk,
  member: StaffMember,
  url: URL,
  availability: Availability,
  now: number,
): Promise<DeskView> {
  const hosts = await deskHosts(desk);
  const filters = deskFilters(url, new Set(hosts.map((h) => h.id)));
  const { items, more } = await deskPage(desk, filters, member.timeZone, hosts, now);
  const chosen = await chosenCall(desk, member, url.searchParams.get('call'), hosts, now);
  const picked = typeof chosen === 'object' ? chosen : undefined;
  const selected = picked && (await choice(desk, picked, url, availability, hosts, now));
  // A call asked for that cannot be moved (the calendar's link of one cancelled or over): why.
  const done =
    doneMessage(url.searchParams.get('done') ?? '') ??
    (typeof chosen === 'string' ? doneMessage(chosen) : undefined);
  const shown = [...items.map((e) => `enquiry-${e.id}`), ...(selected ? ['change-title'] : [])];
  const at = doneAt(url, shown);
  return {
    type: 'page',
    status: 200,
    headers: deskHeaders(),
    member,
    ...(selected && { selected }),
    ...(done && { done, ...(at ? { doneAt: at } : { doneAnchor: anchorOf(url) }) }),
    filters,
    items,
    ...(filters.page > 1 && { previous: deskAddress(filters, filters.page - 1) }),
    ...(more && { next: deskAddress(filters, filters.page + 1) }),
    here: deskAddress(filters),
    hosts,
    myHost: member.hostId,
    audit: (await desk.store.staff.recentAudit(100)).map((line) => deskAudit(line, desk.members)),
    passkeys: (await desk.store.staff.passkeysOf(member.email)).map((passkey) => ({
      id: passkey.id,
      addedAt: passkey.createdAt ?? now,
      usedAt: passkey.usedAt ?? null,
    })),
    edits: desk.publishing !== undefined && isEditor(member),
    calendarWrites: await desk.store.calendarWrites.states(items.map((item) => item.id)),
    vitals: await desk.fieldData(),
  };
}

/** A host on the desk: one the live site has, or one a publish removed (`former`). */
export type DeskHost = KnownHost & { former?: boolean };

/**
 * The hosts, to filter by and to name beside their calls: the live site's, then those a publish has
 * removed who have calls (`former`), as the store kept their names.
 */
async function deskHosts(desk: StaffDesk): Promise<DeskHost[]> {
  const live = [...desk.members.values()].flatMap((m) =>
    m.hostId ? [{ id: m.hostId, name: m.name }] : [],
  );
  const former = await desk.store.desk.formerHosts(live.map((host) => host.id));
  return [...live, ...former.map((host) => ({ ...host, former: true }))];
}

/** The anchor an outcome's address asked for (`?at=`), if it is an item's; else the top's. */
const anchorOf = (url: URL) => {
  const at = url.searchParams.get('at') ?? '';
  return /^enquiry-[\w-]{1,64}$/.test(at) ? at : 'done';
};

/** A page of the list `filters` asks for, read through the store's StaffQueries, with its notes. */
export async function deskPage(
  desk: Pick<StaffDesk, 'store' | 'members' | 'where'>,
  filters: DeskFilters,
  timeZone: string,
  hosts: readonly KnownHost[],
  now: number,
): Promise<{ items: DeskItem[]; more: boolean }> {
  const rows = await desk.store.desk.list(deskQuery(filters, timeZone, now));
  const page = rows.slice(0, PAGE_SIZE);
  const notes = await desk.store.desk.notesOf(page.map((e) => e.id));
  const names = new Map(hosts.map((h) => [h.id, h.name]));
  const context = {
    who: whoIn(desk.members),
    hostName: (id: string) => names.get(id) ?? id,
    where: desk.where,
    now,
  };
  return {
    items: page.map((e) => deskItem(e, notes.get(e.id) ?? [], context)),
    more: rows.length > PAGE_SIZE,
  };
}

/** A chosen call's times to move to, each with the host who would take it, or its cancel's step. */
async function choice(
  desk: StaffDesk,
  { call, stored }: ChosenCall,
  url: URL,
  availability: Availability,
  hosts: readonly KnownHost[],
  now: number,
): Promise<NonNullable<DeskView['selected']>> {
  const from = url.searchParams.get('day') ?? '';
  const step = url.searchParams.get('step') === 'cancel' ? 'cancel' : 'move';
  const { sequence, host } = stored;
  if (step === 'cancel') return { call, sequence, moves: [], hosts: {}, step, from };
  const moves = await currentMoves(availability, desk.services, { ...call, host }, now);
  const names = new Map(hosts.map((h) => [h.id, h.name]));
  return {
    call,
    sequence,
    moves: moves.map(({ slot }) => slot),
    hosts: Object.fromEntries(moves.map(({ slot, host }) => [slot.start, names.get(host) ?? host])),
    step,
    from,
  };
}

/** A call chosen on the desk: as the page shows it, and as stored (its sequence, its host's id). */
interface ChosenCall {
  call: DeskCall;
  stored: NonNullable<StoredEnquiry['call']>;
}

/**
 * The call chosen to move or cancel (`?call=ID`): booked, not cancelled, not begun; else why not
 * (none asked for: undefined).
 */
async function chosenCall(
  desk: StaffDesk,
  member: StaffMember,
  id: string | null,
  hosts: readonly KnownHost[],
  now: number,
): Promise<ChosenCall | CancelRefusal | undefined> {
  if (!id) return undefined;
  const enquiry = await desk.store.findById(id.slice(0, 64));
  const refused = cancelRefusal(enquiry, now);
  if (refused || !enquiry?.call) return refused ?? 'unknown';
  const { call } = enquiry;
  const shownCall: DeskCall = {
    id: enquiry.id,
    name: shown(enquiry.name),
    email: shown(enquiry.email),
    message: typeof enquiry.data.message === 'string' ? shown(enquiry.data.message) : undefined,
    start: call.start,
    end: call.end,
    host: call.host && (hosts.find((h) => h.id === call.host)?.name ?? call.host),
    where: desk.where(call.host),
    confirmed: call.confirmedAt !== null,
    moves: call.moves,
    mine: call.host !== null && call.host === member.hostId,
  };
  return { call: shownCall, stored: call };
}

/**
 * The call's sequence the move's page showed (its hidden field). A page without one, or with
 * something else, is taken as out of date: the move is refused and the call shown as it is now.
 */
const shownSequence = (fields: Map<string, string[]>) => {
  const text = first(fields, 'sequence');
  return /^\d{1,9}$/.test(text) ? Number(text) : -1;
};

/**
 * Cancels or moves a call for the member, as the CLI's --cancel and --move do (the e-mails say the
 * staff did, with the reason if given), recorded in the audit log; what it came to (DONE's key).
 */
async function changeCall(
  desk: StaffDesk,
  member: StaffMember,
  action: 'cancel' | 'move',
  id: string,
  fields: Map<string, string[]>,
  availability: Availability,
  now: number,
): Promise<Done> {
  const { services } = desk;
  const change = deskChange(member, first(fields, 'reason'));
  const mail = services.jobs !== undefined;
  const enquiry = await services.store.findById(id);
  if (!enquiry?.call) return 'unknown';
  const { call } = enquiry;
  const result =
    action === 'cancel'
      ? await services.bookings.cancelCall(id, mail, now, change, member.email)
      : await moveBookedCall(services, availability, enquiry, first(fields, 'slot'), {
          // As the page showed it: a colleague's move (or the prospect's) meanwhile refuses this one.
          sequence: shownSequence(fields),
          now,
          maxMoves: Infinity,
          change,
        }).catch((error: unknown) => {
          // Another booking took the time (or every host's calendar is unreadable now).
          if (error instanceof SlotTaken || error instanceof CalendarsUnreadable)
            return { status: 'taken' as const };
          throw error;
        });
  if (result.status !== 'cancelled' && result.status !== 'moved') return result.status;
  services.jobs?.kick();
  const zone = member.timeZone;
  await record(desk, member, now, {
    action: result.status === 'cancelled' ? 'cancelled the call' : 'moved the call',
    subject: id,
    detail:
      result.status === 'cancelled'
        ? cancelDetail(enquiry.name, call, zone, change.reason)
        : moveDetail(enquiry.name, call, result.enquiry.call!, zone, change.reason),
  });
  return result.status;
}

/**
 * /staff/enquiries.csv (POST, through the gate: the desk's button): every enquiry as the CLI's
 * --csv writes it, for a member signed in, recorded in the audit log. A post, so that no other
 * site can make a member's browser download it, or write the line in their name.
 */
export async function handleEnquiriesCsv(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
): Promise<Response> {
  // Only a post through the gate exports (routes.ts takes no other method here).
  const refused = post
    ? refusalOf(post)
    : { status: 405, message: 'Use the desk’s button.', headers: { Allow: 'POST' } };
  if (refused)
    return new Response(refused.message, {
      status: refused.status,
      headers: deskHeaders(refused.headers),
    });
  const desk = await open().catch(() => undefined);
  if (!desk) return new Response('The desk cannot be opened right now.', { status: 503 });
  const now = desk.now?.() ?? Date.now();
  const current = await signedIn(request, { ...desk, now });
  if (!current) return redirect('/staff/sign-in').response;
  await record(desk, current.member, now, { action: 'exported the enquiries' });
  return new Response(csvStream(desk.store), {
    headers: deskHeaders({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="enquiries.csv"',
    }),
  });
}

/** Enquiries read for the CSV at a time. */
const CSV_PAGE = 500;

/**
 * The CSV as it is read, a page of enquiries (with their notes) at a time, never whole in memory:
 * a byte-order mark first, so that spreadsheets read it as UTF-8 ("£40k", not "Â£40k").
 */
export function csvStream(store: EnquiryStore): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: ExportCursor | undefined;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvHeader()}`));
        return;
      }
      const { rows, next } = await store.desk.exportPage(cursor, CSV_PAGE);
      if (rows.length > 0) {
        const notes = await store.desk.notesOf(rows.map((e) => e.id));
        controller.enqueue(encoder.encode(csvRows(rows, notes)));
      }
      if (rows.length < CSV_PAGE) controller.close();
      cursor = next;
    },
  });
}
