/**
 * The e-mail jobs' handler (../jobs/queue.ts runs it): each job's e-mail made (./templates.ts) and
 * sent through a MailSender (./smtp.ts). A reminder of a call moved or cancelled since is dropped,
 * and so is a host's cancellation of a call their calendar does not hold (the store's jobs say
 * which of their e-mails were sent); an e-mail the SMTP server refuses for good, or that cannot be
 * made, is given up; any other failure is tried again, with backoff, by the queue.
 */
import { referenceOf } from '../../domain/staff.ts';
import { jobHandler, type JobHandler, type JobOutcome } from '../jobs/queue.ts';
import type { EnquiryStore, Job, JobRecord } from '../store/types.ts';
import { MAIL_KINDS, type MailKind, type MailPayload } from './mail-jobs.ts';
import { refusedForGood, type MailSender } from './smtp.ts';
import { formatMail, staleReason } from './templates.ts';
import {
  aboutOf,
  forHost,
  hostCalendar,
  HOST_CALENDAR_MAILS,
  isCancel,
  type MailItem,
  type MailSetup,
} from './mail-item.ts';
import type { Mail } from './message.ts';

export interface MailDeliveryOptions extends MailSetup {
  sender: MailSender;
  /** The jobs queued before one: what a host was sent of a call, before their cancellation goes. */
  store: Pick<EnquiryStore, 'jobsOf'>;
  /** The time now (the tests' own clock): whether a reminder is still worth it. */
  now?: () => number;
}

/** The handler of every kind of e-mail job, registered under each kind (../app.ts). */
export function mailHandlers(options: MailDeliveryOptions): Map<string, JobHandler> {
  const handler = mailHandler(options);
  return new Map(MAIL_KINDS.map((kind) => jobHandler(kind, handler)));
}

function mailHandler(options: MailDeliveryOptions): JobHandler<MailPayload> {
  return async (job) => {
    const { kind, enquiry, attempts, payload } = job;
    const mail = kind as MailKind;
    const what = `${describe(mail)} of enquiry ${referenceOf(enquiry!.id)}`;
    const now = options.now?.() ?? Date.now();
    const item: MailItem = {
      mail,
      enquiry: enquiry!,
      ...(payload?.call && { call: payload.call }),
      sentAt: now,
    };
    if (forHost(mail) && isCancel(mail)) {
      item.hostCalendar = await hostCalendarBefore(options.store, job, item, now);
      // After the invitation still on its way: that it went or not decides this one.
      if (item.hostCalendar === 'unknown') {
        const reason = 'an earlier e-mail to the host is still on its way';
        return { retry: reason, log: `${what} waits: ${reason}` };
      }
    }
    // A reminder of a call moved or cancelled since it was queued, say: dropped, not sent.
    const stale = staleReason(item, now);
    if (stale) return { skipped: stale, log: `${what} was not sent: ${stale}` };
    const outcome = await deliver(options.sender, what, attempts, () => formatMail(item, options));
    // A reminder sent is worth a line (the others are the booking's, a move's or a cancel's).
    return 'done' in outcome && mail.endsWith('-reminder')
      ? { done: true, log: `${what} was sent.` }
      : outcome;
  };
}

/** A host's calendar by their e-mails of the call queued before `job` (HOST_CALENDAR_MAILS). */
async function hostCalendarBefore(
  store: MailDeliveryOptions['store'],
  job: Job<MailPayload>,
  item: MailItem,
  now: number,
) {
  const jobs = (await store.jobsOf(
    item.enquiry.id,
    HOST_CALENDAR_MAILS,
    now,
  )) as JobRecord<MailPayload>[];
  return hostCalendar(
    aboutOf(item).host,
    jobs.filter(({ id }) => id < job.id),
  );
}

/**
 * Makes an e-mail and sends it, for a job of any kind that sends one (a staff member's sign-in
 * link, say): one that cannot be made, or that the SMTP server refuses for good, is given up; any
 * other failure is tried again. `what` names it in the log; `attempts`: the job's so far.
 */
export async function deliver(
  sender: MailSender,
  what: string,
  attempts: number,
  make: () => Mail,
): Promise<JobOutcome> {
  const giveUp = (reason: string) => ({
    failed: reason,
    log: `${what} failed for good: ${reason}; it will not be retried`,
  });
  // Made first, apart from the sending: a mail that cannot be made now never can be.
  let message: Mail;
  try {
    message = make();
  } catch (error) {
    return giveUp(`the e-mail could not be made: ${failureReason(error)}`);
  }
  try {
    await sender.send(message);
  } catch (error) {
    const reason = failureReason(error);
    if (refusedForGood(error)) return giveUp(reason);
    return { retry: reason, log: `${what} not mailed yet (attempt ${attempts + 1}): ${reason}` };
  }
  return { done: true };
}

const describe = (mail: MailKind) =>
  ({
    agency: 'The e-mail to the agency',
    prospect: 'The confirmation to the prospect',
    host: 'The invitation to the host',
    'agency-cancel': 'The cancellation to the agency',
    'prospect-cancel': 'The cancellation to the prospect',
    'host-cancel': 'The cancellation to the host',
    'agency-move': 'The move to the agency',
    'prospect-move': 'The move to the prospect',
    'host-move': 'The move to the host',
    'prospect-reminder': 'The reminder to the prospect',
    'host-reminder': 'The reminder to the host',
    'agency-lapse': 'The release of an unconfirmed call to the agency',
    'prospect-lapse': 'The release of an unconfirmed call to the prospect',
    'host-lapse': 'The release of an unconfirmed call to the host',
  })[mail];

/** Why a send failed, in words: an error's message (never "[object Error]"), else what was thrown. */
export function failureReason(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  const { message, responseCode } = (error ?? {}) as { message?: unknown; responseCode?: unknown };
  if (typeof message === 'string' && message) return message;
  if (typeof responseCode === 'number') return `the SMTP server answered ${responseCode}`;
  return String(error);
}
