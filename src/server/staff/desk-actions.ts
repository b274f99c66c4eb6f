/**
 * What a member's post to the desk does: a call moved or cancelled (through ../booking/, as the
 * CLI's --move and --cancel), an enquiry marked handled or new, a call held or a no-show, a note
 * added, a call written into its host's calendar again, their own passkeys and sessions; each in
 * the audit log, and the member sent back to the item acted on (./landing.ts).
 */
import { first } from '../requests/body.ts';
import { isCalendarDate, type Availability } from '../../domain/booking.ts';
import { moveBookedCall } from '../booking/change.ts';
import { CalendarsUnreadable } from '../booking/messages.ts';
import {
  SlotTaken,
  type MarkChange,
  type OutcomeKind,
  type StoredEnquiry,
} from '../store/types.ts';
import type { StaffMember } from './access.ts';
import { cancelDetail, deskChange, enquiryDetail, moveDetail, reasonText } from './records.ts';
import { landing, type Done } from './landing.ts';
import { isMarkable, MAX_BULK, noteText } from './desk-view.ts';
import { DESK, record, redirect, type Answered, type StaffDesk } from './desk.ts';

/**
 * A cancel refused because the call has moved since the member's page showed it: the call as it
 * is now. The desk shows the cancel's step again from the post, whose reason no address carries.
 */
export interface MovedSince {
  type: 'moved-since';
  enquiry: StoredEnquiry;
}

/**
 * Held, No-show or Unmark refused because the call's mark changed after the member's page showed
 * it: the change that made its mark now (a colleague's mark, or their Unmark; unknown: undefined),
 * and whether a note typed on the card was added first. The desk says so at the top, the card
 * below showing the mark now (./desk-page.ts).
 */
export interface MarkedSince {
  type: 'marked-since';
  outcome: MarkChange | undefined;
  noted: boolean;
}

/** What a member's post does (a call moved or cancelled, an enquiry marked), and where they go next. */
export async function deskPost(
  { desk, member, session }: { desk: StaffDesk; member: StaffMember; session: string },
  fields: Map<string, string[]>,
  url: URL,
  availability: Availability,
  now: number,
): Promise<Answered | MovedSince | MarkedSince> {
  const action = first(fields, 'action');
  if (action === 'remove-passkey' || action === 'sign-out-elsewhere') {
    const passkey = first(fields, 'passkey').slice(0, 1024);
    return redirect(landing(url, await ownSignIn(desk, member, action, passkey, session, now), ''));
  }
  const id = first(fields, 'id').slice(0, 64);
  // Later or Earlier days of a move's times: buttons of its form, so the reason typed goes along.
  const day = first(fields, 'day');
  const reason = reasonText(first(fields, 'reason'));
  if (!action && day)
    return redirect(
      landing(url, undefined, id, 'move', { reason, ...(isCalendarDate(day) && { day }) }),
    );
  // A cancel asks first, on a step of its own: this post (the old form's) changes nothing.
  if (action === 'cancel') return redirect(landing(url, undefined, id, 'cancel'));
  if (action === 'cancel-confirmed' || action === 'move') {
    const change = action === 'move' ? 'move' : 'cancel';
    const done = await changeCall(desk, member, change, id, fields, availability, now);
    // A cancel of a call moved since: its step again, answered from this post (./desk-page.ts).
    if (typeof done === 'object') return done;
    // A move refused (a time taken meanwhile) shows its times again, the reason still typed.
    return redirect(landing(url, done, id, undefined, change === 'move' ? { reason } : undefined));
  }
  if (action === 'write-again')
    return redirect(landing(url, await writeAgain(desk, member, id, now), id));
  if (action === 'bulk-handled') {
    const ids = [...new Set((fields.get('ids') ?? []).map((one) => one.slice(0, 64)))];
    const { done, said } = await markAll(desk, member, ids.slice(0, MAX_BULK), now);
    return redirect(landing(url, done, '', undefined, said));
  }
  // A note typed on the card goes with each of its buttons: added first, whatever they do next.
  const noted = action !== 'note' && (await addNote(desk, member, id, first(fields, 'note'), now));
  const said = noted === 'noted' ? { note: 'added' as const } : undefined;
  if (action === 'change') return redirect(landing(url, undefined, id, 'move', said));
  const done = await markOne(desk, member, action, id, fields, now);
  if (typeof done === 'object') return { ...done, noted: noted === 'noted' };
  return redirect(done ? landing(url, done, id, undefined, said) : `${DESK}${url.search}`);
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
  if (ids.length === 0) return { done: 'none-chosen' as const };
  const marked = await desk.store.desk.markAllHandled(ids, member.email, now);
  for (const id of marked)
    await record(desk, member, now, {
      action: 'marked handled',
      subject: id,
      detail: await nameOf(desk, id),
    });
  // Those not marked were handled by a colleague meanwhile (or removed): said, not logged.
  return { done: 'bulk' as const, said: { marked: marked.length, of: ids.length } };
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
): Promise<Done | Omit<MarkedSince, 'noted'> | undefined> {
  if (!id) return undefined;
  if (action === 'handled' || action === 'new') {
    const handledBy = action === 'handled' ? member.email : null;
    if (!(await desk.store.staff.markHandled(id, handledBy, now)))
      // A colleague handled it first: their name and time stay, and nothing is recorded.
      return (await desk.store.findById(id))?.handled ? 'already-handled' : 'unknown';
    await record(desk, member, now, {
      action: `marked ${action}`,
      subject: id,
      detail: await nameOf(desk, id),
    });
    return action;
  }
  if (action === 'held' || action === 'no-show' || action === 'unmark')
    return markCall(desk, member, action, id, shownOutcome(fields), now);
  if (action === 'note') return addNote(desk, member, id, first(fields, 'note'), now);
  return undefined;
}

/**
 * The call's mark the card showed (its hidden field): null for none. A page without one, or with
 * something else, is taken as out of date (undefined): it changes no mark.
 */
const shownOutcome = (fields: Map<string, string[]>): OutcomeKind | null | undefined => {
  const text = first(fields, 'shown-outcome');
  return text === 'none' ? null : text === 'held' || text === 'no-show' ? text : undefined;
};

/**
 * A call marked held or a no-show, or unmarked, if its mark is still the one the member's page
 * showed; in the audit log only then. Already what was asked (a double press, a retry): done, as
 * it stands. A colleague's mark since (or an old page's press): kept, and said.
 */
async function markCall(
  desk: StaffDesk,
  member: StaffMember,
  action: 'held' | 'no-show' | 'unmark',
  id: string,
  shown: OutcomeKind | null | undefined,
  now: number,
): Promise<Done | Omit<MarkedSince, 'noted'>> {
  const to = action === 'unmark' ? null : action;
  const changed =
    shown !== undefined &&
    (await desk.store.desk.markOutcome(id, { shown, to }, member.email, now));
  if (!changed) {
    const call = (await desk.store.findById(id))?.call;
    if (!call || !isMarkable(call, now)) return 'not-begun';
    if ((call.outcome?.kind ?? null) === to) return action;
    const unmarked = call.unmarked && { kind: null, ...call.unmarked };
    return { type: 'marked-since', outcome: call.outcome ?? unmarked };
  }
  const said = { held: 'marked the call held', 'no-show': 'marked the call a no-show' };
  await record(desk, member, now, {
    action: to ? said[to] : 'unmarked the call',
    subject: id,
    detail: await nameOf(desk, id),
  });
  return action;
}

/** A note on the enquiry `id`, in the audit log; what it came to. */
async function addNote(
  desk: StaffDesk,
  member: StaffMember,
  id: string,
  text: string,
  now: number,
) {
  const body = noteText(text);
  if (!body || !id) return 'note-empty';
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

/**
 * The call's sequence the move's or the cancel's page showed (its hidden field). A page without
 * one, or with something else, is taken as out of date: the change is refused and the call shown
 * as it is now.
 */
export const shownSequence = (fields: Map<string, string[]>) => {
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
): Promise<Done | MovedSince> {
  const { services } = desk;
  const change = deskChange(member, first(fields, 'reason'));
  const mail = services.jobs !== undefined;
  const enquiry = await services.store.findById(id);
  if (!enquiry?.call) return 'unknown';
  const { call } = enquiry;
  // As the page showed it: a colleague's move (or the prospect's) meanwhile refuses this change.
  const sequence = shownSequence(fields);
  const result =
    action === 'cancel'
      ? await services.bookings.cancelCall(id, {
          queueMail: mail,
          now,
          change,
          member: member.email,
          sequence,
        })
      : await moveBookedCall(services, availability, enquiry, first(fields, 'slot'), {
          sequence,
          now,
          maxMoves: Infinity,
          change,
          member: member.email,
        }).catch((error: unknown) => {
          // Another booking took the time (or every host's calendar is unreadable now).
          if (error instanceof SlotTaken || error instanceof CalendarsUnreadable)
            return { status: 'taken' as const };
          throw error;
        });
  if (action === 'cancel' && result.status === 'used')
    return { type: 'moved-since', enquiry: result.enquiry };
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
