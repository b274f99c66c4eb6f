/**
 * The change link of a booked call (/schedule/change?token=…): a GET shows the call's time and the
 * free times it can move to; a POST of one (`slot`) moves it, in one transaction (the store's
 * moveCall): the old time is free again, the host stays if free then, else another free host takes
 * it. A link works once (the move raises the call's sequence, which the link carries); not inside
 * the notice period, nor after MAX_MOVES moves. What a forged, used or expired link leads to is said,
 * and nothing changes. The page renders what this decides, with the status given here.
 */
import { callLinkPaths, type CallLinks } from '../call-token.ts';
import { nearest, offeredSlot, refusal as timeRefusal } from './free-times.ts';
import {
  CalendarsUnreadable,
  calendarsUnreadableMoveMessage,
  sameTimeMessage,
  slotTakenMoveMessage,
} from './messages.ts';
import { currentFreeHosts, currentFreeSlots } from './queries.ts';
import { linkedCall, linkPage, linkRequest } from './cancel.ts';
import { refusedCall, type MoveRefusal, type Refused } from './refusals.ts';
import { moveRefusal, type MoveResult } from './rules.ts';
import { first } from '../requests/body.ts';
import type { PostVerdict } from '../requests/post-gate.ts';
import type { PageAnswer } from '../http/answer.ts';
import type { Holds } from './queries.ts';
import { emailOn, type Mailed, type OpenServices, type Services } from './services.ts';
import { reportStoreFailure } from '../log.ts';
import { callLog } from './call-log.ts';
import { SlotTaken, type CallChange, type StoredCall, type StoredEnquiry } from '../store/types.ts';
import { availabilityRanges, type Availability, type Slot } from '../../domain/booking.ts';
import { reminderLeads } from '../../domain/reminders.ts';
import { callZones, formatCallTime } from '../../domain/call-times.ts';

/** How many times one call may be moved with its links. */
export const MAX_MOVES = availabilityRanges.moves.max;

/** What a change link leads to, the services open. */
type ChangeAnswer =
  | { status: 'invalid' | 'expired' }
  /** The call, and the times it can move to; a refused choice with its message (and the nearest). */
  | {
      status: 'choose';
      enquiry: StoredEnquiry;
      slots: Slot[];
      error?: string;
      alternatives?: Slot[];
    }
  /** Moved: with e-mail off, the call's new links, which no e-mail brings. */
  | {
      status: 'moved';
      enquiry: StoredEnquiry;
      /** The time it was moved from (unknown for a repeat of a move stored before it was kept). */
      previous?: { start: string };
      links?: CallLinks;
    }
  /**
   * Nothing to move (./refusals.ts): released unconfirmed, cancelled, the link used (the call has
   * moved since), moved MAX_MOVES times, too close to its time (the notice period). An unknown
   * call is answered as a bad link; a move to its own time, with the times to choose from.
   */
  | { status: Exclude<MoveRefusal, 'unknown' | 'same'>; enquiry: StoredEnquiry }
  /** The link's call was moved since by the staff (not with a link): the prospect never used it. */
  | { status: 'moved-by-us'; enquiry: StoredEnquiry };

export type ChangeResult =
  | { status: 'unavailable' }
  /** `mailed` when e-mail is on (a move's new time and links are e-mailed), else this page says them. */
  | Mailed<ChangeAnswer>
  /** The gate refused the post (another site's, too many at once): nothing was moved. */
  | { status: 'refused'; message: string };

export interface ChangeOutcome extends PageAnswer {
  result: ChangeResult;
  /** The link's token, for the form's post. */
  token: string;
}

const statuses: Record<Exclude<ChangeResult['status'], 'refused'>, number> = {
  choose: 200,
  moved: 200,
  'already-cancelled': 200,
  lapsed: 200,
  used: 410,
  'moved-by-us': 410,
  limit: 200,
  'too-late': 200,
  invalid: 400,
  expired: 410,
  unavailable: 503,
};

/** The change and cancel links of the call as it is now (its sequence, its start), for its pages. */
export const callLinks = (enquiry: StoredEnquiry, secret: string): CallLinks =>
  callLinkPaths(enquiry.id, enquiry.call!.sequence, enquiry.call!.start, secret);

/** The call's time as its pages show it (BookedCallDetails): in the prospect's zone and locale. */
function timeShown(enquiry: StoredEnquiry) {
  const zones = callZones(enquiry.data);
  return formatCallTime(enquiry.call!.start, zones.visitor, zones.visitorLocale);
}

/** The times the call can move to: the free ones, its own time left out. */
async function movesOf(
  availability: Availability,
  holds: Holds,
  enquiry: StoredEnquiry,
  now: number,
) {
  const slots = await currentFreeSlots(availability, holds, {}, now, enquiry.id);
  return slots.filter((slot) => slot.start !== enquiry.call!.start);
}

/** What moveBookedCall came to: the store's answer, or the new time is not one offered (why). */
export type MoveOutcome = MoveResult | { status: 'not-offered'; message: string };

/**
 * Moves the call of enquiry `id` to `wanted` (a start offered now), as the change link's POST and
 * the staff's command do: the free hosts then (the call's own time set aside), the store's
 * transaction, the queue of jobs nudged. `sequence`: the link's (undefined: the staff's, any).
 */
export async function moveBookedCall(
  service: Pick<Services, 'store' | 'bookings' | 'jobs' | 'calendars'>,
  availability: Availability,
  enquiry: StoredEnquiry,
  wanted: string,
  {
    sequence,
    now = Date.now(),
    maxMoves = MAX_MOVES,
    queueMail = emailOn(service),
    change,
    member,
  }: {
    sequence?: number;
    now?: number;
    maxMoves?: number;
    queueMail?: boolean;
    /** The staff's move (the CLI's, the desk's): its e-mails say so. */
    change?: CallChange;
    /** The desk's member who moves it (their address), stored as who did. */
    member?: string;
  } = {},
): Promise<MoveOutcome> {
  const notOffered = timeRefusal(availability, wanted, now);
  const slot = notOffered ? undefined : offeredSlot(availability, wanted);
  if (!slot)
    return { status: 'not-offered', message: notOffered ?? 'Choose one of the times offered.' };
  const hosts = await currentFreeHosts(availability, slot, service, now, enquiry.id);
  const result = await service.bookings.moveCall(
    enquiry.id,
    {
      ...slot,
      hosts,
      reminders: reminderLeads(availability),
      maxMoves,
      ...(sequence !== undefined && { sequence }),
      ...(change && { change }),
      ...(member && { member }),
    },
    queueMail,
    now,
  );
  if (result.status === 'moved') service.jobs?.kick();
  return result;
}

/** A move asked with a change link: the call as read, and what the link and the page give. */
interface LinkMove {
  service: Services;
  availability: Availability;
  enquiry: StoredEnquiry;
  /** The link's sequence: the call's when the link was made. */
  sequence: number;
  now: number;
}

/** The answer of a moved call: it is e-mailed, or here are its links. */
const answerMoved = (
  service: Services,
  enquiry: StoredEnquiry,
  previous: { start: string } | undefined,
): ChangeAnswer => ({
  status: 'moved',
  enquiry,
  ...(previous && { previous }),
  ...(!emailOn(service) && { links: callLinks(enquiry, service.bookingSecret!) }),
});

/** The times the call can move to, with why the last choice was refused (if it was). */
const choice = async (
  { service, availability, enquiry, now }: LinkMove,
  error?: string,
): Promise<ChangeAnswer> => ({
  status: 'choose',
  enquiry,
  slots: await movesOf(availability, service, enquiry, now),
  ...(error && { error }),
});

/** A refusal as the page says it: an unknown call as a bad link, its own time as a choice to redo. */
const refusedAnswer = (
  result: Refused<MoveRefusal>,
  move: LinkMove,
): ChangeAnswer | Promise<ChangeAnswer> => {
  if (result.status === 'unknown') return { status: 'invalid' };
  if (result.status === 'same') return choice(move, sameTimeMessage);
  return { status: result.status, enquiry: result.enquiry };
};

/**
 * Whether a post of a used link is the same post again (a double tap, a retry after a lost
 * answer): the move it made is then the answer, not "this link has been used".
 */
const isRepeat = (call: StoredCall, sequence: number, wanted: string | undefined) =>
  Boolean(wanted) &&
  sequence === call.sequence - 1 &&
  Date.parse(wanted!) === Date.parse(call.start);

/** The move to `wanted` tried: moved, refused, or the time taken or unreadable meanwhile. */
async function moveTo(move: LinkMove, wanted: string): Promise<ChangeAnswer> {
  const { service, availability, enquiry, sequence, now } = move;
  try {
    const moved = await moveBookedCall(service, availability, enquiry, wanted, { sequence, now });
    if (moved.status === 'not-offered') return choice(move, moved.message);
    if (moved.status !== 'moved') return refusedAnswer(moved, move);
    callLog.moved(moved.enquiry, moved.previous);
    return answerMoved(service, moved.enquiry, { start: moved.previous.start });
  } catch (error) {
    if (error instanceof CalendarsUnreadable) return choice(move, calendarsUnreadableMoveMessage);
    if (!(error instanceof SlotTaken)) throw error;
    // Taken meanwhile (another booking or move won it): the call keeps its time; the nearest free.
    const slots = await movesOf(availability, service, enquiry, now);
    const alternatives = nearest(slots, wanted);
    return {
      status: 'choose',
      enquiry,
      slots,
      error: slotTakenMoveMessage(alternatives, timeShown(enquiry)),
      alternatives,
    };
  }
}

/**
 * What the change link of enquiry `id` leads to at `now`: the call and its times, or the call moved
 * to `wanted` (a post's choice; empty: none chosen), or why not.
 */
async function changeAnswer(
  { service, id, sequence }: { service: Services; id: string; sequence: number },
  wanted: string | undefined,
  availability: Availability,
  now: number,
): Promise<ChangeAnswer> {
  const enquiry = await service.store.findById(id);
  // An unknown booking under a valid signature is not expected: the same answer as a bad link.
  if (!enquiry?.call) return { status: 'invalid' };
  const move = { service, availability, enquiry, sequence, now };
  const asked = { sequence, maxMoves: MAX_MOVES, noticeHours: availability.noticeHours };
  const stop = moveRefusal(enquiry, asked, now);
  if (stop === 'used' && isRepeat(enquiry.call, sequence, wanted))
    return answerMoved(
      service,
      enquiry,
      enquiry.call.movedFrom ? { start: enquiry.call.movedFrom } : undefined,
    );
  // Moved since by the staff, as the store keeps it (not by its e-mail: with e-mail off there is none).
  if (stop === 'used' && enquiry.call.movedBy === 'staff')
    return { status: 'moved-by-us', enquiry };
  if (stop) return await refusedAnswer(refusedCall(stop, enquiry), move);
  if (wanted === undefined) return await choice(move);
  if (!wanted) return await choice(move, 'Choose a new time for the call.');
  return await moveTo(move, wanted);
}

/** What a change link's token leads to at `now` (changeAnswer), with whether e-mail is on. */
async function changeCall(
  token: string,
  wanted: string | undefined,
  availability: Availability,
  open: OpenServices,
  now = Date.now(),
): Promise<Exclude<ChangeResult, { status: 'refused' }>> {
  const linked = await linkedCall('change', token, open, now);
  if (linked.status !== 'ok') return linked;
  const { service, id, sequence, mailed } = linked;
  // A change link always carries the call's sequence (../call-token.ts): one without is no change link.
  if (sequence === undefined) return { status: 'invalid', mailed };
  try {
    return {
      ...(await changeAnswer({ service, id, sequence }, wanted, availability, now)),
      mailed,
    };
  } catch (error) {
    reportStoreFailure(error);
    return { status: 'unavailable' };
  }
}

/**
 * A GET or POST of the change page. A post comes through the gate (src/middleware.ts), which has
 * checked and read its body; what it refused is said, and nothing is moved.
 */
export async function handleChange(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenServices,
  availability: Availability,
): Promise<ChangeOutcome> {
  const { token, refused } = linkRequest(request, post);
  if (refused) return refused;
  const wanted =
    request.method === 'POST' && post?.ok ? first(post.fields, 'slot').trim() : undefined;
  const result = await changeCall(token, wanted, availability, open);
  const status =
    result.status === 'choose' && result.alternatives
      ? 409
      : result.status === 'choose' && result.error
        ? 422
        : statuses[result.status];
  return linkPage(result, status, token);
}
