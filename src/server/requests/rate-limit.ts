/** A rate limit's verdict on one more post from a client. */
export type RateVerdict = { allowed: true } | { allowed: false; retryAfter: number };

/**
 * A limit on posts per client: the in-memory RateLimiter below, or, with PostgreSQL, one that every
 * process counts together (EnquiryStore.sharedRateLimit).
 */
export interface RateLimit {
  /** Records a hit if allowed; otherwise says how many seconds until the next one is. */
  hit(client: string, now?: number): RateVerdict | Promise<RateVerdict>;
  /** Takes back the hit recorded at `at` (a post refused for what it says does not count). */
  refund(client: string, at: number): void | Promise<void>;
}

/**
 * A sliding-window rate limit per client, in this process's memory: at most `max` hits in any
 * `windowMs`. Memory stays bounded: idle clients are forgotten, and past `maxClients` the least
 * recently seen are dropped. With PostgreSQL, processes share a limit in the database instead.
 */
export class RateLimiter implements RateLimit {
  readonly #hits = new Map<string, number[]>();
  readonly #max: number;
  readonly #windowMs: number;
  readonly #maxClients: number;

  constructor(max: number, windowMs: number, maxClients = 50_000) {
    this.#max = max;
    this.#windowMs = windowMs;
    this.#maxClients = maxClients;
  }

  /** Records a hit if allowed; otherwise says how many seconds until the next one is. */
  hit(client: string, now = Date.now()): RateVerdict {
    const since = now - this.#windowMs;
    const recent = (this.#hits.get(client) ?? []).filter((time) => time > since);
    if (recent.length >= this.#max) {
      this.#hits.set(client, recent);
      return {
        allowed: false,
        retryAfter: Math.max(1, Math.ceil((recent[0]! + this.#windowMs - now) / 1000)),
      };
    }
    recent.push(now);
    // Re-inserting keeps the Map in least-recently-seen order, for eviction.
    this.#hits.delete(client);
    this.#hits.set(client, recent);
    if (this.#hits.size > this.#maxClients) {
      for (const [key, times] of this.#hits) {
        if (this.#hits.size <= this.#maxClients && times.at(-1)! > since) break;
        this.#hits.delete(key);
      }
    }
    return { allowed: true };
  }

  /** Takes back the hit recorded at `at` (a post refused for its content does not count). */
  refund(client: string, at: number) {
    const times = this.#hits.get(client);
    const index = times?.lastIndexOf(at) ?? -1;
    if (index >= 0) times!.splice(index, 1);
  }

  get clients() {
    return this.#hits.size;
  }
}

/** `limit` counting clients apart from another limit's in the same table: each key under `prefix`. */
export const prefixed = (limit: RateLimit, prefix: string): RateLimit => ({
  hit: (client, now) => limit.hit(`${prefix}${client}`, now),
  refund: (client, at) => limit.refund(`${prefix}${client}`, at),
});

/** `limit` counting every post under one `key`, whichever client sends it. */
export const keyed = (limit: RateLimit, key: string): RateLimit => ({
  hit: (_client, now) => limit.hit(key, now),
  refund: (_client, at) => limit.refund(key, at),
});
