/**
 * Calls not confirmed in time lapse (BOOKING_CONFIRM_MINUTES): every LAPSE_SWEEP_MS, each process
 * asks the bookings (./calls.ts) to release the calls booked that long ago that still wait for their prospect
 * (EnquiryStore.lapseUnconfirmed: each marked lapsed, its time free and its e-mails queued in one
 * transaction; with several processes on one PostgreSQL, each call lapses once, by one of them).
 * The queue of jobs sends the e-mails. With e-mail off calls stand confirmed at once: none lapses.
 */
import { LAPSE_SWEEP_MS } from '../config.ts';
import { reportStoreFailure } from '../log.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Bookings } from './calls.ts';

/** Calls released per transaction: a flood's are released over a few short ones. */
const LAPSE_BATCH = 100;

export interface LapseSweepOptions {
  bookings: Pick<Bookings, 'lapseUnconfirmed'>;
  /** BOOKING_CONFIRM_MINUTES, in ms. */
  confirmMs: number;
  /** Present when e-mail is on: the releases are queued, and it is nudged to send them. */
  jobs: Pick<JobQueue, 'kick'> | undefined;
  /** The time now (the tests' own clock). */
  now?: () => number;
  /** Where the count of calls released goes (never who booked them). */
  log?: (message: string) => void;
}

/** Releases every call due now, a batch at a time; resolves to how many lapsed. */
export async function sweepUnconfirmed({
  bookings,
  confirmMs,
  jobs,
  now = Date.now,
  log,
}: LapseSweepOptions): Promise<number> {
  const at = now();
  let total = 0;
  for (;;) {
    const lapsed = await bookings.lapseUnconfirmed(confirmMs, jobs !== undefined, at, LAPSE_BATCH);
    total += lapsed;
    if (lapsed < LAPSE_BATCH) break;
  }
  if (total > 0) {
    jobs?.kick();
    log?.(
      `${total} call${total === 1 ? '' : 's'} not confirmed within ${confirmMs / 60_000} minutes of booking released; their times are offered again.`,
    );
  }
  return total;
}

/**
 * Sweeps now and every `everyMs` from now on, one sweep at a time; a failing store is reported and
 * the next sweep tries again. Resolves nothing; stop() ends it.
 */
export function startLapseSweep(options: LapseSweepOptions, everyMs = LAPSE_SWEEP_MS) {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    sweepUnconfirmed(options)
      .catch(reportStoreFailure)
      .finally(() => (running = false));
  };
  sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
