/**
 * The queue of jobs with the e-mails' handler, as src/server/app.ts makes it, from one set of
 * options: the queue's (store, timing, clock, log) and the e-mails' (sender, addresses, content).
 */
import { JobQueue, type JobQueueOptions } from '../../src/server/jobs/queue';
import { mailHandlers, type MailDeliveryOptions } from '../../src/server/mail/delivery';

export type MailQueueOptions = Omit<JobQueueOptions, 'handlers'> & MailDeliveryOptions;

export function mailQueue(options: MailQueueOptions) {
  const { store, pollMs, retryBaseMs, retryMaxMs, leaseMs, log, reportStoreFailure, now } = options;
  return new JobQueue({
    store,
    handlers: mailHandlers(options),
    pollMs,
    ...(retryBaseMs !== undefined && { retryBaseMs }),
    ...(retryMaxMs !== undefined && { retryMaxMs }),
    ...(leaseMs !== undefined && { leaseMs }),
    ...(log && { log }),
    ...(reportStoreFailure && { reportStoreFailure }),
    ...(now && { now }),
  });
}
