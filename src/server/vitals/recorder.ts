/**
 * Takes beacons in and writes their measurements in batches: a beacon is answered as soon as it is
 * queued, and the queue is written in one transaction every flushMs (or sooner once it holds a
 * batch), so that a burst of visits costs the store a few writes rather than one per visit, and an
 * enquiry never waits behind them. Field data is not worth holding a visitor's memory for: past
 * MAX_QUEUED the newest are dropped and counted, and a failed write is logged and dropped. Also
 * prunes what is older than the retention window, at start and every few hours.
 *
 * A flood cannot rewrite a day's figures:
 * - one network (an IPv4 /24, an IPv6 /48: ../networks.ts) gives at most `perNetwork` measurements
 *   a day; the rest of its are dropped;
 * - a day keeps at most `dailyCap` measurements, a uniform random sample of all the day's: each
 *   gets a random sample key as it comes in, and the store keeps the day's `dailyCap` of smallest
 *   key. A burst at midnight fills the day, and the measurements after it still replace their share
 *   of it. Once the day is full, one whose key is over the day's edge is not even written.
 * Each day's counts (received, dropped) go to the store with the batches, for `npm run vitals` and
 * /speed to say how many were sampled out or dropped.
 *
 * Each measurement keeps its network's key (networkKey), so that /speed can give each network one
 * say in a figure (./figure.ts), however many of the day's measurements it sent.
 */
import { createHmac } from 'node:crypto';
import { rate, type Beacon } from '../../domain/vitals.ts';
import { wideNetwork } from '../networks.ts';
import { log as serverLog } from '../log.ts';
import type { NewVitalRecord, VitalsDayCounts, VitalsStore } from '../store/types.ts';
import type { BuildPages } from './build.ts';

/** Written at once when the queue reaches this many. */
export const BATCH = 1000;
/** The most measurements held for writing (about 2 MB). */
export const MAX_QUEUED = 20_000;
/** The most networks counted in a day (a few MB); past it, the others are only sampled. */
export const MAX_NETWORKS = 100_000;
const PRUNE_EVERY_MS = 6 * 60 * 60_000;
const DAY_MS = 86_400_000;
/** Networks named in the log per day as over their share; the others are counted, not named. */
const NAMED_NETWORKS = 5;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A network's key (`network`: an IPv4 /24, an IPv6 /48, as ../networks.ts wideNetwork writes it):
 * the first 16 bits of its HMAC under the store's secret (VitalsStore.vitalsSecret). The same for a
 * network across days and processes, which is what a cap over 28 days needs; and only 65,536 keys,
 * each shared by some 256 IPv4 networks and countless IPv6 ones, so that a key kept for 90 days
 * does not name a network, even to someone holding the secret. Two networks that share a key share
 * a share: a small loss, and one a flood cannot aim without the secret.
 */
export const networkKey = (secret: string, network: string) =>
  createHmac('sha256', secret).update(network).digest('hex').slice(0, 4);

export interface RecorderOptions {
  store: VitalsStore;
  build: BuildPages;
  flushMs: number;
  retentionDays: number;
  /** Measurements a day (UTC) keeps, at most: a random sample of the day's once there are more. */
  dailyCap: number;
  /** Measurements one network gives a day, at most. */
  perNetwork: number;
  /** What the network keys are made with (VitalsStore.vitalsSecret). */
  networkSecret: string;
  log?: (message: string) => void;
  now?: () => number;
  /** Sample keys, uniform in [0, 1): the tests' own. */
  random?: () => number;
}

export class VitalsRecorder {
  readonly #options: Required<RecorderOptions>;
  #queue: NewVitalRecord[] = [];
  /** Counts of the measurements received and dropped since the last write, per day. */
  #counts = new Map<string, VitalsDayCounts>();
  #flushing: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #pruner: ReturnType<typeof setInterval>;
  /** Measurements dropped: a network over its share, the queue full, a write that failed. */
  dropped = 0;
  /** Measurements not written because the day's sample had no room for their key. */
  sampledOut = 0;
  #day = '';
  /** Today's sample key edge, as the store last said: a measurement over it would not be kept. */
  #edge = 1;
  #networks = new Map<string, number>();
  #overShare = 0;

  constructor(options: RecorderOptions) {
    this.#options = { log: serverLog.warn, now: Date.now, random: Math.random, ...options };
    void this.prune();
    this.#pruner = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.#pruner.unref();
  }

  /** Queues a beacon's measurements, sent from `client` (its address); written within flushMs. */
  record(beacon: Beacon, client: string) {
    const { build, now, random, perNetwork, log } = this.#options;
    const path = build.pathOf(beacon.path);
    const day = dayOf(now());
    if (day !== this.#day) {
      this.#day = day;
      this.#edge = 1;
      this.#networks.clear();
      this.#overShare = 0;
    }
    const counts = this.#countsOf(day);
    const network = wideNetwork(client);
    const key = networkKey(this.#options.networkSecret, network);
    for (const m of beacon.metrics) {
      counts.received += 1;
      const given = this.#networks.get(network) ?? 0;
      if (given >= perNetwork) {
        counts.dropped += 1;
        this.dropped += 1;
        if (given === perNetwork) {
          this.#overShare += 1;
          if (this.#overShare <= NAMED_NETWORKS)
            log(
              `Field data: ${network} sent more than its share of today's measurements (${perNetwork}); the rest of its are dropped today (VITALS_PER_NETWORK_PER_DAY).`,
            );
          this.#networks.set(network, given + 1);
        }
        continue;
      }
      if (given > 0 || this.#networks.size < MAX_NETWORKS) this.#networks.set(network, given + 1);
      const sample = random();
      if (sample > this.#edge) {
        this.sampledOut += 1;
        continue;
      }
      if (this.#queue.length >= MAX_QUEUED) {
        counts.dropped += 1;
        this.dropped += 1;
        continue;
      }
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
        network: key,
        sample,
      });
    }
    if (this.#queue.length >= BATCH) this.#schedule(0);
    else this.#schedule(this.#options.flushMs);
  }

  #countsOf(day: string): VitalsDayCounts {
    let counts = this.#counts.get(day);
    if (!counts) this.#counts.set(day, (counts = { day, received: 0, dropped: 0 }));
    return counts;
  }

  #schedule(delay: number) {
    if (this.#timer && delay > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, delay);
  }

  /** Writes what is queued, and the counts; one write at a time. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (!this.#queue.length && !this.#counts.size) return;
    const batch = this.#queue;
    const counts = [...this.#counts.values()];
    this.#queue = [];
    this.#counts = new Map();
    const { store, dailyCap, log } = this.#options;
    this.#flushing = store
      .addVitals(batch, { counts, dailyCap })
      .then((edges) => {
        const edge = edges.get(this.#day);
        if (edge === undefined) return;
        if (edge < 1 && this.#edge === 1)
          log(
            `Field data: today's measurements reached ${dailyCap} (VITALS_DAILY_CAP); from now on a random sample of the day's is kept.`,
          );
        this.#edge = edge;
      })
      .catch((error: unknown) => {
        // Neither the measurements nor the counts were written: the counts wait for the next write.
        this.dropped += batch.length;
        for (const c of counts) {
          const kept = this.#countsOf(c.day);
          kept.received += c.received;
          kept.dropped += c.dropped + batch.filter((r) => r.day === c.day).length;
        }
        log(`Field data: ${batch.length} measurements not stored: ${String(error)}`);
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
