/**
 * The desk itself (/staff): a list of calls or enquiries as the member asked for it (search, host,
 * dates, its page), the call chosen to move or cancel with its times, what the last action did, the
 * audit log, the member's passkeys and field data. Its posts are ./desk-actions.ts's.
 */
import { first } from '../requests/body.ts';
import type { PostVerdict } from '../requests/post-gate.ts';
import type { PageAnswer } from '../http/answer.ts';
import { isCalendarDate, type Availability, type Slot } from '../../domain/booking.ts';
import { dateIn } from '../../domain/call-times.ts';
import { refusalMessage, type CancelRefusal } from '../booking/refusals.ts';
import { cancelRefusal } from '../booking/rules.ts';
import { currentMoves } from '../booking/queries.ts';
import { withoutBidiControls } from '../safe-text.ts';
import {
  deskTime,
  type AuditLine,
  type DeskCall,
  type DeskItem,
  type MemberPasskey,
  type VitalsRow,
} from '../../domain/staff.ts';
import type { CalendarWriteState } from '../store/calendar-writes.ts';
import type { KnownHost, StoredEnquiry } from '../store/types.ts';
import { isEditor, type StaffMember } from './access.ts';
import {
  bulkMessage,
  doneAt,
  doneMessage,
  markedSinceMessage,
  NOTE_ADDED,
  noteMessage,
} from './landing.ts';
import {
  deskAddress,
  deskFilters,
  deskItem,
  deskQuery,
  movedOf,
  PAGE_SIZE,
  whoIn,
  type DeskFilters,
} from './desk-view.ts';
import { deskPost, shownSequence, type MarkedSince } from './desk-actions.ts';
import { reasonText } from './records.ts';
import { hostNamesOf } from '../enquiries/listing.ts';
import {
  deskHeaders,
  notDone,
  deskHosts,
  subjectShown,
  type Answered,
  type DeskHost,
  type OpenDesk,
  type StaffDesk,
} from './desk.ts';
import type { RefusedPage } from './refused.ts';
import { signedInVisit } from './visit.ts';

/** Visitor text as the desk shows it: no bidi control (each value is also in a <bdi> there). */
const shown = withoutBidiControls;

/**
 * An audit line as the desk shows it: the member by name and address, an enquiry by its reference
 * (subjectShown); its subject and detail may hold what a visitor typed.
 */
const deskAudit = (line: AuditLine, members: StaffDesk['members']): AuditLine => ({
  ...line,
  actor: actorLabel(line.actor, members),
  subject: line.subject === null ? null : shown(subjectShown(line.subject)),
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
    /**
     * The reason typed before the times were shown again (Later days, a time taken): `?reason=`;
     * a cancel's, only from its post the gate refused.
     */
    reason: string;
    /** The time chosen on a move's form the gate refused: chosen still, to send again. */
    checked?: string;
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
 * in the audit log. The store out of reach: the page that says so (./refused.ts).
 */
export async function handleDesk(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenDesk,
  availability: Availability,
): Promise<DeskView | RefusedPage | Answered> {
  const visit = await signedInVisit(request, post, open);
  if ('type' in visit) return visit;
  const { desk, member, now, session, refused } = visit;
  const url = new URL(request.url);
  const fields = post?.ok ? post.fields : new Map<string, string[]>();
  const shownAgain = { desk, member, fields, url, availability, now };
  if (refused)
    return postShownAgain(shownAgain, {
      status: refused.status,
      headers: refused.headers,
      done: notDone(refused),
    });
  if (request.method !== 'POST' || !post?.ok) return deskView(desk, member, url, availability, now);
  const answer = await deskPost({ desk, member, session }, fields, url, availability, now);
  if (answer.type === 'marked-since')
    return postShownAgain(shownAgain, markedSince(desk, member, answer));
  if (answer.type !== 'moved-since') return answer;
  // Its step again for the call as it is now (its sequence now), to cancel or keep at its new time.
  const movedTo = refusalMessage('used', answer.enquiry, member.timeZone, whoIn(desk.members));
  return postShownAgain(shownAgain, { status: 409, done: movedTo }, 'now');
}

/**
 * Why Held, No-show or Unmark did nothing (a colleague's mark or Unmark since): who marked it what
 * (or unmarked it), and when in the member's zone; a note typed on the card was added all the
 * same, and is not kept.
 */
function markedSince(desk: StaffDesk, member: StaffMember, { outcome, noted }: MarkedSince) {
  const mark = outcome && {
    kind: outcome.kind,
    by: whoIn(desk.members)(outcome.by),
    at: deskTime(outcome.at, member.timeZone),
  };
  const said = markedSinceMessage(mark);
  return { status: 409, done: noted ? `${said} ${NOTE_ADDED}` : said, noteAdded: noted };
}

/**
 * The desk as the member had it when their post did nothing, saying why (`done`, at the top, the
 * focus on it): their note still typed (unless `noteAdded`: it was added first), or the call's
 * form they posted (a move's, a cancel's) open again with what they chose and typed. That form
 * keeps the call's sequence the post had, unless `sequence` is 'now': the post was out of date,
 * and the form shows the call as it is now.
 */
async function postShownAgain(
  { desk, member, fields, url, availability, now }: ShownAgain,
  why: { status: number; headers?: Record<string, string>; done: string; noteAdded?: boolean },
  sequence: 'posted' | 'now' = 'posted',
): Promise<DeskView> {
  const form = callFormPosted(fields, url, member.timeZone);
  const { doneAt: _, ...view } = await deskView(
    desk,
    member,
    form?.shown ?? url,
    availability,
    now,
  );
  // Whichever of the card's buttons posted it (each sends the note box).
  const note = why.noteAdded ? '' : first(fields, 'note');
  const again = form && view.selected?.step === form.step ? view.selected : undefined;
  // The form sends on the sequence the post had; the call's now when out of date, or the post
  // had none (an old page's).
  const posted = sequence === 'posted' && form ? form.sequence : -1;
  const selected =
    form && again
      ? { ...again, ...form.kept, sequence: posted < 0 ? again.sequence : posted }
      : undefined;
  return {
    ...view,
    ...(selected && { selected }),
    status: why.status,
    headers: deskHeaders(why.headers),
    done: `${why.done}${note ? ' Your note is still in its box below.' : ''}`,
    doneAnchor: 'done',
    ...(note && { kept: { id: first(fields, 'id').slice(0, 64), note } }),
  };
}

/** What a post shown again needs: the member's desk, their post's fields, its address. */
interface ShownAgain {
  desk: StaffDesk;
  member: StaffMember;
  fields: Map<string, string[]>;
  url: URL;
  availability: Availability;
  now: number;
}

/**
 * A post of a call's form: a move's (Move the call; Later or Earlier days) or a cancel's (Yes, cancel
 * the call). The desk's address that shows that form again (the call, its step; a move's day its
 * times start from and its reason typed), the call's sequence as the member saw it (-1: none, an
 * old page's), and what the form holds besides, kept from the post: a move's time chosen; a
 * cancel's reason, which no address fills in (a link of another site could not put words to the
 * prospect in the box). Anything else: undefined.
 */
function callFormPosted(fields: Map<string, string[]>, url: URL, timeZone: string) {
  const [action = '', id = '', day = '', slot = ''] = ['action', 'id', 'day', 'slot'].map((name) =>
    first(fields, name),
  );
  const moving = action === 'move' || (!action && day);
  if (!id || !(moving || action === 'cancel-confirmed')) return undefined;
  const shown = new URL(url);
  shown.searchParams.set('call', id.slice(0, 64));
  const reason = reasonText(first(fields, 'reason'));
  const sequence = shownSequence(fields);
  if (!moving) {
    shown.searchParams.set('step', 'cancel');
    return { step: 'cancel' as const, shown, sequence, kept: { reason } };
  }
  // The chosen time's day first, so that it is in sight, unless Later or Earlier days was pressed.
  const from = isCalendarDate(day) ? day : Date.parse(slot) ? dateIn(slot, timeZone) : '';
  if (from) shown.searchParams.set('day', from);
  shown.searchParams.set('reason', reason);
  return {
    step: 'move' as const,
    shown,
    sequence,
    kept: { checked: slot.slice(0, 64) },
  };
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
  const outcome = [await outcomeOf(desk, member, url), noteMessage(url)].filter(Boolean);
  const done =
    (outcome.length ? outcome.join(' ') : undefined) ??
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

/**
 * What the last action did (`?done=`), in words: a bulk mark with its counts, and an enquiry a
 * colleague handled first with who and when, as stored.
 */
async function outcomeOf(desk: StaffDesk, member: StaffMember, url: URL) {
  const done = url.searchParams.get('done') ?? '';
  if (done === 'bulk') return bulkMessage(url) ?? doneMessage(done);
  const at = /^enquiry-([\w-]{1,64})$/.exec(url.searchParams.get('at') ?? '');
  const handled = done === 'already-handled' && at && (await desk.store.findById(at[1]!))?.handled;
  if (!handled) return doneMessage(done);
  const by = whoIn(desk.members)(handled.by);
  return `Already handled by ${by} at ${deskTime(handled.at, member.timeZone)}: nothing changed.`;
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
  const names = hostNamesOf(hosts);
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
  const reason = reasonText(url.searchParams.get('reason') ?? '');
  const { sequence, host } = stored;
  if (step === 'cancel') return { call, sequence, moves: [], hosts: {}, step, from, reason: '' };
  const moves = await currentMoves(availability, desk.services, { ...call, host }, now);
  const names = hostNamesOf(hosts);
  return {
    call,
    sequence,
    moves: moves.map(({ slot }) => slot),
    hosts: Object.fromEntries(moves.map(({ slot, host }) => [slot.start, names.get(host) ?? host])),
    step,
    from,
    reason,
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
    ...movedOf(call, whoIn(desk.members)),
    mine: call.host !== null && call.host === member.hostId,
  };
  return { call: shownCall, stored: call };
}
