/**
 * What happens to a post of either form once the gate (src/server/requests/post-gate.ts: origin,
 * type, size, parsing, rate limit) has let it through, as named steps in order: guard, parse,
 * validate, throttle, verify, commit. The answer comes only after the store's commit; then the
 * queue of jobs is nudged. A form plugs in as a FormAdapter (./enquiry.ts, ./call-request.ts).
 */
import { randomUUID } from 'node:crypto';
import { first, type Fields } from '../requests/body.ts';
import { verifyCaptcha } from '../requests/captcha.ts';
import { caughtByHoneypot } from '../requests/client.ts';
import { throttledMessage, type PostVerdict } from '../requests/post-gate.ts';
import { refused, succeeded, type Outcome } from '../http/answer.ts';
import { bookedPagePath } from '../call-token.ts';
import {
  bookingCapMessage,
  CalendarsUnreadable,
  calendarsUnreadableMessage,
  slotTakenMessage,
} from '../booking/messages.ts';
import type { OpenServices, Services } from '../booking/services.ts';
import { endpoints } from '../../domain/api.ts';
import type { Slot } from '../../domain/booking.ts';
import { enquiryMessages } from '../../domain/enquiry-form.ts';
import {
  IDEMPOTENCY_FIELD,
  hasErrors,
  isIdempotencyKey,
  type EnquiryKind,
  type FieldErrors,
} from '../../domain/forms.ts';
import { reportStoreFailure } from '../log.ts';
import { BookingCapReached, SlotTaken, type StoredEnquiry } from '../store/types.ts';

/** A form's input, checked: the values to store, the values to show again, and the errors. */
export interface Checked<Field extends string> {
  name: string;
  email: string;
  data: Record<string, string | string[]>;
  errors: FieldErrors<Field>;
  /**
   * The time of a call being booked, its reminders (minutes before it), and how many calls waiting
   * for confirmation may be booked ahead (none: no such cap).
   */
  call?: Slot & { reminders?: readonly number[]; maxUnconfirmed?: number };
}

/** What makes one form of the site: how its fields are read and checked. */
export interface FormAdapter<Field extends string, Input> {
  kind: EnquiryKind;
  /** The form's input, read from the posted fields. */
  parse(fields: Fields): Input;
  /** Checks the input by the form's rules (and, for a booking, the service's). */
  validate(input: Input, service: Services): Checked<Field>;
  captchaField?: Field;
  /** For a booking whose time was just taken: the field to say so on, and the free times nearest. */
  taken?: { field: Field; alternatives(wanted: Slot, service: Services): Promise<Slot[]> };
  /**
   * For a booking: the hosts who can take its call now (free in their hours, calls and calendars),
   * in the order to give it; none: its time was just taken.
   */
  hosts?(call: Slot, service: Services): Promise<string[]>;
}

export const storeUnavailableMessage =
  'Enquiries cannot be taken right now, and nothing was sent. Please try again in a minute.';

/** The answer when the store cannot take an enquiry: never a success that was not stored. */
function storeUnavailable<Field extends string>(request: Request, error: unknown) {
  reportStoreFailure(error);
  return refused<Field>(
    request,
    503,
    { message: storeUnavailableMessage },
    { 'Retry-After': '30' },
  );
}

/**
 * Where a native post goes once stored: the booked call's page (a signed link: the id alone opens
 * it no more), or the thank-you page.
 */
const successPage = (stored: StoredEnquiry, secret: string | undefined) =>
  stored.call && secret
    ? bookedPagePath(stored.id, stored.call.sequence, stored.call.start, secret)
    : endpoints.thankYou;

const stored = <Field extends string>(request: Request, enquiry: StoredEnquiry, secret?: string) =>
  succeeded<Field>(request, { ok: true, id: enquiry.id, location: successPage(enquiry, secret) });

/** A post the gate let through, and the service to take it. */
interface Guarded {
  request: Request;
  post: Extract<PostVerdict, { ok: true }>;
  service: Services;
}

/** A post read as its form: its idempotency key, whether the honeypot caught it, its input. */
interface Parsed<Input> extends Guarded {
  key: string | undefined;
  spam: boolean;
  input: Input;
}

/** A post whose input passed the form's rules. */
interface Valid<Field extends string> extends Parsed<unknown> {
  checked: Checked<Field>;
  /** The form's values as shown again with a refusal (with the key its next post is to carry). */
  values: Record<string, string | string[]>;
}

const isOutcome = <Field extends string>(value: object): value is Outcome<Field> => 'type' in value;

/** The gate's refusal, or the service (a 503 when its store cannot be opened). */
async function guard<Field extends string>(
  request: Request,
  post: PostVerdict | undefined,
  open: OpenServices,
): Promise<Outcome<Field> | Guarded> {
  // Other methods never get here: the HTTP server answers them (src/server/http/routes.ts).
  if (!post) throw new Error('A post reached its route without the gate (src/middleware.ts).');
  if (!post.ok) return refused(request, post.status, { message: post.message });
  try {
    return { request, post, service: await open() };
  } catch (error) {
    return storeUnavailable(request, error);
  }
}

/** A submission's idempotency key, when it sent one of the form the site's forms make. */
function idempotencyKey(fields: Fields): string | undefined {
  const key = first(fields, IDEMPOTENCY_FIELD).trim();
  return isIdempotencyKey(key) ? key : undefined;
}

function parse<Field extends string, Input>(
  form: FormAdapter<Field, Input>,
  guarded: Guarded,
): Parsed<Input> {
  const { fields } = guarded.post;
  return {
    ...guarded,
    key: idempotencyKey(fields),
    spam: caughtByHoneypot(fields),
    input: form.parse(fields),
  };
}

function validate<Field extends string, Input>(
  form: FormAdapter<Field, Input>,
  parsed: Parsed<Input>,
): Outcome<Field> | Valid<Field> {
  const checked = form.validate(parsed.input, parsed.service);
  // A form shown again keeps its key: nothing was stored under it, and its next post is the same
  // submission. One posted without a key (no JavaScript: a static page cannot hold a fresh one) is
  // shown again with one made here, so that its next post and that post's retries count once.
  const values = { ...checked.data, [IDEMPOTENCY_FIELD]: parsed.key ?? randomUUID() };
  if (hasErrors(checked.errors))
    return refused(parsed.request, 422, { errors: checked.errors, values });
  return { ...parsed, checked, values };
}

/** Over the rate limit (the gate counted it): 429, unless it is a repeat of a stored post. */
function throttle<Field extends string>(valid: Valid<Field>): Outcome<Field> | undefined {
  if (!valid.post.throttled) return undefined;
  const { retryAfter } = valid.post.throttled;
  return refused(
    valid.request,
    429,
    { message: throttledMessage(retryAfter), values: valid.values },
    { 'Retry-After': String(retryAfter) },
  );
}

/** The captcha, where the site has one and the form asks for it (a honeypot catch skips it). */
async function verify<Field extends string>(
  form: FormAdapter<Field, unknown>,
  valid: Valid<Field>,
): Promise<Outcome<Field> | undefined> {
  const { recaptcha } = valid.service.config;
  if (!recaptcha.secret || !form.captchaField || valid.spam) return undefined;
  const token = first(valid.post.fields, 'g-recaptcha-response');
  const ok = await verifyCaptcha(token, valid.post.client, {
    secret: recaptcha.secret,
    verifyUrl: recaptcha.verifyUrl,
  });
  if (ok) return undefined;
  const errors = { [form.captchaField]: enquiryMessages.captcha } as FieldErrors<Field>;
  return refused(valid.request, 422, { errors, values: valid.values });
}

/** Stores the post (or finds it stored under its key), and answers only then. */
async function commit<Field extends string>(
  form: FormAdapter<Field, unknown>,
  valid: Valid<Field>,
): Promise<Outcome<Field>> {
  const { request, service, key, spam, values } = valid;
  const { name, email, data, call } = valid.checked;
  let enquiry: StoredEnquiry;
  try {
    // Spam is stored without its call: no host is looked for.
    const hosts = call && form.hosts && !spam ? await form.hosts(call, service) : undefined;
    if (hosts?.length === 0) throw new SlotTaken();
    enquiry = await service.bookings.commit(
      {
        kind: form.kind,
        name,
        email,
        data,
        clientIp: valid.post.client,
        userAgent: (request.headers.get('user-agent') ?? '').slice(0, 300),
        spam,
        ...(key && { idempotencyKey: key }),
        // Without e-mail no confirm link can reach the prospect: the call stands confirmed.
        ...(call && {
          call: { ...call, confirmed: service.jobs === undefined, ...(hosts && { hosts }) },
        }),
      },
      service.jobs !== undefined,
    );
  } catch (error) {
    const { taken } = form;
    if (error instanceof BookingCapReached && taken) {
      const errors = { [taken.field]: bookingCapMessage(error) } as FieldErrors<Field>;
      return once(valid, refused(request, 422, { errors, values: { ...values, slot: '' } }));
    }
    const unreadable = error instanceof CalendarsUnreadable;
    if (!(error instanceof SlotTaken || unreadable) || !call || !taken)
      return storeUnavailable(request, error);
    // No calendar to read: no time can be offered, so none is listed (and the one chosen is dropped).
    const alternatives = unreadable ? [] : await taken.alternatives(call, service);
    const message = unreadable ? calendarsUnreadableMessage : slotTakenMessage(alternatives);
    const errors = { [taken.field]: message } as FieldErrors<Field>;
    return once(
      valid,
      refused(request, 409, { message, errors, values: { ...values, slot: '' }, alternatives }),
    );
  }
  if (!spam) service.jobs?.kick();
  // After the answer's commit, and not in its way: the pace of bookings, counted in the store.
  if (enquiry.call && !spam) void service.bookingAlert?.check();
  return stored(request, enquiry, service.bookingSecret);
}

/**
 * A refusal, unless the post is a repeat of one stored (a retry, a double tap, a replay from the
 * device): that gets the first answer. A refusal is given only once the store has no enquiry of its
 * key (checks it passed then may fail now: a booked time may since have come inside the notice
 * period). New submissions, nearly all, cost no lookup.
 */
async function once<Field extends string>(
  parsed: Parsed<unknown>,
  refusal: Outcome<Field>,
): Promise<Outcome<Field>> {
  if (!parsed.key) return refusal;
  try {
    const earlier = await parsed.service.store.findByKey(parsed.key);
    return earlier ? stored(parsed.request, earlier, parsed.service.bookingSecret) : refusal;
  } catch (error) {
    return storeUnavailable(parsed.request, error);
  }
}

/** A post of one form through the steps, in order; the first that refuses it answers. */
export async function handle<Field extends string, Input>(
  form: FormAdapter<Field, Input>,
  request: Request,
  post: PostVerdict | undefined,
  open: OpenServices,
): Promise<Outcome<Field>> {
  const guarded = await guard<Field>(request, post, open);
  if (isOutcome(guarded)) return guarded;
  const parsed = parse(form, guarded);
  const valid = validate(form, parsed);
  if (isOutcome<Field>(valid)) return once(parsed, valid);
  const refusal = throttle(valid) ?? (await verify(form, valid));
  if (refusal) return once(parsed, refusal);
  return commit(form, valid);
}
