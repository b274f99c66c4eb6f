/**
 * Takes beacons in and writes their measurements in batches: a beacon is answered as soon as it is
 * queued, and the queue is written in one transaction every flushMs (or sooner once it holds a
 * batch), so that a burst of visits costs the store a few writes rather than one per visit, and an
 * enquiry never waits behind them. Field data is not worth holding a visitor's memory for: past
 * MAX_QUEUED the newest are dropped and counted, and a failed write is logged and dropped. Also
 * prunes what is older than the retention window, at start and every few hours. And it takes at
 * most `dailyCap` measurements a day: a flood from many addresses cannot fill the disk the enquiries
 * are written to (the rest of that day's are dropped, and the drop is logged once).
 */
import { rate, type Beacon } from '../../domain/vitals.ts';
import type { VitalRecord, VitalsStore } from '../store/types.ts';
import type { BuildPages } from './build.ts';

/** Written at once when the queue reaches this many. */
export const BATCH = 1000;
/** The most measurements held for writing (about 2 MB). */
export const MAX_QUEUED = 20_000;
const PRUNE_EVERY_MS = 6 * 60 * 60_000;
const DAY_MS = 86_400_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface RecorderOptions {
  store: VitalsStore;
  build: BuildPages;
  flushMs: number;
  retentionDays: number;
  /** Measurements taken in per day (UTC), at most. */
  dailyCap: number;
  log?: (message: string) => void;
  now?: () => number;
}

export class VitalsRecorder {
  readonly #options: Required<RecorderOptions>;
  #queue: VitalRecord[] = [];
  #flushing: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #pruner: ReturnType<typeof setInterval>;
  /** Measurements dropped because the queue was full, the day's cap was reached, or a write failed. */
  dropped = 0;
  #day = '';
  #takenToday = 0;

  constructor(options: RecorderOptions) {
    this.#options = { log: console.warn, now: Date.now, ...options };
    void this.prune();
    this.#pruner = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.#pruner.unref();
  }

  /** Queues a beacon's measurements; written within flushMs. */
  record(beacon: Beacon) {
    const { build, now } = this.#options;
    const path = build.pathOf(beacon.path);
    const day = dayOf(now());
    if (day !== this.#day) {
      this.#day = day;
      this.#takenToday = 0;
    }
    for (const m of beacon.metrics) {
      if (this.#queue.length >= MAX_QUEUED || this.#takenToday >= this.#options.dailyCap) {
        if (this.#takenToday === this.#options.dailyCap) {
          this.#options.log(
            `Field data: ${this.#options.dailyCap} measurements taken today; the rest of today's are dropped (VITALS_DAILY_CAP).`,
          );
          this.#takenToday += 1;
        }
        this.dropped += 1;
        continue;
      }
      this.#takenToday += 1;
      this.#queue.push({
        day,
        path,
        metric: m.name,
        value: m.value,
        rating: rate(m.name, m.value),
        navigation: beacon.navigation,
        connection: beacon.connection,
        device: beacon.device,
        build: build.id,
        target: m.target ?? null,
        phases: m.phases ?? null,
      });
    }
    if (this.#queue.length >= BATCH) this.#schedule(0);
    else this.#schedule(this.#options.flushMs);
  }

  #schedule(delay: number) {
    if (this.#timer && delay > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, delay);
  }

  /** Writes what is queued; one write at a time. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (!this.#queue.length) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#flushing = this.#options.store
      .addVitals(batch)
      .catch((error: unknown) => {
        this.dropped += batch.length;
        this.#options.log(`Field data: ${batch.length} measurements not stored: ${String(error)}`);
      })
      .finally(() => (this.#flushing = undefined));
    await this.#flushing;
    if (this.#queue.length) this.#schedule(this.#queue.length >= BATCH ? 0 : this.#options.flushMs);
  }

  /** Deletes the measurements older than the retention window. */
  async prune() {
    const { store, retentionDays, now, log } = this.#options;
    try {
      await store.pruneVitals(dayOf(now() - retentionDays * DAY_MS));
    } catch (error) {
      log(`Field data: old measurements not pruned: ${String(error)}`);
    }
  }

  /** Writes what is queued and stops. */
  async close() {
    clearInterval(this.#pruner);
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}
