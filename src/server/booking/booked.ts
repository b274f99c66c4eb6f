/**
 * The confirmation page of a booked call (/schedule/booked?ref=<id>): the booking of its reference,
 * or why there is none to show (an unknown reference, a store that cannot be read), with the status.
 */
import type { PageAnswer } from '../http/answer.ts';
import type { CallLinks } from '../call-token.ts';
import { callLinks } from './change.ts';
import type { OpenServices } from './services.ts';
import { reportStoreFailure } from '../log.ts';
import type { StoredEnquiry } from '../store/types.ts';

export interface BookedOutcome extends PageAnswer {
  /** The booked call's enquiry; undefined for a reference with no booking. */
  booking: StoredEnquiry | undefined;
  /** The store could not be read: the page says so (503), not that the booking is unknown. */
  unavailable: boolean;
  /** Whether e-mail is on (the confirmation, with the call's links, is on its way). */
  mailed: boolean;
  /** Without e-mail, the call's change and cancel links, which the page shows itself. */
  links?: CallLinks;
}

export async function handleBooked(request: Request, open: OpenServices): Promise<BookedOutcome> {
  const ref = new URL(request.url).searchParams.get('ref') ?? '';
  let booking: StoredEnquiry | undefined;
  let unavailable = false;
  let mailed = false;
  let links: CallLinks | undefined;
  try {
    const service = await open();
    booking = /^[0-9a-f-]{36}$/.test(ref) ? await service.store.findById(ref) : undefined;
    mailed = service.jobs !== undefined;
    // No e-mail will carry the links: this page is where the prospect can keep them.
    if (booking?.call && !booking.call.cancelledAt && !mailed && service.bookingSecret)
      links = callLinks(booking, service.bookingSecret);
  } catch (error) {
    reportStoreFailure(error);
    unavailable = true;
  }
  const found = !!booking?.call;
  return {
    type: 'page',
    status: found ? 200 : unavailable ? 503 : 404,
    headers: { 'Cache-Control': 'no-store' },
    booking: found ? booking : undefined,
    unavailable,
    mailed,
    ...(links && { links }),
  };
}
