/**
 * The cancel link of a booked call (/schedule/cancel?token=…): a GET shows the call and asks to
 * confirm (mail scanners open links), a POST cancels it. A forged, expired or reused token never
 * reaches another booking. The page renders what this decides, with the status given here.
 */
import { checkCallToken, type CallLinkPurpose } from '../call-token.ts';
import { first } from '../requests/body.ts';
import { inMinutes, postHeaders, refusalOf, type PostVerdict } from '../requests/post-gate.ts';
import type { PageAnswer } from '../http/answer.ts';
import { emailOn, type Mailed, type OpenServices, type Services } from './services.ts';
import { reportStoreFailure } from '../log.ts';
import { callLog } from './call-log.ts';
import { refusedCall, type CancelRefusal, type Refused } from './refusals.ts';
import { cancelRefusal } from './rules.ts';
import type { StoredEnquiry } from '../store/types.ts';

/**
 * What became of the link: the call to confirm, cancelled now, or why nothing was done
 * (./refusals.ts: no such call, released unconfirmed, cancelled already, begun).
 */
export type CancelLinkResult =
  | { status: 'unavailable' }
  /** `mailed` when e-mail is on (the cancellation is e-mailed), else only this page tells. */
  | Mailed<
      | { status: 'invalid' | 'expired' }
      | { status: 'confirm' | 'cancelled'; enquiry: StoredEnquiry }
      | Refused<CancelRefusal>
    >
  /** The gate refused the post (another site's, too many at once): nothing was cancelled. */
  | { status: 'refused'; message: string };

export interface CancelOutcome extends PageAnswer {
  result: CancelLinkResult;
  /** The link's token, for the confirm button's post. */
  token: string;
}

const statuses: Record<Exclude<CancelLinkResult['status'], 'refused'>, number> = {
  confirm: 200,
  cancelled: 200,
  'already-cancelled': 200,
  lapsed: 200,
  past: 410,
  invalid: 400,
  unknown: 400,
  expired: 410,
  unavailable: 503,
};

/**
 * A call link's token checked for its purpose, with the service to act on its call: or why not
 * (booking off or the store down: unavailable; a forged or changed token: invalid; expired), with
 * whether e-mail is on once the services are open.
 */
export async function linkedCall(
  purpose: CallLinkPurpose,
  token: string,
  open: OpenServices,
  now = Date.now(),
): Promise<
  | { status: 'unavailable' }
  | Mailed<{ status: 'invalid' | 'expired' }>
  | Mailed<{ status: 'ok'; service: Services; id: string; sequence?: number }>
> {
  const service = await open().catch(reportStoreFailure);
  if (!service?.bookingSecret) return { status: 'unavailable' };
  const mailed = emailOn(service);
  const check = checkCallToken(purpose, token, service.bookingSecret, now);
  if (!check.ok) return { status: check.reason, mailed };
  return {
    status: 'ok',
    service,
    mailed,
    id: check.id,
    ...(check.sequence !== undefined && { sequence: check.sequence }),
  };
}

/**
 * What the link's token leads to: the call to confirm, or (confirmed) the call cancelled; a call
 * released unconfirmed, cancelled before or begun at `now` is not (the same rule as the post's).
 */
async function cancelCall(
  token: string,
  confirm: boolean,
  open: OpenServices,
  now = Date.now(),
): Promise<Exclude<CancelLinkResult, { status: 'refused' }>> {
  const linked = await linkedCall('cancel', token, open, now);
  if (linked.status !== 'ok') return linked;
  try {
    return { ...(await cancelled(linked.service, linked.id, confirm, now)), mailed: linked.mailed };
  } catch (error) {
    // The store went away: the page says so, as the confirm and change pages do, not an error.
    reportStoreFailure(error);
    return { status: 'unavailable' };
  }
}

/** The call to confirm the cancel of, or (confirmed) the call cancelled; or why not. */
async function cancelled(service: Services, id: string, confirm: boolean, now: number) {
  if (!confirm) {
    const enquiry = await service.store.findById(id);
    const refusal = cancelRefusal(enquiry, now);
    return refusal
      ? refusedCall(refusal, enquiry)
      : { status: 'confirm' as const, enquiry: enquiry! };
  }
  const result = await service.bookings.cancelCall(id, { queueMail: emailOn(service), now });
  if (result.status === 'cancelled') {
    callLog.cancelled(result.enquiry);
    service.jobs?.kick();
  }
  return result;
}

/** The page a call link answers with: what was decided, with its status; never kept by a cache. */
export const linkPage = <Result>(result: Result, status: number, token: string) => ({
  type: 'page' as const,
  status,
  headers: { 'Cache-Control': 'no-store' },
  result,
  token,
});

/** A GET or POST of a call link's page: its token, and what the gate refused of a post (if it did). */
export function linkRequest(request: Request, post: PostVerdict | undefined) {
  const refused = post && refusalOf(post);
  const token = post?.ok
    ? first(post.fields, 'token')
    : (new URL(request.url).searchParams.get('token') ?? '');
  return {
    token,
    /** The page's answer to a post the gate refused: it says why, and nothing is done. */
    refused: refused && {
      type: 'page' as const,
      status: refused.status,
      headers: postHeaders(refused.headers),
      result: {
        status: 'refused' as const,
        // Not the forms' "several messages": a prospect using their own link sent none.
        message:
          post && post.ok && post.throttled
            ? `This page was used many times from your network in a short time. Please try again in ${inMinutes(post.throttled.retryAfter)}: your link still works.`
            : refused.message,
      },
      token,
    },
  };
}

/**
 * A GET or POST of the cancel page. A post comes through the gate (src/middleware.ts), which has
 * checked and read its body; what it refused is said, and nothing is cancelled.
 */
export async function handleCancel(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenServices,
): Promise<CancelOutcome> {
  const { token, refused } = linkRequest(request, post);
  if (refused) return refused;
  const result = await cancelCall(token, request.method === 'POST', open);
  return linkPage(result, statuses[result.status], token);
}
