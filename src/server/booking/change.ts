/**
 * The change link of a booked call (/schedule/change?token=…): a GET shows the call's time and the
 * free times it can move to; a POST of one (`slot`) moves it, in one transaction (the store's
 * moveCall): the old time is free again, the host stays if free then, else another free host takes
 * it. A link works once (the move raises the call's sequence, which the link carries); not inside
 * the notice period, nor after MAX_MOVES moves. What a forged, used or expired link leads to is said,
 * and nothing changes. The page renders what this decides, with the status given here.
 */
import { callLinkPaths, type CallLinks } from '../call-token.ts';
import { nearest, offeredSlot, refusal } from './free-times.ts';
import {
  CalendarsUnreadable,
  calendarsUnreadableMoveMessage,
  sameTimeMessage,
  slotTakenMessage,
} from './messages.ts';
import { currentFreeHosts, currentFreeSlots } from './queries.ts';
import { linkedCall, linkPage, linkRequest } from './cancel.ts';
import { first } from '../requests/body.ts';
import type { PostVerdict } from '../requests/post-gate.ts';
import type { PageAnswer } from '../http/answer.ts';
import type { Holds } from './queries.ts';
import type { OpenServices, Services } from './services.ts';
import { reportStoreFailure } from '../log.ts';
import { callLog } from './call-log.ts';
import { SlotTaken, type CallChange, type StoredEnquiry } from '../store/types.ts';
import {
  availabilityRanges,
  reminderMinutes,
  type Availability,
  type Slot,
} from '../../domain/booking.ts';

/** How many times one call may be moved. */
export const MAX_MOVES = availabilityRanges.moves.max;

export type ChangeResult =
  | { status: 'invalid' | 'expired' | 'unavailable' }
  /** The call, and the times it can move to; a refused choice with its message (and the nearest). */
  | {
      status: 'choose';
      enquiry: StoredEnquiry;
      slots: Slot[];
      error?: string;
      alternatives?: Slot[];
    }
  /** Moved: `mailed` when an e-mail with the new time and links is on its way, else the links. */
  | {
      status: 'moved';
      enquiry: StoredEnquiry;
      /** The time it was moved from (unknown when the answer is a repeat's). */
      previous?: Slot;
      mailed: boolean;
      links?: CallLinks;
    }
  /**
   * Nothing to move: cancelled; released unconfirmed (lapsed); the link was used (the call has
   * moved since); moved MAX_MOVES times; too close to its time (the notice period).
   */
  | { status: 'cancelled' | 'lapsed' | 'used' | 'limit' | 'too-late'; enquiry: StoredEnquiry }
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
  cancelled: 200,
  lapsed: 200,
  used: 410,
  limit: 200,
  'too-late': 200,
  invalid: 400,
  expired: 410,
  unavailable: 503,
};

/** The reminders of availability.yaml, in minutes before the call. */
export const reminderLeads = (availability: Availability) =>
  availability.reminders.map((text) => reminderMinutes(text)!);

/** The change and cancel links of the call as it is now (its sequence, its start), for its pages. */
export const callLinks = (enquiry: StoredEnquiry, secret: string): CallLinks =>
  callLinkPaths(enquiry.id, enquiry.call!.sequence, enquiry.call!.start, secret);

/**
 * Why the call cannot be moved with a link made at `sequence` at the time `now`, if it cannot:
 * released unconfirmed, cancelled, moved since, moved MAX_MOVES times, or closer than the notice
 * period.
 */
export function whyNotMovable(
  enquiry: StoredEnquiry,
  availability: Availability,
  sequence: number | undefined,
  now: number,
):
  | Extract<ChangeResult, { status: 'cancelled' | 'lapsed' | 'used' | 'limit' | 'too-late' }>
  | undefined {
  const call = enquiry.call!;
  if (call.lapsedAt) return { status: 'lapsed', enquiry };
  if (call.cancelledAt) return { status: 'cancelled', enquiry };
  if (sequence !== call.sequence) return { status: 'used', enquiry };
  if (call.moves >= MAX_MOVES) return { status: 'limit', enquiry };
  if (Date.parse(call.start) - now < availability.noticeHours * 3_600_000)
    return { status: 'too-late', enquiry };
  return undefined;
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

/**
 * Moves the call of enquiry `id` to `wanted` (a start offered now), as the change link's POST and
 * the staff's command do: the free hosts then (the call's own time set aside), the store's
 * transaction, the outbox nudged. `sequence`: the link's (undefined: the staff's, any).
 */
export async function moveBookedCall(
  service: Pick<Services, 'store' | 'bookings' | 'outbox' | 'calendars'>,
  availability: Availability,
  enquiry: StoredEnquiry,
  wanted: string,
  {
    sequence,
    now = Date.now(),
    maxMoves = MAX_MOVES,
    queueMail = service.outbox !== undefined,
    change,
  }: {
    sequence?: number;
    now?: number;
    maxMoves?: number;
    queueMail?: boolean;
    /** The staff's move (the CLI's): its e-mails say so. */
    change?: CallChange;
  } = {},
) {
  const refused = refusal(availability, wanted, now);
  const slot = refused ? undefined : offeredSlot(availability, wanted);
  if (!slot)
    return { status: 'refused' as const, message: refused ?? 'Choose one of the times offered.' };
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
    },
    queueMail,
    now,
  );
  if (result.status === 'moved') service.outbox?.kick();
  return result;
}

async function changeCall(
  token: string,
  wanted: string | undefined,
  availability: Availability,
  open: OpenServices,
  now = Date.now(),
): Promise<Exclude<ChangeResult, { status: 'refused' }>> {
  const check = await linkedCall('change', token, open, now);
  if (check.status !== 'ok') return check;
  const { service } = check;
  const bookingSecret = service.bookingSecret!;
  const mailed = service.outbox !== undefined;
  /** The answer of a moved call: it is e-mailed, or here are its links. */
  const answerMoved = (
    enquiry: StoredEnquiry,
    previous: Slot | undefined,
  ): Extract<ChangeResult, { status: 'moved' }> => ({
    status: 'moved',
    enquiry,
    ...(previous && { previous }),
    mailed,
    ...(!mailed && { links: callLinks(enquiry, bookingSecret) }),
  });
  try {
    const enquiry = await service.store.findById(check.id);
    // An unknown booking under a valid signature is not expected: the same answer as a bad link.
    if (!enquiry?.call) return { status: 'invalid' };
    const stop = whyNotMovable(enquiry, availability, check.sequence, now);
    // The same post again (a double tap, a retry after a lost answer): the move it made is the
    // answer, not "this link has been used".
    if (
      stop?.status === 'used' &&
      wanted &&
      check.sequence === enquiry.call.sequence - 1 &&
      Date.parse(wanted) === Date.parse(enquiry.call.start)
    )
      return answerMoved(enquiry, undefined);
    if (stop) return stop;
    if (wanted === undefined)
      return {
        status: 'choose',
        enquiry,
        slots: await movesOf(availability, service, enquiry, now),
      };
    if (!wanted)
      return {
        status: 'choose',
        enquiry,
        slots: await movesOf(availability, service, enquiry, now),
        error: 'Choose a new time for the call.',
      };
    try {
      const moved = await moveBookedCall(service, availability, enquiry, wanted, {
        sequence: check.sequence!,
        now,
      });
      if (moved.status === 'refused' || moved.status === 'same')
        return {
          status: 'choose',
          enquiry,
          slots: await movesOf(availability, service, enquiry, now),
          error: moved.status === 'refused' ? moved.message : sameTimeMessage,
        };
      if (moved.status === 'unknown') return { status: 'invalid' };
      if (moved.status === 'stale') return { status: 'used', enquiry: moved.enquiry };
      // Released unconfirmed since the page was read: the store's 'cancelled', said as it is.
      if (moved.status === 'cancelled' && moved.enquiry.call?.lapsedAt)
        return { status: 'lapsed', enquiry: moved.enquiry };
      if (moved.status !== 'moved') return { status: moved.status, enquiry: moved.enquiry };
      callLog.moved(moved.enquiry, moved.previous);
      return answerMoved(moved.enquiry, { start: moved.previous.start, end: moved.previous.end });
    } catch (error) {
      if (error instanceof CalendarsUnreadable)
        return {
          status: 'choose',
          enquiry,
          slots: await movesOf(availability, service, enquiry, now),
          error: calendarsUnreadableMoveMessage,
        };
      if (!(error instanceof SlotTaken)) throw error;
      // Taken meanwhile (another booking or move won it): the nearest free times, as a booking gets.
      const slots = await movesOf(availability, service, enquiry, now);
      const alternatives = nearest(slots, wanted);
      return {
        status: 'choose',
        enquiry,
        slots,
        error: slotTakenMessage(alternatives),
        alternatives,
      };
    }
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
