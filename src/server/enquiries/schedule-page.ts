/**
 * /schedule, the booking of visitors without JavaScript (the Schedule a Call dialog leads there
 * then): a GET gives the free times of the coming days; a POST books the call (303 to its
 * confirmation) or gives the form again with what is wrong, or the nearest free times.
 */
import type { Availability, Slot } from '../../domain/booking.ts';
import type { BookingField } from '../../domain/call-form.ts';
import { bookingIsOpen, currentFreeSlots } from '../booking/queries.ts';
import type { OpenServices } from '../booking/services.ts';
import type { PageAnswer, PageOutcome } from '../http/answer.ts';
import { reportStoreFailure } from '../log.ts';
import type { PostVerdict } from '../requests/post-gate.ts';
import { handleCallRequest } from './call-request.ts';

/** What the page shows. */
export interface ScheduleView extends PageAnswer {
  /** A refused post's answer: the form's values and errors, or the nearest free times. */
  outcome?: PageOutcome<BookingField>;
  /** Whether the site takes bookings (BOOKING_SECRET set). */
  bookable: boolean;
  /** Every free time ahead: the days before the one asked for give the link back to them. */
  slots: Slot[];
  /** The free times could not be read (the store is out of reach): the form stays, with the problem. */
  timesUnread: boolean;
  /** What is wrong but no field: a refused post's reason, or free times that could not be read. */
  problem?: string;
}

export async function handleSchedule(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenServices,
  availability: Availability,
): Promise<{ type: 'response'; response: Response } | ScheduleView> {
  let outcome: PageOutcome<BookingField> | undefined;
  if (request.method === 'POST') {
    const answer = await handleCallRequest(request, post, open, availability, {
      requireTime: true,
    });
    if (answer.type === 'response') return answer;
    outcome = answer;
  }
  const view: ScheduleView = {
    type: 'page',
    status: outcome?.status ?? 200,
    headers: outcome?.headers ?? { 'Cache-Control': 'no-store' },
    outcome,
    bookable: bookingIsOpen(),
    slots: [],
    timesUnread: false,
    problem: outcome?.message && !outcome.errors ? outcome.message : undefined,
  };
  if (!view.bookable) return view;
  try {
    view.slots = await currentFreeSlots(availability, await open());
  } catch (error) {
    reportStoreFailure(error);
    view.status = 503;
    view.timesUnread = true;
    view.problem ??= 'The free times cannot be loaded right now. Please try again in a minute.';
  }
  return view;
}
