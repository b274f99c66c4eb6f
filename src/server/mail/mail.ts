/**
 * Delivery: each stored enquiry becomes a plain-text e-mail to the agency (and
 * a booked call also one to the prospect, with a calendar invitation), sent
 * from the outbox table, retried with backoff while the SMTP server is down,
 * and marked sent once it has been accepted, so a restart resends only what
 * was never accepted.
 */
import { createTransport } from 'nodemailer';
import { calendarEvent } from './invitation.ts';
import { signCancelToken } from '../booking/cancel-token.ts';
import { bodyText, headerText } from '../safe-text.ts';
import { asciiEmail } from '../../domain/forms.ts';
import { callZones, formatCallTime } from '../../domain/call-times.ts';
import {
  reportStoreFailure,
  type EnquiryStore,
  type MailKind,
  type OutboxItem,
  type StoredEnquiry,
} from '../store/index.ts';

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

/** One line, so that no field can start a new header line: ./safe-text.ts's headerText. */
export const oneLine = (value: string) => headerText(value);

/** A subject: one line of at most 200 characters. */
const subjectLine = (value: string) => headerText(value, 200);

/** A body line `Label: value`, the value on one line, so that it cannot pass for another field. */
const field = (label: string, value: string | string[] | undefined) => {
  const text = headerText(Array.isArray(value) ? value.join(', ') : (value ?? ''));
  return `${label}: ${text || '(not given)'}`;
};

/** A visitor's free text (a message), its line breaks kept, for a body. */
const paragraph = (value: string | string[] | undefined, empty = '') =>
  bodyText(String(value ?? '')) || empty;

/**
 * An address a visitor gave that the mail path cannot send to (stored under an older, looser rule):
 * no retry can mend it. The message leaves the address out: it is visitor-written, and logged.
 */
export class UnmailableAddress extends Error {
  constructor() {
    super('the address cannot be mailed (it is not a valid e-mail address)');
    this.name = 'UnmailableAddress';
  }
}

/** A visitor's address as mail is sent to it: domain in ASCII (see asciiEmail). */
function mailableAddress(address: string): string {
  const ascii = asciiEmail(address.trim());
  if (!ascii) throw new UnmailableAddress();
  return ascii;
}

export function formatEnquiryMail(enquiry: StoredEnquiry, from: string, to: string): Mail {
  const { data } = enquiry;
  const isCall = enquiry.kind === 'call';
  const subject = isCall
    ? `Call request from ${enquiry.name}`
    : `Enquiry from ${enquiry.name}: ${([] as string[]).concat(data.service ?? []).join(', ')}`;
  const lines = isCall
    ? [
        'A visitor asked for a call through the website.',
        '',
        field('Name', data.name),
        field('Email', data.email),
        '',
        'Message:',
        paragraph(data.message),
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
        paragraph(data.project, '(not given)'),
      ];
  lines.push('', '--', `Reference: ${enquiry.id}`, `Received: ${enquiry.createdAt}`);
  return {
    from,
    to,
    // The agency's notice goes out even for an address that cannot be mailed: without a Reply-To.
    replyTo: asciiEmail(enquiry.email.trim()) ?? '',
    subject: subjectLine(subject),
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

/**
 * The .ics of a booked call (METHOD:REQUEST), or of its cancellation (METHOD:CANCEL), for the mail
 * it goes with. Only the agency's carries the visitor's message (DESCRIPTION): the prospect's
 * carries nothing they typed but their name, so that the booking form cannot send anyone text.
 */
export function callInvitation(
  enquiry: StoredEnquiry,
  organizer: string,
  mail: MailKind,
): NonNullable<Mail['icalEvent']> {
  const call = enquiry.call!;
  const cancelled = mail === 'agency-cancel' || mail === 'prospect-cancel';
  const forAgency = mail === 'agency' || mail === 'agency-cancel';
  const method = cancelled ? 'CANCEL' : 'REQUEST';
  const attendee = forAgency
    ? (asciiEmail(enquiry.email.trim()) ?? enquiry.email)
    : mailableAddress(enquiry.email);
  const content = calendarEvent({
    method,
    // The same UID and a higher SEQUENCE: calendars replace the invitation with its cancellation.
    uid: `${enquiry.id}@calls.northgate-digital.example`,
    sequence: cancelled ? 1 : 0,
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    start: call.start,
    end: call.end,
    summary: headerText(String(enquiry.data.call_title ?? '')) || 'Call',
    ...(forAgency && { description: String(enquiry.data.message ?? '') }),
    organizer: { name: 'Northgate Digital', email: asciiEmail(organizer) ?? organizer },
    attendee: { name: enquiry.name, email: attendee },
  });
  return { method, filename: cancelled ? 'cancel.ics' : 'invite.ics', content };
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
  const name = headerText(enquiry.name);
  const minutes = Math.round(
    (Date.parse(enquiry.call.end) - Date.parse(enquiry.call.start)) / 60_000,
  );
  const reference = ['', '--', `Reference: ${enquiry.id}`];
  const messageId = `<${enquiry.id}.${mail}@enquiries.invalid>`;
  const forAgency = mail === 'agency' || mail === 'agency-cancel';
  const base = {
    from,
    to: forAgency ? to : mailableAddress(enquiry.email),
    replyTo: forAgency ? (asciiEmail(enquiry.email.trim()) ?? '') : to,
    messageId,
    icalEvent: callInvitation(enquiry, to, mail),
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
      paragraph(enquiry.data.message),
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
  return { ...base, subject: subjectLine(subject), text: lines.join('\n') };
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
    const { store } = this.#options;
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

  /**
   * Sends claimed entries together; false once the SMTP server fails one for now (the rest are
   * tried). One that can never be sent (refused for good, or not even made) is marked so, not
   * retried.
   */
  async #send(due: OutboxItem[]) {
    const { store, sender, from, to, log } = this.#options;
    const results = await Promise.all(
      due.map(async (item) => {
        const { id, enquiry, attempts, mail } = item;
        const giveUp = async (reason: string) => {
          await store.markUndeliverable(id, reason);
          log?.(
            `${describe(mail)} of enquiry ${enquiry.id} failed for good: ${reason}; it will not be retried`,
          );
          // The SMTP server is up (or was never asked): the rest of the batch goes on.
          return true;
        };
        // Made first, apart from the sending: a mail that cannot be made now never can be.
        let message: Mail;
        try {
          message = formatMail(item, from, to, this.#options.booking);
        } catch (error) {
          return giveUp(`the e-mail could not be made: ${failureReason(error)}`);
        }
        try {
          await sender.send(message);
        } catch (error) {
          const reason = failureReason(error);
          if (refusedForGood(error)) return giveUp(reason);
          await store.markFailed(
            id,
            Date.now() + backoffMs(attempts, this.#options.retryBaseMs),
            reason,
          );
          log?.(
            `${describe(mail)} of enquiry ${enquiry.id} not mailed yet (attempt ${attempts + 1}): ${reason}`,
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

/** Why a send failed, in words: an error's message (never "[object Error]"), else what was thrown. */
export function failureReason(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  const { message, responseCode } = (error ?? {}) as { message?: unknown; responseCode?: unknown };
  if (typeof message === 'string' && message) return message;
  if (typeof responseCode === 'number') return `the SMTP server answered ${responseCode}`;
  return String(error);
}

/**
 * Nodemailer's codes of a connection that failed, not of one message: a 5xx with one of these (a
 * wrong password, a greeting that turns this host away) is the configuration's to mend, after
 * which every e-mail waiting should go.
 */
const CONNECTION_FAILURES = new Set(['EAUTH', 'ENOAUTH', 'ECONNECTION', 'EPROTOCOL', 'ETLS']);

/**
 * Whether the SMTP server refused this e-mail for good: a 5xx answer (nodemailer's responseCode:
 * the address does not exist, the message is refused), which no retry changes.
 */
export function refusedForGood(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode <= 599 &&
    !(typeof code === 'string' && CONNECTION_FAILURES.has(code))
  );
}

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
      await transport.sendMail(messageOptions(mail));
    },
  };
}

/** What nodemailer makes a Mail's message from: exactly these headers and parts, nothing more. */
export const messageOptions = (mail: Mail) => ({
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
