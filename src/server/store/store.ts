/**
 * The store, written once for both engines over the small port of ./db.ts: enquiries and their
 * calls, the queue of jobs, the site's secrets and alerts, the health check, and field data's
 * records (./vitals.ts) as its own. It persists and reads; what a booking, a move or a cancel
 * decides is ../booking/'s, run inside this store's transactions (`transaction`, whose `tx` is the
 * StoreTx of ./types.ts). Each engine's driver (./sqlite.ts, ./postgres/store.ts) gives it a
 * connection, a dialect and what only that engine has.
 */
import { randomBytes } from 'node:crypto';
import { JOBS_CLAIM_BATCH, JOBS_LEASE_MS } from '../config.ts';
import { calendarCopies, type CalendarCopies } from './calendar-copies.ts';
import { calendarWrites, type CalendarWrites } from './calendar-writes.ts';
import { staffRecords, type StaffRecords } from './staff.ts';
import { searchWordInserts, staffQueries } from './staff-queries.ts';
import { releaseRecords, type ReleaseRecords } from './releases.ts';
import { vitalsRecords, type VitalsRecords } from './vitals.ts';
import type { Db, Dialect, Driver } from './db.ts';
import { callInstant, fromRow, justStored, SELECT_ENQUIRIES } from './sql.ts';
import {
  SlotTaken,
  type BookedCall,
  type EnquiryStore,
  type Job,
  type JobKind,
  type JobKinds,
  type JobRecord,
  type JobState,
  type NewEnquiry,
  type QueuedJob,
  type StaffQueries,
  type StoreTx,
  type StoredEnquiry,
} from './types.ts';

/** The jobs failed for good, as /healthz counts them at every check: from their index (migration 26). */
export const COUNT_FAILED = `SELECT CAST(count(*) AS INTEGER) AS n FROM jobs
  WHERE failed_at IS NOT NULL`;

/** Longest error or reason kept with a job. */
const longest = 500;

/** A job's kind: a short name, checked here so that no CHECK in the schema has to list them. */
const JOB_KIND = /^[a-z][a-z0-9-]{0,39}$/;

/** An instant as the site writes a call's: to the second, so that SQLite compares them as text. */
const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Rows inserted by one statement at most: a batch is one round trip per this many. */
const ROWS_PER_INSERT = 100;

/** `rows` rows of `columns` placeholders each: '(?, ?), (?, ?)'. */
const placeholders = (rows: number, columns: number) =>
  Array.from({ length: rows }, () => `(${Array(columns).fill('?').join(', ')})`).join(', ');

/** Enquiries, a row each; the ids of those stored (one whose key was stored first is not). */
const insertEnquiries = (rows: number) => `INSERT INTO enquiries (id, kind, created_at, name, email,
    data, client_ip, user_agent, spam, idempotency_key, call_start, call_end, call_host,
    call_confirmed_at)
  VALUES ${placeholders(rows, 14)}
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id`;

const insertJobs = (rows: number) => `INSERT INTO jobs (enquiry_id, kind, payload, next_attempt_at)
  VALUES ${placeholders(rows, 4)}`;

/** `items` in runs of ROWS_PER_INSERT. */
const runs = <T>(items: readonly T[]) =>
  Array.from({ length: Math.ceil(items.length / ROWS_PER_INSERT) }, (_, i) =>
    items.slice(i * ROWS_PER_INSERT, (i + 1) * ROWS_PER_INSERT),
  );

/** An enquiry to store in a batch: its call's host, and the jobs it queues. */
interface NewRow {
  enquiry: NewEnquiry;
  host: string | null;
  jobs: readonly QueuedJob[];
}

/**
 * Whether a host has a call (or a call of no host holds them) that overlaps [start, end), other
 * than enquiry `except`'s; a host of null: whether any call does. Parameters: end, start, host,
 * host, except. ISO instants in UTC of one form compare as text (SQLite).
 */
const HOST_HAS_CALL = `SELECT 1 FROM enquiries
  WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_start < ? AND call_end > ?
    AND (call_host IS NULL OR call_host = ? OR CAST(? AS TEXT) IS NULL) AND id <> ?
  LIMIT 1`;

/**
 * Jobs due and not leased, with their enquiries, of one kind or all but a prefix's (`kind`).
 * Parameters: now, now, the kind or prefix if filtered, limit.
 */
const dueJobs = (
  kind?: JobKinds,
) => `SELECT e.*, j.id AS job_id, j.kind AS job_kind, j.payload, j.done_at, j.attempts
  FROM jobs j LEFT JOIN enquiries e ON e.id = j.enquiry_id
  WHERE j.done_at IS NULL AND j.failed_at IS NULL AND j.skipped_at IS NULL
    AND j.next_attempt_at <= ? AND (j.leased_until IS NULL OR j.leased_until <= ?)
    ${kind?.only ? 'AND j.kind = ?' : kind?.exceptPrefix ? 'AND j.kind NOT LIKE ?' : ''}
  ORDER BY j.next_attempt_at, j.id LIMIT ?`;

// Field data's records (./vitals.ts) are the store's own methods (VitalsStore), given in its constructor.
export interface Store extends VitalsRecords {}
export class Store implements EnquiryStore {
  readonly description: string;
  readonly calendarCopies: CalendarCopies;
  readonly calendarWrites: CalendarWrites;
  readonly staff: StaffRecords;
  readonly desk: StaffQueries;
  readonly releases: ReleaseRecords;
  readonly #db: Db;
  readonly #dialect: Dialect;
  readonly #driver: Driver;

  constructor(driver: Driver) {
    this.#driver = driver;
    this.#db = driver.db;
    this.#dialect = driver.dialect;
    this.description = driver.description;
    this.calendarCopies = calendarCopies(driver.db);
    this.calendarWrites = calendarWrites(driver.db);
    this.staff = staffRecords(driver.db);
    this.desk = staffQueries(driver.db, driver.dialect);
    this.releases = releaseRecords(driver.db);
    Object.assign(this, vitalsRecords(driver));
  }

  async transaction<T>(
    work: (tx: StoreTx) => Promise<T>,
    options?: { lock?: 'booking' },
  ): Promise<T> {
    try {
      return await this.#db.transaction((db) => work(this.#tx(db)), options);
    } catch (error) {
      // Another process booked the host's time first (PostgreSQL's unique index says so).
      throw this.#dialect.isBookedStartConflict(error) ? new SlotTaken() : error;
    }
  }

  /** The StoreTx over a transaction's connection. */
  #tx(db: Db): StoreTx {
    const staff = staffRecords(db);
    const tx: StoreTx = {
      recentStaffLinks: staff.recentLinks,
      addStaffLink: staff.addLink,
      ...txReads(db, this.#dialect),
      ...txCallWrites(db),
      ...jobWrites(db),
    };
    return tx;
  }

  #pending: {
    enquiry: NewEnquiry;
    jobs: readonly QueuedJob[];
    resolve(stored: StoredEnquiry): void;
    reject(error: unknown): void;
  }[] = [];

  /**
   * Enquiries that arrive in the same turn of the event loop share one transaction (group commit:
   * one flush of the log for them all); each promise resolves only after it committed.
   */
  commit(enquiry: NewEnquiry, jobs: readonly QueuedJob[]): Promise<StoredEnquiry> {
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => void this.#flush());
      this.#pending.push({ enquiry, jobs, resolve, reject });
    });
  }

  async #flush() {
    const batch = this.#pending;
    this.#pending = [];
    const now = Date.now();
    let stored: StoredEnquiry[];
    try {
      stored = await this.#db.transaction(async (db) => {
        const rows = batch.map(({ enquiry, jobs }) => ({ enquiry, host: null, jobs }));
        const inserted = await insertAll(db, rows, now);
        const tx = this.#tx(db);
        // A key stored before (by this batch, or any process) is answered with what it stored.
        return Promise.all(
          inserted.map(async (first, i) => {
            first ??= await tx.enquiryByKey(batch[i]!.enquiry.idempotencyKey!);
            if (!first) throw new Error('An enquiry was neither stored nor found.');
            return first;
          }),
        );
      });
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    batch.forEach(({ resolve }, i) => resolve(stored[i]!));
  }

  async findById(id: string): Promise<StoredEnquiry | undefined> {
    const [row] = await this.#db.all(`${SELECT_ENQUIRIES} WHERE e.id = ?`, [id]);
    return row && fromRow(row);
  }

  async findByReference(reference: string): Promise<StoredEnquiry[]> {
    // An id's characters only (a UUID's): nothing of LIKE's own to escape.
    if (!/^[0-9a-f-]{1,36}$/.test(reference)) return [];
    const rows = await this.#db.all(`${SELECT_ENQUIRIES} WHERE e.id LIKE ? ORDER BY e.id LIMIT 2`, [
      `${reference}%`,
    ]);
    return rows.map(fromRow);
  }

  async findByKey(key: string): Promise<StoredEnquiry | undefined> {
    const [row] = await this.#db.all(`${SELECT_ENQUIRIES} WHERE e.idempotency_key = ?`, [key]);
    return row && fromRow(row);
  }

  /** Every enquiry, in the order stored. */
  async all(): Promise<StoredEnquiry[]> {
    const rows = await this.#db.all(
      `${SELECT_ENQUIRIES} ORDER BY e.created_at, e.${this.#dialect.insertOrder}`,
    );
    return rows.map(fromRow);
  }

  async bookedBetween(from: string, to: string): Promise<BookedCall[]> {
    const rows = await this.#db.all(
      `SELECT id, call_start AS start, call_end AS end, call_host AS host FROM enquiries
       WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_end > ? AND call_start < ?
       ORDER BY call_start`,
      [from, to],
    );
    return rows.map(({ id, start, end, host }) => ({
      id: id as string,
      start: callInstant(start),
      end: callInstant(end),
      host: host as string | null,
    }));
  }

  async bookedSince(since: number) {
    // Served by the index of enquiries' creation; spam holds no call.
    return this.#count(
      `SELECT CAST(count(*) AS INTEGER) AS n FROM enquiries
       WHERE created_at > ? AND call_start IS NOT NULL`,
      [new Date(since).toISOString()],
    );
  }

  async lastAlert(name: string) {
    const [row] = await this.#db.all(`SELECT sent_at FROM site_alerts WHERE name = ?`, [name]);
    return row && Number(row.sent_at);
  }

  async claimAlert(name: string, now: number, last: number | undefined) {
    const claimed =
      last === undefined
        ? await this.#db.all(
            `INSERT INTO site_alerts (name, sent_at) VALUES (?, ?)
             ON CONFLICT (name) DO NOTHING RETURNING sent_at`,
            [name, now],
          )
        : await this.#db.all(
            `UPDATE site_alerts SET sent_at = ? WHERE name = ? AND sent_at = ? RETURNING sent_at`,
            [now, name, last],
          );
    return claimed.length > 0;
  }

  async claimDue(
    now = Date.now(),
    limit = JOBS_CLAIM_BATCH,
    leaseMs = JOBS_LEASE_MS,
    kind?: JobKinds,
  ): Promise<Job[]> {
    return this.#db.transaction(async (db) => {
      const filter = kind?.only ?? (kind?.exceptPrefix && `${kind.exceptPrefix}%`);
      const rows = await db.all(`${dueJobs(kind)}${this.#dialect.skipLocked('j')}`, [
        now,
        now,
        ...(filter === undefined ? [] : [filter]),
        limit,
      ]);
      if (rows.length > 0)
        await db.run(
          `UPDATE jobs SET leased_until = ? WHERE id IN (${Array(rows.length).fill('?').join(', ')})`,
          [now + leaseMs, ...rows.map((row) => row.job_id)],
        );
      return rows.map((row) => ({
        id: Number(row.job_id),
        kind: row.job_kind as string,
        attempts: Number(row.attempts ?? 0),
        leasedUntil: now + leaseMs,
        ...(row.id !== null && { enquiry: fromRow(row) }),
        ...(row.payload !== null && { payload: JSON.parse(row.payload as string) as unknown }),
      }));
    });
  }

  async markSkipped(jobId: number, reason: string, now = Date.now()) {
    await this.#db.run(
      `UPDATE jobs SET skipped_at = ?, last_error = ?, leased_until = NULL WHERE id = ?`,
      [now, reason.slice(0, longest), jobId],
    );
  }

  /** Gives back jobs claimed and not run (a process that stops): another may take them now. */
  async release(jobs: readonly Pick<Job, 'id' | 'leasedUntil'>[]) {
    // Only this claim's own lease: one that ended may have been taken over, and freeing the other
    // process's would let a third run the job beside it.
    for (const { id, leasedUntil } of jobs)
      await this.#db.run(
        `UPDATE jobs SET leased_until = NULL WHERE id = ? AND leased_until = ? AND done_at IS NULL`,
        [id, leasedUntil],
      );
  }

  async markDone(jobId: number, now = Date.now()) {
    await this.#db.run(
      `UPDATE jobs SET done_at = ?, attempts = attempts + 1, last_error = NULL,
         leased_until = NULL WHERE id = ?`,
      [now, jobId],
    );
  }

  async markRetry(jobId: number, nextAttemptAt: number, error: string) {
    await this.#db.run(
      `UPDATE jobs SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?,
         leased_until = NULL WHERE id = ?`,
      [nextAttemptAt, error.slice(0, longest), jobId],
    );
  }

  async markFailed(jobId: number, reason: string, now = Date.now()) {
    await this.#db.run(
      `UPDATE jobs SET attempts = attempts + 1, failed_at = ?, last_error = ?,
         leased_until = NULL WHERE id = ?`,
      [now, reason.slice(0, longest), jobId],
    );
  }

  async jobsOf(id: string, kinds: readonly JobKind[], now: number): Promise<JobRecord[]> {
    // Done first: a job dropped while it ran (a move as its e-mail went) may be done after all.
    const rows = await this.#db.all(
      `SELECT id, kind, payload, CASE WHEN done_at IS NOT NULL THEN 'sent'
           WHEN failed_at IS NOT NULL THEN 'failed' WHEN leased_until > ? THEN 'running'
           WHEN skipped_at IS NOT NULL THEN 'dropped' ELSE 'waiting' END AS state
       FROM jobs WHERE enquiry_id = ? AND kind IN (${kinds.map(() => '?').join(', ')})
       ORDER BY id`,
      [now, id, ...kinds],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind as string,
      state: row.state as JobState,
      ...(row.payload != null && { payload: JSON.parse(row.payload as string) as unknown }),
    }));
  }

  async countFailed(): Promise<number> {
    return this.#count(COUNT_FAILED);
  }

  async count(): Promise<number> {
    return this.#count(`SELECT CAST(count(*) AS INTEGER) AS n FROM enquiries`);
  }

  async #count(sql: string, params: unknown[] = []) {
    const [row] = await this.#db.all(sql, params);
    return Number(row!.n);
  }

  async isWritable(): Promise<boolean> {
    try {
      await this.#db.run(
        `INSERT INTO health (id, checked_at) VALUES (1, ?)
         ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`,
        [Date.now()],
      );
      return true;
    } catch {
      return false;
    }
  }

  sharedRateLimit(max: number, windowMs: number) {
    return this.#driver.sharedRateLimit?.(max, windowMs);
  }

  async vitalsSecret(): Promise<string> {
    return this.#siteSecret('vitals');
  }

  async legacySecret(name: 'booking' | 'staff'): Promise<string | undefined> {
    const [row] = await this.#db.all(`SELECT value FROM site_secrets WHERE name = ?`, [name]);
    return row?.value as string | undefined;
  }

  async forgetLegacySecrets() {
    await this.#db.run(`DELETE FROM site_secrets WHERE name IN ('booking', 'staff')`);
  }

  /** One of the site's own secrets, made at random on first use and kept. */
  async #siteSecret(name: 'vitals'): Promise<string> {
    const read = async () =>
      (await this.#db.all(`SELECT value FROM site_secrets WHERE name = ?`, [name]))[0]?.value as
        string | undefined;
    const kept = await read();
    if (kept) return kept;
    // Another process may make one meanwhile: the first one stored is everyone's. Read by a new
    // statement, the only kind that sees a row another process committed while this insert waited.
    await this.#db.run(
      `INSERT INTO site_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`,
      [name, randomBytes(32).toString('hex')],
    );
    return (await read())!;
  }

  close() {
    return this.#driver.close();
  }
}

/** What a transaction reads: an enquiry (locked, for the rules to decide on), the calls ahead. */
function txReads(
  db: Db,
  dialect: Dialect,
): Pick<StoreTx, 'enquiry' | 'enquiryByKey' | 'callsAhead' | 'hostIsFree' | 'unconfirmedDue'> {
  const enquiryWhere = async (where: string, params: unknown[]) => {
    const [row] = await db.all(`${SELECT_ENQUIRIES} WHERE ${where}`, params);
    return row && fromRow(row);
  };
  return {
    enquiry: (id) => enquiryWhere(`e.id = ?${dialect.forUpdate('e')}`, [id]),
    enquiryByKey: (key) => enquiryWhere('e.idempotency_key = ?', [key]),
    async callsAhead(now) {
      // Served by the unique index of booked starts: the calls ahead are few, however many are stored.
      const rows = await db.all(
        `SELECT email, client_ip, call_confirmed_at FROM enquiries
         WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_start > ?`,
        [instant(now)],
      );
      return rows.map((row) => ({
        email: row.email as string,
        clientIp: row.client_ip as string,
        confirmed: row.call_confirmed_at !== null,
      }));
    },
    async hostIsFree(host, start, end, except = '') {
      return (await db.all(HOST_HAS_CALL, [end, start, host, host, except])).length === 0;
    },
    async unconfirmedDue(cutoff, now, limit, mails) {
      // Served by the partial index of calls waiting for confirmation, and the jobs' by enquiry.
      // The time to confirm runs from the prospect's e-mail, not the booking: calls booked while
      // the mail server was down lapsed before their links were sent, and their prospects were
      // told they had not confirmed in time.
      const due = await db.all(
        `SELECT id FROM enquiries e
         WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_confirmed_at IS NULL
           AND created_at <= ? AND call_start > ?
           AND NOT EXISTS (SELECT 1 FROM jobs j
             WHERE j.enquiry_id = e.id AND j.kind IN (${mails.map(() => '?').join(', ')})
               AND j.skipped_at IS NULL AND COALESCE(j.done_at, j.failed_at, ?) > ?)
         ORDER BY created_at LIMIT ?${dialect.skipLocked('e')}`,
        [
          new Date(cutoff).toISOString(),
          instant(now),
          ...mails,
          Number.MAX_SAFE_INTEGER,
          cutoff,
          limit,
        ],
      );
      const found: StoredEnquiry[] = [];
      for (const { id } of due) found.push((await enquiryWhere('e.id = ?', [id]))!);
      return found;
    },
  };
}

/** What a transaction writes of an enquiry and its call. */
function txCallWrites(
  db: Db,
): Pick<StoreTx, 'insertEnquiry' | 'moveCall' | 'cancelCall' | 'confirmCall'> {
  return {
    async insertEnquiry(enquiry, host, now, jobs) {
      return (await insertAll(db, [{ enquiry, host, jobs }], now))[0];
    },
    async moveCall(id, { start, end, host }, { by, member, at }) {
      await db.run(
        `UPDATE enquiries SET call_moved_from = call_start, call_start = ?, call_end = ?,
           call_host = ?, call_sequence = call_sequence + 1, call_moves = call_moves + 1,
           call_moved_by = ?, call_moved_at = ?, call_moved_by_member = ?
         WHERE id = ?`,
        [start, end, host, by, at, member ?? null, id],
      );
    },
    async cancelCall(id, cancellation) {
      const when = new Date(cancellation.at).toISOString();
      const who = 'lapsed' in cancellation ? undefined : cancellation;
      await db.run(
        `UPDATE enquiries SET call_cancelled_at = ?, call_lapsed_at = ?,
           call_sequence = call_sequence + 1, call_cancelled_by = ?, call_cancel_reason = ?
         WHERE id = ? AND call_cancelled_at IS NULL`,
        [when, who ? null : when, who?.by ?? null, who?.reason ?? null, id],
      );
    },
    async confirmCall(id, at) {
      const changed = await db.run(
        `UPDATE enquiries SET call_confirmed_at = ?
         WHERE id = ? AND call_start IS NOT NULL AND call_confirmed_at IS NULL
           AND call_cancelled_at IS NULL AND call_start > ?`,
        [new Date(at).toISOString(), id, instant(at)],
      );
      return changed > 0;
    },
  };
}

/**
 * Stores enquiries and their jobs, a statement per ROWS_PER_INSERT of each: what was stored, in
 * order, with undefined for one whose idempotency key was stored first.
 */
async function insertAll(db: Db, rows: readonly NewRow[], now: number) {
  const createdAt = new Date(now).toISOString();
  const ids = rows.map(() => crypto.randomUUID());
  const stored = new Set<string>();
  for (const [first, run] of runs(rows).map((run, i) => [i * ROWS_PER_INSERT, run] as const)) {
    const inserted = await db.all(
      insertEnquiries(run.length),
      run.flatMap(({ enquiry, host }, i) => [
        ids[first + i],
        enquiry.kind,
        createdAt,
        enquiry.name,
        enquiry.email,
        JSON.stringify(enquiry.data),
        enquiry.clientIp,
        enquiry.userAgent,
        enquiry.spam ? 1 : 0,
        enquiry.idempotencyKey ?? null,
        enquiry.call?.start ?? null,
        enquiry.call?.end ?? null,
        host,
        enquiry.call?.confirmed ? createdAt : null,
      ]),
    );
    for (const { id } of inserted) stored.add(id as string);
  }
  await addSearchWords(
    db,
    rows.flatMap(({ enquiry }, i) =>
      stored.has(ids[i]!) ? [{ id: ids[i]!, name: enquiry.name, email: enquiry.email }] : [],
    ),
  );
  await queueAll(
    db,
    rows.flatMap(({ jobs }, i) =>
      stored.has(ids[i]!) ? jobs.map((job) => ({ job, id: ids[i] })) : [],
    ),
  );
  return rows.map(({ enquiry, host }, i) =>
    stored.has(ids[i]!) ? justStored(enquiry, ids[i]!, createdAt, host) : undefined,
  );
}

/** Enquiries' search words (./staff-queries.ts searchWordInserts). */
async function addSearchWords(db: Db, enquiries: { id: string; name: string; email: string }[]) {
  for (const { sql, params } of searchWordInserts(enquiries)) await db.run(sql, params);
}

/** What a transaction writes of the queue of jobs: jobs queued, and jobs dropped unrun. */
const jobWrites = (db: Db): Pick<StoreTx, 'dropJobs' | 'queue'> => ({
  async dropJobs(id, kinds, reason, now) {
    await db.run(
      `UPDATE jobs SET skipped_at = ?, last_error = ?
       WHERE enquiry_id = ? AND done_at IS NULL AND failed_at IS NULL
         AND skipped_at IS NULL AND kind IN (${kinds.map(() => '?').join(', ')})`,
      [now, reason, id, ...kinds],
    );
  },
  async queue(jobs, id) {
    await queueAll(
      db,
      jobs.map((job) => ({ job, id })),
    );
  },
});

/** Queues jobs (each about its enquiry `id`, if any), a statement per ROWS_PER_INSERT. */
async function queueAll(db: Db, jobs: readonly { job: QueuedJob; id: string | undefined }[]) {
  for (const { job } of jobs)
    if (!JOB_KIND.test(job.kind)) throw new Error(`Not a kind of job: ${JSON.stringify(job.kind)}`);
  for (const run of runs(jobs))
    await db.run(
      insertJobs(run.length),
      run.flatMap(({ job: { kind, dueAt, payload }, id }) => [
        id ?? null,
        kind,
        payload === undefined ? null : JSON.stringify(payload),
        dueAt,
      ]),
    );
}
