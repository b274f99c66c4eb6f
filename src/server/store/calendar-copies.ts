/**
 * The hosts' calendar feeds as last read, kept in the store (SQLite or PostgreSQL, the same SQL):
 * a restart or a feed that is down does not open a host's whole diary, and with several processes
 * sharing PostgreSQL one of them reads a feed (it holds a lease on it meanwhile) and every one
 * uses the copy. A feed is kept under an id made from its address (a hash): the address itself,
 * a secret, is never stored.
 */
import type { Db } from './db.ts';

/** The table, one statement for both engines (SQLite reads BIGINT as INTEGER). */
export const CALENDAR_FEEDS_TABLE = `CREATE TABLE calendar_feeds (
     feed_id TEXT PRIMARY KEY,
     host TEXT NOT NULL,
     etag TEXT,
     last_modified TEXT,
     body TEXT,
     version BIGINT NOT NULL DEFAULT 0,
     fetched_at BIGINT,
     checked_at BIGINT,
     error TEXT,
     leased_until BIGINT
   );`;

/** A feed's state, without its text. Times in epoch ms. */
export interface FeedState {
  feedId: string;
  host: string;
  /** Goes up each time the text changes. */
  version: number;
  /** When a read last gave the current text (a 200 or a 304); null: never. */
  fetchedAt: number | null;
  /** When a read was last tried. */
  checkedAt: number | null;
  /** Why the last read failed (no address in it); null when it did not. */
  error: string | null;
}

export interface CalendarCopies {
  /**
   * Claims the next read of a feed, when the last was tried `dueMs` ago or more and no process
   * holds it: its validators for a conditional request; undefined when it is not this process's
   * to read now.
   */
  claimRead(
    feedId: string,
    host: string,
    now: number,
    dueMs: number,
    leaseMs: number,
  ): Promise<{ etag: string | null; lastModified: string | null } | undefined>;
  /** A read that gave the feed's text (null: unchanged since the copy, a 304). */
  saveRead(
    feedId: string,
    read: { body: string; etag: string | null; lastModified: string | null } | null,
    now: number,
  ): Promise<void>;
  saveFailure(feedId: string, error: string, now: number): Promise<void>;
  states(): Promise<FeedState[]>;
  body(feedId: string): Promise<string | undefined>;
}

const time = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function calendarCopies(db: Pick<Db, 'all'>): CalendarCopies {
  return {
    async claimRead(feedId, host, now, dueMs, leaseMs) {
      await db.all(
        `INSERT INTO calendar_feeds (feed_id, host) VALUES (?, ?) ON CONFLICT (feed_id) DO NOTHING`,
        [feedId, host],
      );
      // One UPDATE: of two processes at once, the second sees the first's lease and gets nothing.
      const [row] = await db.all(
        `UPDATE calendar_feeds SET leased_until = ?, host = ?
         WHERE feed_id = ? AND (checked_at IS NULL OR checked_at <= ?)
           AND (leased_until IS NULL OR leased_until <= ?)
         RETURNING etag, last_modified`,
        [now + leaseMs, host, feedId, now - dueMs, now],
      );
      return row
        ? {
            etag: (row.etag as string | null) ?? null,
            lastModified: (row.last_modified as string | null) ?? null,
          }
        : undefined;
    },
    async saveRead(feedId, read, now) {
      if (read)
        await db.all(
          `UPDATE calendar_feeds SET body = ?, etag = ?, last_modified = ?, version = version + 1,
             fetched_at = ?, checked_at = ?, error = NULL, leased_until = NULL
           WHERE feed_id = ?`,
          [read.body, read.etag, read.lastModified, now, now, feedId],
        );
      else
        await db.all(
          `UPDATE calendar_feeds SET fetched_at = ?, checked_at = ?, error = NULL,
             leased_until = NULL
           WHERE feed_id = ?`,
          [now, now, feedId],
        );
    },
    async saveFailure(feedId, error, now) {
      await db.all(
        `UPDATE calendar_feeds SET checked_at = ?, error = ?, leased_until = NULL WHERE feed_id = ?`,
        [now, error.slice(0, 300), feedId],
      );
    },
    async states() {
      const rows = await db.all(
        `SELECT feed_id, host, version, fetched_at, checked_at, error FROM calendar_feeds`,
        [],
      );
      return rows.map((row) => ({
        feedId: row.feed_id as string,
        host: row.host as string,
        version: Number(row.version),
        fetchedAt: time(row.fetched_at),
        checkedAt: time(row.checked_at),
        error: (row.error as string | null) ?? null,
      }));
    },
    async body(feedId) {
      const [row] = await db.all(`SELECT body FROM calendar_feeds WHERE feed_id = ?`, [feedId]);
      return (row?.body as string | null | undefined) ?? undefined;
    },
  };
}
