/**
 * The queue of durable work: it runs the store's due jobs (an e-mail to send today; a calendar
 * event to write or a page to publish tomorrow), each by the handler of its kind, retrying with
 * backoff while it fails for now, and marking each done once it is, so a restart runs again only
 * what was never done. Jobs are claimed with a lease, so that processes sharing a store never run
 * one twice. A kind is its name, the payload its jobs carry and its handler, registered with the
 * queue (../app.ts): nothing of the schema.
 */
import {
  JOBS_CLAIM_BATCH,
  JOBS_LEASE_MS,
  JOBS_RETRY_BASE_MS,
  JOBS_RETRY_MAX_MS,
} from '../config.ts';
import { reportStoreFailure } from '../log.ts';
import type { EnquiryStore, Job, JobKind, JobKinds } from '../store/types.ts';

/** How long to wait before attempt n + 1: `baseMs` doubling to at most `maxMs` (15 minutes), with ±20% jitter. */
export function backoffMs(
  attempts: number,
  baseMs = JOBS_RETRY_BASE_MS,
  maxMs = JOBS_RETRY_MAX_MS,
  random = Math.random,
): number {
  const delay = Math.min(baseMs * 2 ** attempts, maxMs);
  return Math.round(delay * (0.8 + 0.4 * random()));
}

/**
 * What became of a job: done; not to be done after all (`skipped`); failed for now, to be tried
 * again after a backoff (`retry`); failed for good, never tried again (`failed`). Each but `done`
 * says why, and the line the log gets.
 */
export type JobOutcome =
  /** `log`: a line to say it was done (a reminder sent), for the log's info. */
  | { done: true; log?: string }
  | { skipped: string; log: string }
  | { retry: string; log: string }
  | { failed: string; log: string };

/** Runs a claimed job of its kind (or kinds), whose jobs carry a `Payload`. */
export type JobHandler<Payload = unknown> = (job: Job<Payload>) => Promise<JobOutcome>;

/**
 * A kind's handler, registered under the kind's name: the payload it reads is the one its kind
 * queues, typed where the kind queues it and where the handler reads it (the store keeps JSON).
 */
export const jobHandler = <Payload>(
  kind: JobKind,
  handle: JobHandler<Payload>,
): [JobKind, JobHandler] => [kind, handle as JobHandler];

export interface JobQueueOptions {
  store: EnquiryStore;
  /** The handler of each kind of job. */
  handlers: ReadonlyMap<JobKind, JobHandler>;
  pollMs: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** How long a claim on jobs holds (JOBS_LEASE_MS by default). */
  leaseMs?: number;
  /** Where a line about one job goes (one not done yet, one given up). */
  log?: (message: string) => void;
  /** Where a line about a job done goes, when its handler has one. */
  info?: (message: string) => void;
  /**
   * Where a failing store is reported: ../log.ts's reportStoreFailure (throttled, since the queue
   * polls every second) unless given.
   */
  reportStoreFailure?: (error: unknown) => void;
  /** The time now (the tests' own clock): what is due. */
  now?: () => number;
  /** Which kinds it claims (all by default). */
  kinds?: JobKinds;
}

/** The worker that drains the queue. One per process; it never runs one job twice at once. */
export class JobQueue {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  /** Jobs this process has claimed and not yet marked: given back if it stops before it can. */
  readonly #claimed = new Map<number, Job>();
  readonly #options: JobQueueOptions;

  constructor(options: JobQueueOptions) {
    this.#options = options;
  }

  #now() {
    return this.#options.now?.() ?? Date.now();
  }

  start() {
    this.#stopped = false;
    this.kick();
  }

  /** Looks at the queue now (after new work was queued), instead of at the next poll. */
  kick() {
    if (this.#stopped) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.drain(), 0);
    this.#timer.unref?.();
  }

  /** Runs everything due; resolves when this round is done. */
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
    const { store, leaseMs = JOBS_LEASE_MS } = this.#options;
    try {
      for (;;) {
        const due = await store.claimDue(
          this.#now(),
          JOBS_CLAIM_BATCH,
          leaseMs,
          this.#options.kinds,
        );
        if (due.length === 0) return;
        for (const job of due) this.#claimed.set(job.id, job);
        if (!(await this.#runAll(due))) return;
      }
    } catch (error) {
      // The store is unreachable: the next poll tries again.
      (this.#options.reportStoreFailure ?? reportStoreFailure)(error);
    }
  }

  /** Runs claimed jobs together; false once one failed for now (what it needs is likely down). */
  async #runAll(due: Job[]) {
    const results = await Promise.all(
      due.map(async (job) => {
        try {
          return await this.#runOne(job);
        } finally {
          this.#claimed.delete(job.id);
        }
      }),
    );
    return results.every(Boolean);
  }

  /** Runs one claimed job and marks it; false when it failed for now. */
  async #runOne(job: Job) {
    const { store, handlers, log } = this.#options;
    const handler = handlers.get(job.kind);
    if (!handler) {
      // A kind this process has no handler for (one a newer process queued, say): left for later,
      // without holding up the rest.
      const reason = `no handler for "${job.kind}" here`;
      await store.markRetry(job.id, this.#now() + backoffMs(job.attempts), reason);
      log?.(`Job ${job.id} waits: ${reason}`);
      return true;
    }
    const outcome = await handler(job).catch((error: unknown): JobOutcome => ({
      retry: String(error),
      log: `Job ${job.id} (${job.kind}) failed: ${String(error)}`,
    }));
    if ('done' in outcome) {
      await store.markDone(job.id, this.#now());
      if (outcome.log) this.#options.info?.(outcome.log);
      return true;
    }
    log?.(outcome.log);
    if ('skipped' in outcome) {
      await store.markSkipped(job.id, outcome.skipped, this.#now());
      return true;
    }
    if ('failed' in outcome) {
      await store.markFailed(job.id, outcome.failed, this.#now());
      return true;
    }
    const { retryBaseMs, retryMaxMs } = this.#options;
    await store.markRetry(
      job.id,
      this.#now() + backoffMs(job.attempts, retryBaseMs, retryMaxMs),
      outcome.retry,
    );
    return false;
  }

  /**
   * Stops polling and waits for the round under way, at most `waitMs`; what it still holds claimed
   * then (a send the SMTP server has not answered yet) is given back, so that a restart, or another
   * process, runs it at once rather than when its lease ends (JOBS_LEASE_MS, minutes).
   */
  async stop(waitMs = Infinity) {
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (Number.isFinite(waitMs)) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.#running,
        new Promise((resolve) => (timer = setTimeout(resolve, waitMs))),
      ]);
      clearTimeout(timer);
    } else await this.#running;
    if (this.#claimed.size) {
      await this.#options.store.release([...this.#claimed.values()]).catch(() => {});
      this.#claimed.clear();
    }
  }
}
