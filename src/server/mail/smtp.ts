/** The SMTP transport (nodemailer): how a Mail goes out, and which of its failures are for good. */
import type { Mail } from './message.ts';

/** What the e-mail jobs send through: SMTP here, a fake in tests. */
export interface MailSender {
  send(mail: Mail): Promise<void>;
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
  // Bounded, so that a batch is sent (or given up) well within its claim on the jobs
  // (JOBS_LEASE_MS); a few connections kept open, over which a batch's messages go together.
  // Loaded once there is mail to send: a server with delivery off (and each start) does without
  // its hundred modules.
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  const open = async () => {
    const { createTransport } = await import('nodemailer');
    return createTransport({
      url,
      pool: true,
      maxConnections: 4,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  };
  return {
    async send(mail) {
      transport ??= open();
      await (await transport).sendMail(messageOptions(mail));
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
