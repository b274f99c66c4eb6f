/**
 * Delivery: each stored enquiry becomes a plain-text e-mail to the agency,
 * sent from the outbox table, retried with backoff while the SMTP server is
 * down, and marked sent once it has been accepted, so a restart resends only
 * what was never accepted.
 */
import { createTransport } from 'nodemailer';
import type { EnquiryStore, StoredEnquiry } from './store.ts';

export interface Mail {
  from: string;
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  messageId: string;
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
    const { store, sender, from, to, log } = this.#options;
    for (;;) {
      const due = store.due();
      if (due.length === 0) return;
      for (const { enquiry, attempts } of due) {
        try {
          await sender.send(formatEnquiryMail(enquiry, from, to));
          store.markSent(enquiry.id);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          store.markFailed(
            enquiry.id,
            Date.now() + backoffMs(attempts, this.#options.retryBaseMs),
            message,
          );
          log?.(`Enquiry ${enquiry.id} not mailed yet (attempt ${attempts + 1}): ${message}`);
          // The server is likely down: leave the rest for the next round.
          return;
        }
      }
    }
  }

  async stop() {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }
}

/** Sends through nodemailer's SMTP transport; `url` is SMTP_URL, e.g. smtp://user:pass@mail.example.com:587. */
export function smtpSender(url: string): MailSender {
  const transport = createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({
        from: mail.from,
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        // Plain text only: no HTML alternative that could render visitor input.
        disableUrlAccess: true,
        disableFileAccess: true,
      });
    },
  };
}
