/**
 * Each booked call's event as written into its host's calendar over CalDAV (CALENDAR_WRITE): which
 * host's calendar holds it, at which address in it, and its ETag (what the host's server said of
 * the version written), so that the next write replaces that version only (If-Match) and sees the
 * host's own edits. A lease, so that of several processes one writes a call at a time. Whether a
 * write is waiting, done or given up is its job's (the queue's rows), read here for the desk.
 */
import type { Db } from './db.ts';

/** The job kind of a call's write (../calendars/caldav-job.ts). */
export const CALENDAR_WRITE_JOB = 'calendar-write';

/** The table, one statement for both engines (SQLite reads BIGINT as INTEGER). */
export const CALENDAR_WRITES_TABLE = `CREATE TABLE calendar_writes (
     enquiry_id TEXT PRIMARY KEY,
     host TEXT,
     href TEXT,
     etag TEXT,
     sequence INTEGER,
     description TEXT,
     host_description TEXT,
     written_at BIGINT,
     leased_until BIGINT
   );`;

/** A call's event as last written; `href` null: none is held in any calendar. */
export interface WrittenEvent {
  host: string | null;
  href: string | null;
  etag: string | null;
  sequence: number | null;
  /** The DESCRIPTION line last written, to tell the host's own edit of it. */
  description: string | null;
  /**
   * The host's own DESCRIPTION line ('' for none: they deleted it), once they edited it: written
   * from then on in place of ours.
   */
  hostDescription: string | null;
  writtenAt: number | null;
}

/** Where a call stands with its host's calendar, for the desk. */
export type CalendarWriteState =
  | { state: 'written'; at: number }
  | { state: 'waiting'; error: string | null; attempts: number }
  | { state: 'failed'; error: string };

export interface CalendarWrites {
  /** Claims the write of a call until `now + leaseMs`: what was written before; undefined: another process holds it. */
  claim(enquiryId: string, now: number, leaseMs: number): Promise<WrittenEvent | undefined>;
  /** What is written now (`href` null: nothing), the lease released. */
  save(enquiryId: string, written: Omit<WrittenEvent, 'writtenAt'>, now: number): Promise<void>;
  /** The lease released, nothing changed (a write that failed). */
  release(enquiryId: string): Promise<void>;
  /** Each call's state (of those with a write queued ever), by enquiry id. */
  states(enquiryIds: readonly string[]): Promise<Map<string, CalendarWriteState>>;
}

const time = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function calendarWrites(db: Pick<Db, 'all' | 'run'>): CalendarWrites {
  return {
    async claim(enquiryId, now, leaseMs) {
      await db.all(
        `INSERT INTO calendar_writes (enquiry_id) VALUES (?) ON CONFLICT (enquiry_id) DO NOTHING`,
        [enquiryId],
      );
      // One UPDATE: of two processes at once, the second sees the first's lease and gets nothing.
      const [row] = await db.all(
        `UPDATE calendar_writes SET leased_until = ?
         WHERE enquiry_id = ? AND (leased_until IS NULL OR leased_until <= ?)
         RETURNING host, href, etag, sequence, description, host_description, written_at`,
        [now + leaseMs, enquiryId, now],
      );
      if (!row) return undefined;
      return {
        host: (row.host as string | null) ?? null,
        href: (row.href as string | null) ?? null,
        etag: (row.etag as string | null) ?? null,
        sequence: time(row.sequence),
        description: (row.description as string | null) ?? null,
        hostDescription: (row.host_description as string | null) ?? null,
        writtenAt: time(row.written_at),
      };
    },
    async save(enquiryId, written, now) {
      await db.run(
        `UPDATE calendar_writes SET host = ?, href = ?, etag = ?, sequence = ?, description = ?,
           host_description = ?, written_at = ?, leased_until = NULL WHERE enquiry_id = ?`,
        [
          written.host,
          written.href,
          written.etag,
          written.sequence,
          written.description,
          written.hostDescription,
          now,
          enquiryId,
        ],
      );
    },
    async release(enquiryId) {
      await db.run(`UPDATE calendar_writes SET leased_until = NULL WHERE enquiry_id = ?`, [
        enquiryId,
      ]);
    },
    async states(enquiryIds) {
      const states = new Map<string, CalendarWriteState>();
      if (enquiryIds.length === 0) return states;
      const rows = await db.all(
        `SELECT j.enquiry_id, j.done_at, j.failed_at, j.last_error, j.attempts, w.href
         FROM jobs j LEFT JOIN calendar_writes w ON w.enquiry_id = j.enquiry_id
         WHERE j.kind = ? AND j.skipped_at IS NULL
           AND j.enquiry_id IN (${enquiryIds.map(() => '?').join(', ')})
         ORDER BY j.id`,
        [CALENDAR_WRITE_JOB, ...enquiryIds],
      );
      // The last write queued of each call says where it stands (earlier ones were superseded); a
      // write done that left no event (a host with no calendar, a call cancelled) says nothing.
      for (const row of rows) {
        const state = stateOf(row);
        if (state.state === 'written' && (row.href ?? null) === null)
          states.delete(row.enquiry_id as string);
        else states.set(row.enquiry_id as string, state);
      }
      return states;
    },
  };
}

function stateOf(row: Record<string, unknown>): CalendarWriteState {
  if (row.done_at !== null && row.done_at !== undefined)
    return { state: 'written', at: Number(row.done_at) };
  if (row.failed_at !== null && row.failed_at !== undefined)
    return { state: 'failed', error: String(row.last_error ?? '') };
  return {
    state: 'waiting',
    error: (row.last_error as string | null) ?? null,
    attempts: Number(row.attempts),
  };
}
