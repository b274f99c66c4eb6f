/**
 * Delivery: each stored enquiry becomes a plain-text e-mail to the agency (and
 * a booked call also one to the prospect, with a calendar invitation), sent
 * from the outbox table, retried with backoff while the SMTP server is down,
 * and marked sent once it has been accepted, so a restart resends only what
 * was never accepted.
 */
import { createEvent } from 'ics';
import { createTransport } from 'nodemailer';
import { signCancelToken } from './cancel-token.ts';
import { callZones, formatCallTime } from '../lib/call-times.ts';
import {
  reportStoreFailure,
  type EnquiryStore,
  type MailKind,
  type OutboxItem,
  type StoredEnquiry,
} from './store.ts';

export interface Mail {
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  messageId: string;
  /** A calendar invitation (or its cancellation), sent as text/calendar with the message. */
  icalEvent?: { method: 'REQUEST' | 'CANCEL'; filename: string; content: string };
}

export interface MailSender {
  send(mail: Mail): Promise<void>;
}

/** Removes line breaks and other control characters, so that no field can start a new header line. */
export const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

const field = (label: string, value: string | string[] | undefined) => {
  const text = Array.isArray(value) ? value.join(', ') : (value ?? '');
  return `${label}: ${text || '(not given)'}`;
};

export function formatEnquiryMail(enquiry: StoredEnquiry, from: string, to: string): Mail {
  const { data } = enquiry;
  const isCall = enquiry.kind === 'call';
  const subject = isCall
    ? `Call request from ${oneLine(enquiry.name)}`
    : `Enquiry from ${oneLine(enquiry.name)}: ${oneLine(([] as string[]).concat(data.service ?? []).join(', '))}`;
  const lines = isCall
    ? [
        'A visitor asked for a call through the website.',
        '',
        field('Name', data.name),
        field('Email', data.email),
        '',
        'Message:',
        String(data.message ?? ''),
      ]
    : [
        'A new enquiry arrived through the website.',
        '',
        field('First name', data.first_name),
        field('Last name', data.last_name),
        field('Email', data.email),
        field('Phone', data.contact),
        field('Services', data.service),
        '',
        'About the project:',
        String(data.project || '(not given)'),
      ];
  lines.push('', '--', `Reference: ${enquiry.id}`, `Received: ${enquiry.createdAt}`);
  return {
    from,
    to,
    replyTo: oneLine(enquiry.email),
    subject: subject.slice(0, 200),
    text: lines.join('\n'),
    messageId: `<${enquiry.id}@enquiries.invalid>`,
  };
}

/** What the mails of a booked call need besides the booking. */
export interface BookingMailOptions {
  /** The site's public address, for the cancel link: SITE_URL, or the site of astro.config.mjs. */
  siteUrl: string;
  secret: string;
}

const text = (value: string | string[] | undefined) => String(value ?? '');

/** The .ics of a booked call (METHOD:REQUEST), or of its cancellation (METHOD:CANCEL). */
export function callInvitation(
  enquiry: StoredEnquiry,
  organizer: string,
  cancelled: boolean,
): NonNullable<Mail['icalEvent']> {
  const call = enquiry.call!;
  const method = cancelled ? 'CANCEL' : 'REQUEST';
  const { error, value } = createEvent({
    productId: 'northgate-digital/site',
    method,
    // The same UID and a higher SEQUENCE: calendars replace the invitation with its cancellation.
    uid: `${enquiry.id}@calls.northgate-digital.example`,
    sequence: cancelled ? 1 : 0,
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    start: Date.parse(call.start),
    startInputType: 'utc',
    startOutputType: 'utc',
    end: Date.parse(call.end),
    endInputType: 'utc',
    endOutputType: 'utc',
    title: oneLine(text(enquiry.data.call_title) || 'Call'),
    description: text(enquiry.data.message),
    organizer: { name: 'Northgate Digital', email: organizer },
    attendees: [{ name: oneLine(enquiry.name), email: oneLine(enquiry.email), rsvp: false }],
  });
  if (error || !value) throw error ?? new Error('The invitation could not be made.');
  return { method, filename: cancelled ? 'cancel.ics' : 'invite.ics', content: value };
}

/** The call's time for the prospect (in their zone) and for the agency (in its own). */
function callTimes(enquiry: StoredEnquiry) {
  const start = enquiry.call!.start;
  const { agency, visitor } = callZones(enquiry.data);
  return {
    visitor: `${formatCallTime(start, visitor)} (${visitor})`,
    agency: `${formatCallTime(start, agency)} (${agency})`,
    same: visitor === agency,
  };
}

/** The e-mail of an outbox entry: the agency's notice, or a booked call's confirmation or cancellation. */
export function formatMail(
  item: Pick<OutboxItem, 'mail' | 'enquiry'>,
  from: string,
  to: string,
  booking?: BookingMailOptions,
): Mail {
  const { mail, enquiry } = item;
  if (!enquiry.call) return formatEnquiryMail(enquiry, from, to);
  const times = callTimes(enquiry);
  const name = oneLine(enquiry.name);
  const minutes = Math.round(
    (Date.parse(enquiry.call.end) - Date.parse(enquiry.call.start)) / 60_000,
  );
  const reference = ['', '--', `Reference: ${enquiry.id}`];
  const messageId = `<${enquiry.id}.${mail}@enquiries.invalid>`;
  const forAgency = mail === 'agency' || mail === 'agency-cancel';
  const cancelled = mail === 'agency-cancel' || mail === 'prospect-cancel';
  const base = {
    from,
    to: forAgency ? to : oneLine(enquiry.email),
    replyTo: forAgency ? oneLine(enquiry.email) : to,
    messageId,
    icalEvent: callInvitation(enquiry, to, cancelled),
  };
  const lines: string[] = [];
  let subject: string;
  if (mail === 'agency') {
    subject = `Call booked: ${name}, ${times.agency}`;
    lines.push(
      'A visitor booked a call through the website.',
      '',
      `When: ${times.agency}`,
      ...(times.same ? [] : [`Their time: ${times.visitor}`]),
      `Length: ${minutes} minutes`,
      field('Name', enquiry.data.name),
      field('Email', enquiry.data.email),
      '',
      'Message:',
      text(enquiry.data.message),
    );
  } else if (mail === 'agency-cancel') {
    subject = `Call cancelled: ${name}, ${times.agency}`;
    lines.push(
      `${name} cancelled their call of ${times.agency}. The time is free again.`,
      field('Email', enquiry.data.email),
    );
  } else if (mail === 'prospect') {
    if (!booking) throw new Error('Booking mails need BOOKING_SECRET and a site address.');
    const token = signCancelToken(enquiry.id, Date.parse(enquiry.call.start), booking.secret);
    const cancelUrl = new URL(`/schedule/cancel?token=${token}`, booking.siteUrl).href;
    subject = `Your call with Northgate Digital: ${times.visitor}`;
    lines.push(
      `Hello ${name},`,
      '',
      'Thank you for booking a call with us. It is in our calendar:',
      '',
      `When: ${times.visitor}`,
      ...(times.same ? [] : [`(Our time: ${times.agency})`]),
      `Length: ${minutes} minutes`,
      '',
      'The invitation is attached: open it to add the call to your calendar. We will reply to this',
      'e-mail with how to join (a phone number or a video link) before the call.',
      '',
      'Cannot make it? Cancel the call here, and book another time whenever suits you:',
      cancelUrl,
      '',
      'What you wrote:',
      text(enquiry.data.message),
    );
  } else {
    subject = `Cancelled: your call with Northgate Digital, ${times.visitor}`;
    lines.push(
      `Hello ${name},`,
      '',
      `Your call of ${times.visitor} is cancelled, as you asked. The attached update removes it from`,
      'your calendar. You are welcome to book another time on our website whenever suits you.',
    );
  }
  lines.push(...reference);
  return { ...base, subject: subject.slice(0, 200), text: lines.join('\n') };
}

/**
 * Entries claimed at a time, sent together over the SMTP connections of smtpSender's pool. A claim
 * holds for OUTBOX_LEASE_MS (5 minutes by default): longer than sending a batch can take (the SMTP
 * timeouts in smtpSender bound each message), short enough that mail a process had claimed when it
 * died is taken over by another within minutes.
 */
const CLAIM_BATCH = 10;

/** How long to wait before attempt n + 1: `baseMs` doubling to at most 15 minutes, with ±20% jitter. */
export function backoffMs(attempts: number, baseMs = 5_000, random = Math.random): number {
  const delay = Math.min(baseMs * 2 ** attempts, 15 * 60_000);
  return Math.round(delay * (0.8 + 0.4 * random()));
}

export interface OutboxOptions {
  store: EnquiryStore;
  sender: MailSender;
  from: string;
  to: string;
  pollMs: number;
  retryBaseMs?: number;
  /** How long a claim on outbox entries holds (see CLAIM_BATCH). */
  leaseMs?: number;
  /** Without it, booked calls' own mails (to the prospect) cannot be made: booking is off then. */
  booking?: BookingMailOptions;
  log?: (message: string) => void;
}

/** The worker that drains the outbox. One per process; it never sends the same enquiry twice at once. */
export class Outbox {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  readonly #options: OutboxOptions;

  constructor(options: OutboxOptions) {
    this.#options = options;
  }

  start() {
    this.#stopped = false;
    this.kick();
  }

  /** Looks at the outbox now (after a new enquiry), instead of at the next poll. */
  kick() {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.drain(), 0);
    this.#timer.unref?.();
  }

  /** Sends everything due; resolves when this round is done. */
  drain(): Promise<void> {
    this.#running ??= this.#round().finally(() => {
      this.#running = undefined;
      if (!this.#stopped) {
        this.#timer = setTimeout(() => void this.drain(), this.#options.pollMs);
        this.#timer.unref?.();
      }
    });
    return this.#running;
  }

  async #round() {
    const { store, log } = this.#options;
    try {
      for (;;) {
        const due = await store.claimDue(
          Date.now(),
          CLAIM_BATCH,
          this.#options.leaseMs ?? 5 * 60_000,
        );
        if (due.length === 0) return;
        if (!(await this.#send(due))) return;
      }
    } catch (error) {
      // The store is unreachable: the next poll tries again.
      reportStoreFailure(error);
    }
  }

  /** Sends claimed entries together; false once the SMTP server fails one (the rest are tried). */
  async #send(due: OutboxItem[]) {
    const { store, sender, from, to, log } = this.#options;
    const results = await Promise.all(
      due.map(async (item) => {
        const { id, enquiry, attempts, mail } = item;
        try {
          await sender.send(formatMail(item, from, to, this.#options.booking));
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await store.markFailed(
            id,
            Date.now() + backoffMs(attempts, this.#options.retryBaseMs),
            message,
          );
          log?.(
            `${describe(mail)} of enquiry ${enquiry.id} not mailed yet (attempt ${attempts + 1}): ${message}`,
          );
          return false;
        }
        await store.markSent(id);
        return true;
      }),
    );
    // The server is likely down: leave the rest for the next round.
    return results.every(Boolean);
  }

  async stop() {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }
}

const describe = (mail: MailKind) =>
  ({
    agency: 'The e-mail to the agency',
    prospect: 'The confirmation to the prospect',
    'agency-cancel': 'The cancellation to the agency',
    'prospect-cancel': 'The cancellation to the prospect',
  })[mail];

/** Sends through nodemailer's SMTP transport; `url` is SMTP_URL, e.g. smtp://user:pass@mail.example.com:587. */
export function smtpSender(url: string): MailSender {
  // Bounded, so that a batch is sent (or given up) well within its claim on the outbox; a few
  // connections kept open, over which a batch's messages go together.
  const transport = createTransport({
    url,
    pool: true,
    maxConnections: 4,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      await transport.sendMail({
        from: mail.from,
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        ...(mail.icalEvent && { icalEvent: mail.icalEvent }),
        // Plain text only: no HTML alternative that could render visitor input.
        disableUrlAccess: true,
        disableFileAccess: true,
      });
    },
  };
}
