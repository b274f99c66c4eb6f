/**
 * What happens to a post of either form: checks in order of cost (method,
 * origin, type, size, parsing, validation, honeypot, rate limit, captcha),
 * then the store commit, and only then the answer; then the outbox is nudged.
 */
import { randomUUID } from 'node:crypto';
import { first, readForm, type Fields } from './body.ts';
import { verifyCaptcha } from './captcha.ts';
import { caughtByHoneypot, clientAddress, isCrossSite, wantsJson } from './client.ts';
import { readConfig, type ServerConfig } from './config.ts';
import { Outbox, smtpSender } from './mail.ts';
import { RateLimiter } from './rate-limit.ts';
import { EnquiryStore, type EnquiryKind } from './store.ts';
import {
  IDEMPOTENCY_FIELD,
  enquiryMessages,
  hasErrors,
  isIdempotencyKey,
  validateCallRequest,
  validateEnquiry,
  type CallRequestField,
  type EnquiryField,
  type FieldErrors,
} from './validation.ts';

export interface EnquiryService {
  config: ServerConfig;
  store: EnquiryStore;
  limiter: RateLimiter | undefined;
  outbox: Outbox | undefined;
}

let service: EnquiryService | undefined;

/** The one store, limiter and outbox of this process, created on first use. */
export function getEnquiryService(): EnquiryService {
  if (service) return service;
  const config = readConfig();
  const store = new EnquiryStore(config.databasePath);
  const limiter = config.rateLimit.enabled
    ? new RateLimiter(config.rateLimit.max, config.rateLimit.windowMs)
    : undefined;
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
      log: console.warn,
    });
    outbox.start();
    console.info(`Enquiries are stored in ${config.databasePath} and mailed to ${mailTo}.`);
  } else {
    console.warn(
      `Enquiries are stored in ${config.databasePath}; e-mail delivery is off (set SMTP_URL, ENQUIRY_TO and ENQUIRY_FROM to turn it on).`,
    );
  }
  service = { config, store, limiter, outbox };
  return service;
}

/** Stops the outbox and closes the store, for a clean shutdown. */
export async function closeEnquiryService() {
  if (!service) return;
  const current = service;
  service = undefined;
  await current.outbox?.stop();
  current.store.close();
}

/** An answer for a native post that the page renders: the form again with its errors, or a message. */
export interface PageOutcome<Field extends string> {
  type: 'page';
  status: number;
  headers: Record<string, string>;
  values?: Record<string, string | string[]>;
  errors?: FieldErrors<Field>;
  message?: string;
}

export type Outcome<Field extends string> =
  { type: 'response'; response: Response } | PageOutcome<Field>;

const VARY = 'Origin, Sec-Fetch-Site, Accept';
const UNREAD_BODY = new Set([403, 413, 415, 503]);

function answer<Field extends string>(
  request: Request,
  status: number,
  body: {
    errors?: FieldErrors<Field>;
    message?: string;
    values?: Record<string, string | string[]>;
  },
  extraHeaders: Record<string, string> = {},
): Outcome<Field> {
  const headers: Record<string, string> = {
    Vary: VARY,
    'Cache-Control': 'no-store',
    ...extraHeaders,
  };
  // Refused before its body was read: the connection cannot carry another request after it.
  if (UNREAD_BODY.has(status)) headers.Connection = 'close';
  if (wantsJson(request)) {
    const json = body.errors
      ? { errors: body.errors }
      : { error: body.message ?? 'Request refused.' };
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

function success<Field extends string>(request: Request, id: string): Outcome<Field> {
  const headers = { Vary: VARY, 'Cache-Control': 'no-store' };
  const response = wantsJson(request)
    ? new Response(JSON.stringify({ ok: true, id }), {
        status: 200,
        headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
      })
    : new Response(null, { status: 303, headers: { ...headers, Location: '/thankyou' } });
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
  validate(fields: Fields): {
    name: string;
    email: string;
    data: Record<string, string | string[]>;
    errors: FieldErrors<Field>;
  };
  captchaField?: Field;
}

async function handle<Field extends string>(
  submission: Submission<Field>,
  request: Request,
  socketAddress: string,
): Promise<Outcome<Field>> {
  if (request.method !== 'POST') {
    return {
      type: 'response',
      response: new Response('Use POST to send this form.', {
        status: 405,
        headers: {
          Allow: 'POST',
          Vary: VARY,
          'Content-Type': 'text/plain; charset=utf-8',
          Connection: 'close',
        },
      }),
    };
  }
  let current: EnquiryService;
  try {
    current = getEnquiryService();
  } catch (error) {
    console.error('The enquiry store cannot be opened:', error);
    return answer(
      request,
      503,
      { message: 'Enquiries cannot be taken right now. Please try again shortly.' },
      { 'Retry-After': '30' },
    );
  }
  const { config, store, limiter, outbox } = current;
  if (isCrossSite(request, config.allowedOrigins)) {
    return answer(request, 403, { message: 'This form only accepts posts from this website.' });
  }
  const body = await readForm(request, config.bodyLimit);
  if (!body.ok) return answer(request, body.status, { message: body.message });

  const key = idempotencyKey(body.fields);
  const { name, email, data, errors } = submission.validate(body.fields);
  // A form shown again keeps its key: nothing was stored under it, and its next post is the same
  // submission. One posted without a key (no JavaScript: a static page cannot hold a fresh one) is
  // shown again with one made here, so that its next post and that post's retries count once.
  const values = { ...data, [IDEMPOTENCY_FIELD]: key ?? randomUUID() };
  if (hasErrors(errors)) return answer(request, 422, { errors, values });

  // The same submission again (a retry, a double tap, a replay from the device): the first answer,
  // before the rate limit and the captcha, which it has passed already.
  const earlier = key ? store.findByKey(key) : undefined;
  if (earlier) return success(request, earlier.id);

  const client = clientAddress(
    socketAddress,
    request.headers.get('x-forwarded-for'),
    config.trustedProxies,
  );
  const spam = caughtByHoneypot(body.fields);
  if (limiter) {
    const verdict = limiter.hit(client);
    if (!verdict.allowed) {
      const minutes = Math.ceil(verdict.retryAfter / 60);
      return answer(
        request,
        429,
        {
          message: `You have sent several messages in a short time. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          values,
        },
        { 'Retry-After': String(verdict.retryAfter) },
      );
    }
  }
  if (config.recaptcha.secret && submission.captchaField && !spam) {
    const token = first(body.fields, 'g-recaptcha-response');
    const valid = await verifyCaptcha(token, client, {
      secret: config.recaptcha.secret,
      verifyUrl: config.recaptcha.verifyUrl,
    });
    if (!valid) {
      const captchaErrors = {
        [submission.captchaField]: enquiryMessages.captcha,
      } as FieldErrors<Field>;
      return answer(request, 422, { errors: captchaErrors, values });
    }
  }

  const stored = await store.commit(
    {
      kind: submission.kind,
      name,
      email,
      data,
      clientIp: client,
      userAgent: (request.headers.get('user-agent') ?? '').slice(0, 300),
      spam,
      ...(key && { idempotencyKey: key }),
    },
    outbox !== undefined,
  );
  if (!spam) outbox?.kick();
  return success(request, stored.id);
}

/** Service options are passed in: they are content (src/content/data/enquiry-services.yaml). */
export function handleEnquiry(
  request: Request,
  socketAddress: string,
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
    socketAddress,
  );
}

export function handleCallRequest(request: Request, socketAddress: string) {
  return handle<CallRequestField>(
    {
      kind: 'call',
      validate(fields) {
        const input = {
          // The old site's modal named the field Fname; both are accepted.
          name: first(fields, 'name') || first(fields, 'Fname'),
          email: first(fields, 'email'),
          message: first(fields, 'message'),
        };
        const errors = validateCallRequest(input);
        const data = {
          name: input.name.trim(),
          email: input.email.trim(),
          message: input.message.trim(),
        };
        return { name: data.name, email: data.email, data, errors };
      },
    },
    request,
    socketAddress,
  );
}
