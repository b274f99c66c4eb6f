/**
 * The page a booked call lands on (/schedule/booked?token=…, the link signed for it as booked): the
 * booking, or why there is none to show (an unknown or forged link, one past the call's start, a
 * store that cannot be read), with the status. A page of an older address, `?ref=<id>`, shows the
 * call's time alone: the id is no key to its links.
 */
import type { PageAnswer } from '../http/answer.ts';
import { checkCallToken, type CallLinks } from '../call-token.ts';
import { callLinks } from './change.ts';
import { emailOn, type OpenServices, type Services } from './services.ts';
import { reportStoreFailure } from '../log.ts';
import type { StoredEnquiry } from '../store/types.ts';

export interface BookedOutcome extends PageAnswer {
  /** The booked call's enquiry; undefined for a link that leads to none. */
  booking: StoredEnquiry | undefined;
  /** The store could not be read: the page says so (503), not that the booking is unknown. */
  unavailable: boolean;
  /** The link was signed until the call's start, which has come. */
  expired: boolean;
  /** Reached by the call's id (`?ref=`, the address before the links were signed): no links. */
  byReference: boolean;
  /**
   * Whether e-mail is on (the confirmation, with the call's links, is on its way); undefined when
   * the services could not be opened, and the page's words are true either way.
   */
  mailed: boolean | undefined;
  /** Without e-mail, the call's change and cancel links, which the page shows itself. */
  links?: CallLinks;
}

/** The enquiry the page's address names: by its signed link, else (an older address) by its id. */
async function addressed(url: URL, service: Services, now: number) {
  const token = url.searchParams.get('token');
  if (token === null) {
    const ref = url.searchParams.get('ref') ?? '';
    const booking = /^[0-9a-f-]{36}$/.test(ref) ? await service.store.findById(ref) : undefined;
    return { booking, expired: false, byReference: true };
  }
  const check = service.bookingSecret
    ? checkCallToken('booked', token, service.bookingSecret, now)
    : ({ ok: false, reason: 'invalid' } as const);
  if (!check.ok) return { booking: undefined, expired: check.reason === 'expired' };
  return { booking: await service.store.findById(check.id), expired: false };
}

export async function handleBooked(
  request: Request,
  open: OpenServices,
  now = Date.now(),
): Promise<BookedOutcome> {
  let found: Awaited<ReturnType<typeof addressed>> = { booking: undefined, expired: false };
  let unavailable = false;
  let mailed: boolean | undefined;
  let links: CallLinks | undefined;
  try {
    const service = await open();
    mailed = emailOn(service);
    found = await addressed(new URL(request.url), service, now);
    const call = found.booking?.call;
    // No e-mail will carry the links: this page, by its signed link, is where the prospect keeps them.
    if (call && !call.cancelledAt && !mailed && !found.byReference && service.bookingSecret)
      links = callLinks(found.booking!, service.bookingSecret);
  } catch (error) {
    reportStoreFailure(error);
    unavailable = true;
  }
  const booking = found.booking?.call ? found.booking : undefined;
  return {
    type: 'page',
    status: booking ? 200 : unavailable ? 503 : found.expired ? 410 : 404,
    headers: { 'Cache-Control': 'no-store' },
    booking,
    unavailable,
    expired: found.expired,
    byReference: Boolean(found.byReference),
    mailed,
    ...(links && { links }),
  };
}
