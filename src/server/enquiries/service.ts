/**
 * What happens to a post of either form, once the gate (./post-gate.ts: origin, type, size,
 * parsing, rate limit) has let it through: validation, honeypot, captcha, then the store commit,
 * and only then the answer; then the outbox is nudged.
 */
import { randomUUID } from 'node:crypto';
import { first, type Fields } from '../requests/body.ts';
import { verifyCaptcha } from '../requests/captcha.ts';
import { caughtByHoneypot, wantsJson } from '../requests/client.ts';
import { checkCancelToken } from '../booking/cancel-token.ts';
import { bookingOffReason, serverConfig, type ServerConfig } from '../config.ts';
import { Outbox } from '../mail/outbox.ts';
import { smtpSender } from '../mail/smtp.ts';
import type { MailContent } from '../mail/templates.ts';
import { postHeaders, throttledMessage, type PostVerdict } from '../requests/post-gate.ts';
import { freeSlots, nearest, offeredDates, offeredSlot, refusal } from '../booking/free-times.ts';
import { isTimeZone, type Availability, type Slot } from '../../domain/booking.ts';
import { openStore } from '../store/index.ts';
import { reportStoreFailure } from '../log.ts';
import { RateLimiter, type RateLimit } from '../requests/rate-limit.ts';
import {
  BookingCapReached,
  SlotTaken,
  type EnquiryKind,
  type EnquiryStore,
  type StoredEnquiry,
} from '../store/types.ts';
import {
  IDEMPOTENCY_FIELD,
  enquiryMessages,
  hasErrors,
  isIdempotencyKey,
  validateCallRequest,
  validateEnquiry,
  type BookingField,
  type EnquiryField,
  type FieldErrors,
} from '../../domain/forms.ts';

export interface EnquiryService {
  config: ServerConfig;
  store: EnquiryStore;
  limiter: RateLimit | undefined;
  outbox: Outbox | undefined;
  /**
   * The secret of the cancel links, when prospects can book a time: BOOKING_SECRET, or the one the
   * store keeps; undefined when a BOOKING_SECRET too short turned booking off.
   */
  bookingSecret: string | undefined;
}

let service: Promise<EnquiryService> | undefined;

let mailContent: (() => Promise<MailContent>) | undefined;

/**
 * Where the e-mails get what they say of the agency: the site's settings, which server/ does not
 * read itself. src/middleware.ts gives it (src/lib/content.ts's getMailContent) before any route
 * can start the service; the first one given is kept.
 */
export function provideMailContent(load: () => Promise<MailContent>) {
  mailContent ??= load;
}

/**
 * The one store, limiter and outbox of this process, created on first use. If the store cannot be
 * opened (a database that is down), the next call tries again.
 */
export function getEnquiryService(): Promise<EnquiryService> {
  service ??= startEnquiryService().catch((error: unknown) => {
    service = undefined;
    throw error;
  });
  return service;
}

async function startEnquiryService(): Promise<EnquiryService> {
  if (!mailContent) throw new Error('The e-mails have no content: see provideMailContent.');
  const content = await mailContent();
  const config = serverConfig();
  const store = await openStore(config, { bookingCap: config.bookingCap });
  const { max, windowMs } = config.rateLimit;
  const limiter = config.rateLimit.enabled
    ? (store.sharedRateLimit(max, windowMs) ?? new RateLimiter(max, windowMs))
    : undefined;
  const bookingOff = bookingOffReason(config.bookingSecret);
  const bookingSecret = bookingOff
    ? undefined
    : (config.bookingSecret ?? (await store.bookingSecret()));
  if (bookingOff) {
    console.warn(
      `Booking a time for a call is off: ${bookingOff}. Prospects can still ask for a call. Set BOOKING_SECRET to a random string of 32 characters or more (e.g. openssl rand -hex 32), or unset it to use the secret kept in the store.`,
    );
  }
  let outbox: Outbox | undefined;
  if (config.smtpUrl && config.mailTo && config.mailFrom) {
    const { smtpUrl, mailTo, mailFrom } = config;
    const sender = smtpSender(smtpUrl);
    outbox = new Outbox({
      store,
      sender,
      from: mailFrom,
      to: mailTo,
      pollMs: config.outboxPollMs,
      retryBaseMs: config.outboxRetryBaseMs,
      leaseMs: config.outboxLeaseMs,
      content,
      ...(bookingSecret && {
        booking: { secret: bookingSecret, siteUrl: config.siteUrl ?? import.meta.env.SITE },
      }),
      log: console.warn,
    });
    outbox.start();
    console.info(`Enquiries are stored in ${store.description} and mailed to ${mailTo}.`);
  } else {
    console.warn(
      `Enquiries are stored in ${store.description}; e-mail delivery is off (set SMTP_URL, ENQUIRY_TO and ENQUIRY_FROM to turn it on).`,
    );
  }
  return { config, store, limiter, outbox, bookingSecret };
}

export const storeUnavailableMessage =
  'Enquiries cannot be taken right now, and nothing was sent. Please try again in a minute.';

/** The answer when the store cannot take an enquiry: never a success that was not stored. */
function storeUnavailable<Field extends string>(request: Request, error: unknown) {
  reportStoreFailure(error);
  return answer<Field>(request, 503, { message: storeUnavailableMessage }, { 'Retry-After': '30' });
}

/** An answer for a native post that the page renders: the form again with its errors, or a message. */
export interface PageOutcome<Field extends string> {
  type: 'page';
  status: number;
  headers: Record<string, string>;
  values?: Record<string, string | string[]>;
  errors?: FieldErrors<Field>;
  message?: string;
  /** A booking whose time was just taken: the free times nearest to it. */
  alternatives?: Slot[];
}

export type Outcome<Field extends string> =
  { type: 'response'; response: Response } | PageOutcome<Field>;

function answer<Field extends string>(
  request: Request,
  status: number,
  body: {
    errors?: FieldErrors<Field>;
    message?: string;
    values?: Record<string, string | string[]>;
    alternatives?: Slot[];
  },
  extraHeaders: Record<string, string> = {},
): Outcome<Field> {
  const headers = postHeaders(extraHeaders);
  if (wantsJson(request)) {
    const json = {
      ...(body.errors ? { errors: body.errors } : { error: body.message ?? 'Request refused.' }),
      ...(body.alternatives && { alternatives: body.alternatives }),
    };
    return {
      type: 'response',
      response: new Response(JSON.stringify(json), {
        status,
        headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
      }),
    };
  }
  return { type: 'page', status, headers, ...body };
}

/** Where a native post goes once stored: the booked call's confirmation, or the thank-you page. */
const successPage = (stored: StoredEnquiry) =>
  stored.call ? `/schedule/booked?ref=${stored.id}` : '/thankyou';

function success<Field extends string>(request: Request, stored: StoredEnquiry): Outcome<Field> {
  const headers = postHeaders();
  const location = successPage(stored);
  const response = wantsJson(request)
    ? new Response(JSON.stringify({ ok: true, id: stored.id, location }), {
        status: 200,
        headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
      })
    : new Response(null, { status: 303, headers: { ...headers, Location: location } });
  return { type: 'response', response };
}

/** A submission's idempotency key, when it sent one of the form the site's forms make. */
function idempotencyKey(fields: Fields): string | undefined {
  const key = first(fields, IDEMPOTENCY_FIELD).trim();
  return isIdempotencyKey(key) ? key : undefined;
}

interface Submission<Field extends string> {
  kind: EnquiryKind;
  /** Validates the parsed fields: the values to store, the values to show again, and the errors. */
  validate(
    fields: Fields,
    service: EnquiryService,
  ): {
    name: string;
    email: string;
    data: Record<string, string | string[]>;
    errors: FieldErrors<Field>;
    /** The time of a call being booked. */
    call?: Slot;
  };
  captchaField?: Field;
  /** For a booking whose time was just taken: the field to say so on, and the free times nearest. */
  taken?: { field: Field; alternatives(wanted: Slot): Promise<Slot[]> };
}

async function handle<Field extends string>(
  submission: Submission<Field>,
  request: Request,
  post: PostVerdict | undefined,
): Promise<Outcome<Field>> {
  // Other methods never get here: the HTTP server answers them (./routes.ts).
  if (!post) throw new Error('A post reached its route without the gate (src/middleware.ts).');
  if (!post.ok) return answer(request, post.status, { message: post.message });
  let current: EnquiryService;
  try {
    current = await getEnquiryService();
  } catch (error) {
    return storeUnavailable(request, error);
  }
  const { config, store, outbox } = current;
  const { fields, client } = post;

  const key = idempotencyKey(fields);
  const { name, email, data, errors, call } = submission.validate(fields, current);
  // A form shown again keeps its key: nothing was stored under it, and its next post is the same
  // submission. One posted without a key (no JavaScript: a static page cannot hold a fresh one) is
  // shown again with one made here, so that its next post and that post's retries count once.
  const values = { ...data, [IDEMPOTENCY_FIELD]: key ?? randomUUID() };
  // The same submission again (a retry, a double tap, a replay from the device) gets the first
  // answer: the commit returns the enquiry stored first, and a refusal is given only once the store
  // has no enquiry of its key (checks it passed then may fail now: a booked time may since have
  // come inside the notice period). New submissions, nearly all, cost no lookup.
  const refuse = async (refusal: Outcome<Field>): Promise<Outcome<Field>> => {
    if (!key) return refusal;
    try {
      const earlier = await store.findByKey(key);
      return earlier ? success(request, earlier) : refusal;
    } catch (error) {
      return storeUnavailable(request, error);
    }
  };
  if (hasErrors(errors)) return refuse(answer(request, 422, { errors, values }));

  const spam = caughtByHoneypot(fields);
  if (post.throttled) {
    const { retryAfter } = post.throttled;
    return refuse(
      answer(
        request,
        429,
        { message: throttledMessage(retryAfter), values },
        { 'Retry-After': String(retryAfter) },
      ),
    );
  }
  if (config.recaptcha.secret && submission.captchaField && !spam) {
    const token = first(fields, 'g-recaptcha-response');
    const valid = await verifyCaptcha(token, client, {
      secret: config.recaptcha.secret,
      verifyUrl: config.recaptcha.verifyUrl,
    });
    if (!valid) {
      const captchaErrors = {
        [submission.captchaField]: enquiryMessages.captcha,
      } as FieldErrors<Field>;
      return refuse(answer(request, 422, { errors: captchaErrors, values }));
    }
  }

  let stored: StoredEnquiry;
  try {
    stored = await store.commit(
      {
        kind: submission.kind,
        name,
        email,
        data,
        clientIp: client,
        userAgent: (request.headers.get('user-agent') ?? '').slice(0, 300),
        spam,
        ...(key && { idempotencyKey: key }),
        ...(call && { call }),
      },
      outbox !== undefined,
    );
  } catch (error) {
    if (error instanceof BookingCapReached && submission.taken) {
      const message = bookingCapMessage(error);
      return refuse(
        answer(request, 422, {
          errors: { [submission.taken.field]: message } as FieldErrors<Field>,
          values: { ...values, slot: '' },
        }),
      );
    }
    if (!(error instanceof SlotTaken) || !call || !submission.taken) {
      return storeUnavailable(request, error);
    }
    const alternatives = await submission.taken.alternatives(call);
    const message = alternatives.length
      ? 'That time was just taken. Here are the nearest free ones.'
      : 'That time was just taken, and no other time is free in the coming days. Send your message without a time and we will reply to arrange one.';
    return refuse(
      answer(request, 409, {
        message,
        errors: { [submission.taken.field]: message } as FieldErrors<Field>,
        values: { ...values, slot: '' },
        alternatives,
      }),
    );
  }
  if (!spam) outbox?.kick();
  return success(request, stored);
}

/** Service options are passed in: they are content (src/content/data/enquiry-services.yaml). */
export function handleEnquiry(
  request: Request,
  post: PostVerdict | undefined,
  serviceOptions: readonly string[],
) {
  return handle<EnquiryField>(
    {
      kind: 'enquiry',
      captchaField: 'captcha',
      validate(fields) {
        const { enquiry, errors } = validateEnquiry(
          {
            first_name: first(fields, 'first_name'),
            last_name: first(fields, 'last_name'),
            email: first(fields, 'email'),
            contact: first(fields, 'contact'),
            service: fields.get('service') ?? [],
            project: first(fields, 'project'),
          },
          serviceOptions,
        );
        return {
          name: `${enquiry.first_name} ${enquiry.last_name}`,
          email: enquiry.email,
          data: { ...enquiry },
          errors,
        };
      },
    },
    request,
    post,
  );
}

/** The free times of the offered days between two agency dates, as the store has them now. */
export async function currentFreeSlots(
  availability: Availability,
  range: { from?: string; to?: string } = {},
  now = Date.now(),
): Promise<Slot[]> {
  const { store } = await getEnquiryService();
  const dates = offeredDates(availability, now);
  // A day either side: the store compares instants, and the dates are the agency's.
  const from = new Date(Date.parse(dates[0]!) - 86_400_000).toISOString();
  const to = new Date(Date.parse(dates.at(-1)!) + 2 * 86_400_000).toISOString();
  return freeSlots(availability, await store.bookedBetween(from, to), now, range);
}

/** Whether prospects can book a time: no BOOKING_SECRET too short (known without opening the store). */
export const bookingIsOpen = () => bookingOffReason(serverConfig().bookingSecret) === undefined;

/** Why a booking beyond the cap (BOOKING_CAP) was refused, and what the visitor can do instead. */
const bookingCapMessage = ({ limit, cap }: BookingCapReached) =>
  `${limit === 'email' ? 'This e-mail address has' : 'There are'} ${cap} call${cap === 1 ? '' : 's'} booked with us already${limit === 'email' ? '' : ' from your connection'}. To change a time, cancel one with the link in its e-mail; or send your message without a time and we will reply to arrange one.`;

export const bookingClosedMessage =
  'Booking a time is not available right now. Send your message without a time and we will reply to arrange one.';

/**
 * A call request (the Schedule a Call dialog, /schedule): name, e-mail and message, and optionally
 * a time (`slot`, a start from the free slots) that books the call.
 */
export function handleCallRequest(
  request: Request,
  post: PostVerdict | undefined,
  availability: Availability,
  { requireTime = false } = {},
) {
  return handle<BookingField>(
    {
      kind: 'call',
      captchaField: 'captcha',
      validate(fields, { bookingSecret }) {
        const input = {
          // The old site's modal named the field Fname; both are accepted.
          name: first(fields, 'name') || first(fields, 'Fname'),
          email: first(fields, 'email'),
          message: first(fields, 'message'),
        };
        const errors: FieldErrors<BookingField> = validateCallRequest(input);
        const data: Record<string, string> = {
          name: input.name.trim(),
          email: input.email.trim(),
          message: input.message.trim(),
        };
        const result = (call?: Slot) => ({
          name: data.name,
          email: data.email,
          data,
          errors,
          ...(call && { call }),
        });
        const wanted = first(fields, 'slot').trim();
        if (!wanted) {
          // /schedule is for booking: a visitor who chose no time is told, not sent a message.
          if (requireTime) errors.slot = 'Choose a time for the call.';
          return result();
        }
        const zone = first(fields, 'time_zone').trim();
        data.slot = wanted;
        data.time_zone = isTimeZone(zone) ? zone : availability.timeZone;
        if (!bookingSecret) {
          errors.slot = bookingClosedMessage;
          return result();
        }
        const refused = refusal(availability, wanted, Date.now());
        const call = refused ? undefined : offeredSlot(availability, wanted);
        if (!call) {
          errors.slot = refused ?? 'Choose one of the times offered.';
          return result();
        }
        // What the e-mails need, as it was when the call was booked.
        data.agency_time_zone = availability.timeZone;
        data.call_title = availability.callTitle;
        return result(call);
      },
      taken: {
        field: 'slot',
        alternatives: async (wanted) => nearest(await currentFreeSlots(availability), wanted.start),
      },
    },
    request,
    post,
  );
}

export type CancelOutcome =
  | { status: 'invalid' | 'expired' | 'unavailable' | 'unknown' }
  | { status: 'confirm' | 'cancelled' | 'already'; enquiry: StoredEnquiry };

/**
 * The cancel link of a booked call: a GET shows the call and asks to confirm (mail scanners open
 * links), a POST cancels it. A forged, expired or reused token never reaches another booking.
 */
export async function handleCancel(token: string, confirm: boolean): Promise<CancelOutcome> {
  const current = await getEnquiryService().catch(reportStoreFailure);
  if (!current?.bookingSecret) return { status: 'unavailable' };
  const { bookingSecret, store, outbox } = current;
  const check = checkCancelToken(token, bookingSecret);
  if (!check.ok) return { status: check.reason };
  if (!confirm) {
    const enquiry = await store.findById(check.id);
    if (!enquiry?.call) return { status: 'unknown' };
    return { status: enquiry.call.cancelledAt ? 'already' : 'confirm', enquiry };
  }
  const result = await store.cancelCall(check.id, outbox !== undefined);
  if (result.status === 'cancelled') outbox?.kick();
  return result;
}
