/**
 * The rate limit that every process sharing the PostgreSQL store counts together: a table of hits
 * per client and window.
 */
import type pg from 'pg';
import type { RateLimit, RateVerdict } from '../../requests/rate-limit.ts';

/**
 * One more hit of a client, if the sliding-window estimate allows it: this window's hits plus the
 * previous window's, weighted by how much of it still falls in the last `windowMs`. The row lock
 * of the upsert makes concurrent hits of one client, from any process, count one after another.
 */
const RATE_HIT = `WITH previous AS (
    SELECT coalesce(
      (SELECT hits FROM rate_limit WHERE client = $1 AND window_start = $3), 0) * $4::float8 AS weighted
  )
  INSERT INTO rate_limit AS r (client, window_start, hits)
  SELECT $1, $2, 1 FROM previous WHERE previous.weighted + 1 <= $5
  ON CONFLICT (client, window_start) DO UPDATE SET hits = r.hits + 1
    WHERE r.hits + 1 + (SELECT weighted FROM previous) <= $5
  RETURNING r.hits`;

/**
 * At most `max` posts per client in any `windowMs`, counted in the database; `sweep` clears old
 * windows now and then, until the store stops it.
 */
export function sharedRateLimit(pool: pg.Pool, max: number, windowMs: number) {
  // Windows older than the previous one count for nothing: cleared now and then.
  const sweep = setInterval(() => {
    const current = Math.floor(Date.now() / windowMs) * windowMs;
    pool
      .query('DELETE FROM rate_limit WHERE window_start < $1', [current - windowMs])
      .catch(() => {});
  }, windowMs);
  sweep.unref();
  const limit: RateLimit = {
    async hit(client: string, now = Date.now()): Promise<RateVerdict> {
      const start = Math.floor(now / windowMs) * windowMs;
      const previousWeight = 1 - (now - start) / windowMs;
      const { rowCount } = await pool.query({
        name: 'rate-hit',
        text: RATE_HIT,
        values: [client, start, start - windowMs, previousWeight, max],
      });
      if (rowCount === 1) return { allowed: true };
      return {
        allowed: false,
        retryAfter: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
      };
    },
    async refund(client: string, at: number) {
      await pool.query({
        name: 'rate-refund',
        text: 'UPDATE rate_limit SET hits = hits - 1 WHERE client = $1 AND window_start = $2 AND hits > 0',
        values: [client, Math.floor(at / windowMs) * windowMs],
      });
    },
  };
  return { limit, sweep };
}
