/**
 * The confirm link of a booked call (/schedule/confirm?token=…): a GET shows the call and asks
 * (mail scanners open links), a POST confirms it, so that it no longer counts among the calls
 * waiting for confirmation (BOOKING_UNCONFIRMED_SHARE). A forged, expired or other purpose's token
 * confirms nothing. The page renders what this decides, with the status given here.
 */
import { linkedCall, linkPage, linkRequest } from './cancel.ts';
import type { Mailed, OpenServices, Services } from './services.ts';
import type { PostVerdict } from '../requests/post-gate.ts';
import type { PageAnswer } from '../http/answer.ts';
import { reportStoreFailure } from '../log.ts';
import type { StoredEnquiry } from '../store/types.ts';
import type { CancelRefusal } from './refusals.ts';
import { cancelRefusal } from './rules.ts';

/**
 * What became of the link: the call to confirm, confirmed now or before, or why nothing was done
 * (./refusals.ts, as for a cancellation: released unconfirmed, cancelled already, begun).
 */
export type ConfirmLinkResult =
  | { status: 'unavailable' }
  /** `mailed` when e-mail is on (the invitation and its links come by e-mail), else none is named. */
  | Mailed<LinkAnswer>
  /** The gate refused the post (another site's, too many at once): nothing was confirmed. */
  | { status: 'refused'; message: string };

/** What the link leads to, the services open. */
type LinkAnswer =
  | { status: 'invalid' | 'expired' }
  | {
      status: 'ask' | 'confirmed' | 'already-confirmed' | Exclude<CancelRefusal, 'unknown'>;
      enquiry: StoredEnquiry;
    };

export interface ConfirmOutcome extends PageAnswer {
  result: ConfirmLinkResult;
  /** The link's token, for the button's post. */
  token: string;
}

const statuses: Record<Exclude<ConfirmLinkResult['status'], 'refused'>, number> = {
  ask: 200,
  confirmed: 200,
  'already-confirmed': 200,
  'already-cancelled': 200,
  lapsed: 200,
  past: 410,
  invalid: 400,
  expired: 410,
  unavailable: 503,
};

/** The call of enquiry `id` to confirm, or (posted) confirmed; or why not. */
async function confirmed(
  { store, bookings }: Services,
  id: string,
  post: boolean,
  now: number,
): Promise<LinkAnswer> {
  const enquiry = await store.findById(id);
  // A link of a call moved earlier since is valid until its old time, but the call has begun.
  const refusal = cancelRefusal(enquiry, now);
  // An unknown booking under a valid signature is not expected: the same answer as a bad link.
  if (!enquiry || refusal === 'unknown') return { status: 'invalid' };
  if (refusal) return { status: refusal, enquiry };
  if (enquiry.call!.confirmedAt) return { status: 'already-confirmed', enquiry };
  if (!post) return { status: 'ask', enquiry };
  // Released by the sweep between the look above and this post: said as it is.
  const result = await bookings.confirmCall(id, now);
  return result.status === 'unknown' ? { status: 'invalid' } : result;
}

/** What the link's token leads to: the call to confirm, or (posted) the call confirmed. */
async function confirmCall(
  token: string,
  post: boolean,
  open: OpenServices,
  now = Date.now(),
): Promise<Exclude<ConfirmLinkResult, { status: 'refused' }>> {
  const linked = await linkedCall('confirm', token, open, now);
  if (linked.status !== 'ok') return linked;
  try {
    return { ...(await confirmed(linked.service, linked.id, post, now)), mailed: linked.mailed };
  } catch (error) {
    reportStoreFailure(error);
    return { status: 'unavailable' };
  }
}

/**
 * A GET or POST of the confirm page. A post comes through the gate (src/middleware.ts), which has
 * checked and read its body; what it refused is said, and nothing is confirmed.
 */
export async function handleConfirm(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenServices,
): Promise<ConfirmOutcome> {
  const { token, refused } = linkRequest(request, post);
  if (refused) return refused;
  const result = await confirmCall(token, request.method === 'POST', open);
  return linkPage(result, statuses[result.status], token);
}
