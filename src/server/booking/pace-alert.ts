/**
 * A line to the agency when bookings come in faster than people book (BOOKING_ALERT_PER_HOUR):
 * after a booking, the calls booked within the last hour are counted in the store (so every
 * process sharing it counts together); past the rule, one process claims the alert there (the
 * store keeps its time: at most one every 6 hours across processes), logs a line with counts only
 * and e-mails the agency. The e-mail goes straight to the SMTP server, not through the queue of
 * jobs: it is worth nothing late, and a failure is logged beside the line that already told the
 * logs.
 */
import type { Mail } from '../mail/message.ts';
import type { BookingAlertRule } from '../store/types.ts';
import type { Bookings } from './calls.ts';

export interface BookingPaceAlertOptions {
  bookings: Pick<Bookings, 'claimBookingAlert'>;
  rule: BookingAlertRule;
  /** The agency's e-mail: sent straight away (none when e-mail is off: the log line alone). */
  mail?: { send(mail: Mail): Promise<void>; from: string; to: string };
  log: (line: string) => void;
  /** The time now (the tests' own clock). */
  now?: () => number;
}

/** The agency's e-mail about `count` calls booked in the hour before `now`. */
export function bookingAlertMail(
  count: number,
  rule: BookingAlertRule,
  { from, to }: { from: string; to: string },
  now: number,
): Mail {
  const hours = Math.round(rule.quietMs / 3_600_000);
  return {
    from,
    to,
    replyTo: to,
    subject: `Bookings are coming in fast: ${count} calls in the last hour`,
    text: [
      `${count} calls were booked through the website in the last hour, more than the ${rule.perHour}`,
      'an hour that real prospects book (BOOKING_ALERT_PER_HOUR). Someone may be holding times they',
      'do not mean to keep.',
      '',
      'What to do:',
      '',
      '- See the calls: run `npm run enquiries` where the site runs (with its ENQUIRY_DB or',
      '  DATABASE_URL). Each call shows its time, who booked it, from which client, and whether',
      '  the prospect has confirmed it with the link of their e-mail.',
      '- Cancel a call that is not genuine: `npm run enquiries -- --cancel REF` (REF as the listing',
      '  shows it). The time is free again, and the address it was booked with gets a cancellation.',
      '- If it goes on, lower BOOKING_NETWORK_CAP or BOOKING_UNCONFIRMED_SHARE and restart the site.',
      '',
      `You will hear of this again at most once every ${hours} hours, however fast calls come in.`,
      '',
      '--',
      `Sent by the website at ${new Date(now).toISOString()}.`,
    ].join('\n'),
    messageId: `<booking-alert.${now}@enquiries.invalid>`,
  };
}

/** Looks at the pace of bookings after each one; tells the agency when it is too fast. */
export class BookingPaceAlert {
  readonly #options: BookingPaceAlertOptions;
  /** A look under way: a booking meanwhile does not start another (the next one will look). */
  #running: Promise<void> | undefined;

  constructor(options: BookingPaceAlertOptions) {
    this.#options = options;
  }

  /** After a booking: counts, and alerts if due. Never throws; resolves when done (for tests). */
  check(): Promise<void> {
    this.#running ??= this.#check().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #check() {
    // After the booking's answer has gone on its way: a store on this process's thread (SQLite)
    // counts synchronously.
    await new Promise((resolve) => setImmediate(resolve));
    const { bookings, rule, mail, log } = this.#options;
    const now = this.#options.now?.() ?? Date.now();
    let count: number | undefined;
    try {
      count = await bookings.claimBookingAlert(rule, now);
    } catch (error) {
      log(`Could not count the bookings of the last hour: ${String(error)}`);
      return;
    }
    if (count === undefined) return;
    log(
      `Bookings are coming in fast: ${count} calls booked in the last hour (BOOKING_ALERT_PER_HOUR is ${rule.perHour}); ${mail ? `the agency (${mail.to}) is e-mailed` : 'e-mail is off'}. npm run enquiries lists them.`,
    );
    if (!mail) return;
    try {
      await mail.send(bookingAlertMail(count, rule, mail, now));
    } catch (error) {
      log(
        `The e-mail to the agency about the pace of bookings failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
