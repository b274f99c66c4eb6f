/**
 * The enquiry store on SQLite (node:sqlite), in WAL mode: the default, a file on this machine for
 * one server process. Enquiries that arrive in the same turn of the event loop share one
 * transaction (group commit); each caller's promise resolves only after it committed.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  DEFAULT_BOOKING_CAP,
  DEFAULT_NETWORK_CAP,
  OUTBOX_CLAIM_BATCH,
  OUTBOX_LEASE_MS,
} from '../config.ts';
import { CALENDAR_FEEDS_TABLE } from './calendar-copies.ts';
import { noNesting, type Db } from './db.ts';
import { SharedStore } from './shared.ts';
import {
  CALLS_AHEAD,
  SITE_ALERTS_TABLE,
  HOST_HAS_CALL,
  INSERT_OUTBOX,
  MAIL_KINDS_CHECK,
  MAIL_KINDS_CHECK_LAPSES,
  MAIL_KINDS_CHECK_MOVES,
  SELECT_ENQUIRIES,
  bookingCapReached,
  candidateHosts,
  confirmedAtOf,
  justStored,
  mailCallOf,
  mailsOnCommit,
  queuedMailParameters,
  storedForm,
  type BookingCaps,
  type CallAhead,
  type MailCallColumns,
  type MailCountColumns,
  type QueuedMail,
  fromRow,
} from './sql.ts';
import {
  BookingCapReached,
  SlotTaken,
  type EnquiryKind,
  type EnquiryStore,
  type MailKind,
  type NewEnquiry,
  type OutboxItem,
  type StoreOptions,
  type StoredEnquiry,
  type NewVitalRecord,
  type VitalsDayCounts,
} from './types.ts';

/** Versioned schema changes; PRAGMA user_version records how many have run. Append, never edit. */
export const migrations: string[] = [
  `CREATE TABLE enquiries (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('enquiry', 'call')),
     created_at TEXT NOT NULL,
     name TEXT NOT NULL,
     email TEXT NOT NULL,
     data TEXT NOT NULL,
     client_ip TEXT NOT NULL,
     user_agent TEXT NOT NULL,
     spam INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX enquiries_created ON enquiries (created_at);
   CREATE TABLE outbox (
     enquiry_id TEXT PRIMARY KEY REFERENCES enquiries (id),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT
   );
   CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;
   CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked_at INTEGER NOT NULL);`,
  // 2: one enquiry per idempotency key (enquiries stored before it have none; NULLs do not clash).
  `ALTER TABLE enquiries ADD COLUMN idempotency_key TEXT;
   CREATE UNIQUE INDEX enquiries_idempotency_key ON enquiries (idempotency_key);`,
  // 3: booked calls (an enquiry with a time: one booking per start), and one outbox entry per e-mail.
  `ALTER TABLE enquiries ADD COLUMN call_start TEXT;
   ALTER TABLE enquiries ADD COLUMN call_end TEXT;
   ALTER TABLE enquiries ADD COLUMN call_cancelled_at TEXT;
   CREATE UNIQUE INDEX enquiries_booked_call ON enquiries (call_start)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL;
   CREATE TABLE mail_outbox (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (mail IN ('agency', 'prospect', 'agency-cancel', 'prospect-cancel')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     UNIQUE (enquiry_id, mail)
   );
   INSERT INTO mail_outbox (enquiry_id, mail, attempts, next_attempt_at, sent_at, last_error)
     SELECT enquiry_id, 'agency', attempts, next_attempt_at, sent_at, last_error FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE mail_outbox RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE sent_at IS NULL;`,
  // 4: a claim on an outbox entry while it is being sent, as on PostgreSQL (the same behaviour).
  `ALTER TABLE outbox ADD COLUMN leased_until INTEGER;`,
  // 5: mail that failed for good (never claimed again; why, in last_error); the site's own secrets
  // (the cancel links' key when BOOKING_SECRET is not set); and spam no longer holds a time.
  `ALTER TABLE outbox ADD COLUMN undeliverable_at INTEGER;
   DROP INDEX outbox_due;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL;
   CREATE TABLE site_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
   UPDATE enquiries SET call_start = NULL, call_end = NULL
     WHERE spam = 1 AND call_start IS NOT NULL;`,
  // 6: field data (src/server/vitals/), with no column that could name a visitor.
  `CREATE TABLE vitals (
     day TEXT NOT NULL,
     path TEXT NOT NULL,
     metric TEXT NOT NULL,
     value REAL NOT NULL,
     rating TEXT NOT NULL,
     navigation TEXT NOT NULL,
     connection TEXT NOT NULL,
     device TEXT NOT NULL,
     build TEXT NOT NULL,
     target TEXT,
     phases TEXT
   );
   CREATE INDEX vitals_day ON vitals (day);`,
  // 7: the host a call is booked with (none for calls booked before there were hosts, which hold
  // every host's time); a host has one call per start.
  `ALTER TABLE enquiries ADD COLUMN call_host TEXT;
   DROP INDEX enquiries_booked_call;
   CREATE UNIQUE INDEX enquiries_booked_call ON enquiries (coalesce(call_host, ''), call_start)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL;`,
  // 8: the hosts' calendar feeds as last read (./calendar-copies.ts).
  CALENDAR_FEEDS_TABLE,
  // 9: a call's host gets its invitation and its cancellation: two more kinds of e-mail (SQLite
  // changes a CHECK by making the table again).
  `CREATE TABLE outbox_9 (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (${MAIL_KINDS_CHECK}),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     leased_until INTEGER,
     undeliverable_at INTEGER,
     UNIQUE (enquiry_id, mail)
   );
   INSERT INTO outbox_9 (id, enquiry_id, mail, attempts, next_attempt_at, sent_at, last_error,
       leased_until, undeliverable_at)
     SELECT id, enquiry_id, mail, attempts, next_attempt_at, sent_at, last_error, leased_until,
       undeliverable_at FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE outbox_9 RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL;`,
  // 10: calls that move and are reminded. A call keeps its calendar SEQUENCE and how often it moved;
  // an outbox entry, what its e-mail is about as it was when queued (the sequence, the host, the
  // time, a move's old time, a reminder's lead), so that a later move never rewrites it; and an
  // e-mail dropped unsent (a reminder of a time since moved). Cancellations sent so far were SEQUENCE 1.
  `ALTER TABLE enquiries ADD COLUMN call_sequence INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE enquiries ADD COLUMN call_moves INTEGER NOT NULL DEFAULT 0;
   UPDATE enquiries SET call_sequence = 1 WHERE call_cancelled_at IS NOT NULL;
   CREATE TABLE outbox_10 (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (${MAIL_KINDS_CHECK_MOVES}),
     sequence INTEGER NOT NULL DEFAULT 0,
     remind_minutes INTEGER NOT NULL DEFAULT 0,
     host TEXT,
     start_at TEXT,
     end_at TEXT,
     previous_start_at TEXT,
     previous_end_at TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     leased_until INTEGER,
     undeliverable_at INTEGER,
     skipped_at INTEGER,
     UNIQUE (enquiry_id, mail, sequence, remind_minutes)
   );
   INSERT INTO outbox_10 (id, enquiry_id, mail, sequence, host, start_at, end_at, attempts,
       next_attempt_at, sent_at, last_error, leased_until, undeliverable_at)
     SELECT o.id, o.enquiry_id, o.mail, CASE WHEN o.mail LIKE '%-cancel' THEN 1 ELSE 0 END,
       e.call_host, e.call_start, e.call_end, o.attempts, o.next_attempt_at, o.sent_at,
       o.last_error, o.leased_until, o.undeliverable_at
     FROM outbox o JOIN enquiries e ON e.id = o.enquiry_id;
   DROP TABLE outbox;
   ALTER TABLE outbox_10 RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL AND skipped_at IS NULL;`,
  // 11: field data a flood cannot rewrite: each measurement's sample key (a day over its cap keeps
  // those of smallest key: a uniform sample of the day; those stored before keep key 0, kept
  // first), and each day's counts of what came in and what was dropped.
  `ALTER TABLE vitals ADD COLUMN sample REAL NOT NULL DEFAULT 0;
   DROP INDEX vitals_day;
   CREATE INDEX vitals_day_sample ON vitals (day, sample);
   CREATE TABLE vitals_days (
     day TEXT PRIMARY KEY,
     received INTEGER NOT NULL DEFAULT 0,
     dropped INTEGER NOT NULL DEFAULT 0
   );`,
  // 12: a call waits for its prospect's confirmation (the link of its e-mail); the calls stored
  // before count as confirmed. The last alert to the agency about the pace of bookings.
  `ALTER TABLE enquiries ADD COLUMN call_confirmed_at TEXT;
   UPDATE enquiries SET call_confirmed_at = created_at WHERE call_start IS NOT NULL;
   ${SITE_ALERTS_TABLE}`,
  // 13: a call not confirmed in time is released (BOOKING_CONFIRM_MINUTES): when it lapsed, an
  // index of the calls waiting for confirmation for the sweep, and three kinds of e-mail that say
  // so (the outbox made again for its CHECK, as in 10).
  `ALTER TABLE enquiries ADD COLUMN call_lapsed_at TEXT;
   CREATE INDEX enquiries_unconfirmed ON enquiries (created_at)
     WHERE call_start IS NOT NULL AND call_cancelled_at IS NULL AND call_confirmed_at IS NULL;
   CREATE TABLE outbox_13 (
     id INTEGER PRIMARY KEY,
     enquiry_id TEXT NOT NULL REFERENCES enquiries (id),
     mail TEXT NOT NULL CHECK (${MAIL_KINDS_CHECK_LAPSES}),
     sequence INTEGER NOT NULL DEFAULT 0,
     remind_minutes INTEGER NOT NULL DEFAULT 0,
     host TEXT,
     start_at TEXT,
     end_at TEXT,
     previous_start_at TEXT,
     previous_end_at TEXT,
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     sent_at INTEGER,
     last_error TEXT,
     leased_until INTEGER,
     undeliverable_at INTEGER,
     skipped_at INTEGER,
     UNIQUE (enquiry_id, mail, sequence, remind_minutes)
   );
   INSERT INTO outbox_13 (id, enquiry_id, mail, sequence, remind_minutes, host, start_at, end_at,
       previous_start_at, previous_end_at, attempts, next_attempt_at, sent_at, last_error,
       leased_until, undeliverable_at, skipped_at)
     SELECT id, enquiry_id, mail, sequence, remind_minutes, host, start_at, end_at,
       previous_start_at, previous_end_at, attempts, next_attempt_at, sent_at, last_error,
       leased_until, undeliverable_at, skipped_at FROM outbox;
   DROP TABLE outbox;
   ALTER TABLE outbox_13 RENAME TO outbox;
   CREATE INDEX outbox_due ON outbox (next_attempt_at)
     WHERE sent_at IS NULL AND undeliverable_at IS NULL AND skipped_at IS NULL;`,
  // 14: field data's network key (a short keyed hash of the network, which names none), so that
  // /speed gives each network at most its share of a figure; those stored before have none.
  `ALTER TABLE vitals ADD COLUMN network TEXT;`,
  // 15: who moved or cancelled a call, on its e-mails: the staff (with their reason, if any), else
  // the prospect (NULL, as every e-mail queued before).
  `ALTER TABLE outbox ADD COLUMN changed_by TEXT CHECK (changed_by IN ('staff'));
   ALTER TABLE outbox ADD COLUMN change_reason TEXT;`,
];

interface Row extends Partial<MailCallColumns>, MailCountColumns {
  id: string;
  kind: EnquiryKind;
  created_at: string;
  name: string;
  email: string;
  data: string;
  client_ip: string;
  user_agent: string;
  spam: number;
  idempotency_key: string | null;
  call_start: string | null;
  call_end: string | null;
  call_cancelled_at: string | null;
  call_host: string | null;
  call_sequence: number;
  call_moves: number;
  call_confirmed_at: string | null;
  call_lapsed_at: string | null;
  sent_at: number | null;
  attempts: number | null;
  mail_failure?: string | null;
  outbox_id?: number;
  mail?: MailKind;
}

/** An instant as the site writes a call's: to the second, so that the two compare as text. */
const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** How long a write waits while another connection (the staff's CLI, say) holds the file's write lock. */
const BUSY_MS = 5000;

/** SQLite's "database is locked": another connection writes. */
const busy = (error: unknown) => (error as { errcode?: number }).errcode === 5;

/**
 * Runs `step`, trying again while another connection holds the write lock, for BUSY_MS at most.
 * The wait is the event loop's, not SQLite's own (busy_timeout), which would hold the thread, and
 * with it the other connection when that one is on the same thread (a test's second "process").
 */
async function whenFree<T>(step: () => T): Promise<T> {
  const until = Date.now() + BUSY_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return step();
    } catch (error) {
      if (!busy(error) || Date.now() >= until) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * The port of ./db.ts on a SQLite file: each statement prepared once. The connection is one, so its
 * transactions take turns (`exclusive`), and a statement from outside waits for the one open: no
 * other flow's statement ever runs inside it.
 */
function sqliteDb(db: DatabaseSync) {
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const inside: Db = {
    all: async (sql, params = []) =>
      prepared(sql).all(...(params as SQLInputValue[])) as Record<string, unknown>[],
    run: async (sql, params = []) =>
      Number(prepared(sql).run(...(params as SQLInputValue[])).changes),
    transaction: noNesting,
  };
  let open: Promise<void> | undefined;
  const idle = async () => {
    while (open) await open;
  };
  /** Runs `work` in a write transaction of its own: none other, and no statement, in between. */
  async function exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    await idle();
    let done!: () => void;
    open = new Promise((resolve) => (done = resolve));
    try {
      await whenFree(() => db.exec('BEGIN IMMEDIATE'));
      try {
        const result = await work();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      open = undefined;
      done();
    }
  }
  const port: Db = {
    all: async (sql, params = []) => {
      await idle();
      return whenFree(
        () => prepared(sql).all(...(params as SQLInputValue[])) as Record<string, unknown>[],
      );
    },
    run: async (sql, params = []) => {
      await idle();
      return whenFree(() => Number(prepared(sql).run(...(params as SQLInputValue[])).changes));
    },
    transaction: (work) => exclusive(() => work(inside)),
  };
  return { port, exclusive };
}

export class SqliteStore extends SharedStore implements EnquiryStore {
  readonly db: DatabaseSync;
  /** Runs its work in a write transaction, in turn with every other on the connection. */
  readonly #exclusive: <T>(work: () => T | Promise<T>) => Promise<T>;
  readonly #insertEnquiry: StatementSync;
  readonly #insertOutbox: StatementSync;
  readonly #byKey: StatementSync;
  readonly #due: StatementSync;
  readonly #lease: StatementSync;
  readonly #hostHasCall: StatementSync;
  readonly #callsAhead: StatementSync;
  readonly #caps: BookingCaps;
  readonly #insertVital: StatementSync | undefined;

  readonly description: string;

  /** `readOnly` opens an existing store for reading only, as the staff CLI does. */
  constructor(
    path: string,
    {
      readOnly = false,
      bookingCap = DEFAULT_BOOKING_CAP,
      networkCap = bookingCap === Infinity ? Infinity : DEFAULT_NETWORK_CAP,
    }: StoreOptions = {},
  ) {
    if (path !== ':memory:' && !readOnly) mkdirSync(dirname(path), { recursive: true });
    const db = new DatabaseSync(path, { readOnly });
    const driver = sqliteDb(db);
    super(driver.port, {
      day: (column) => column,
      insertOrder: 'rowid',
      // One write transaction holds the whole file.
      lockEnquiry: '',
      skipLocked: '',
      isBookedStartConflict: () => false,
    });
    this.#exclusive = driver.exclusive;
    this.db = db;
    this.description = `the SQLite file ${path}`;
    this.#caps = { bookingCap, networkCap };
    // NORMAL is durable against a crash of the process (kill -9); FULL would add a sync per commit
    // for power loss, at several times the cost.
    this.db.exec(`PRAGMA busy_timeout = ${BUSY_MS}; PRAGMA foreign_keys = ON;`);
    if (!readOnly) {
      this.db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`);
      this.#migrate();
    }
    this.#insertVital = readOnly
      ? undefined
      : this.db.prepare(
          `INSERT INTO vitals (day, path, metric, value, rating, navigation, connection, device,
             build, target, phases, network, sample) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
    this.#insertEnquiry = this.db.prepare(
      `INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent, spam,
         idempotency_key, call_start, call_end, call_host, call_confirmed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // ISO instants in UTC of one form compare as text.
    this.#hostHasCall = this.db.prepare(HOST_HAS_CALL);
    this.#callsAhead = this.db.prepare(CALLS_AHEAD);
    this.#byKey = this.db.prepare(`${SELECT_ENQUIRIES} WHERE e.idempotency_key = ?`);
    this.#insertOutbox = this.db.prepare(INSERT_OUTBOX);
    this.#due = this.db.prepare(
      `SELECT e.*, o.id AS outbox_id, o.mail, o.sent_at, o.attempts, o.sequence, o.remind_minutes,
         o.host, o.start_at, o.end_at, o.previous_start_at, o.previous_end_at, o.changed_by,
         o.change_reason
       FROM outbox o JOIN enquiries e ON e.id = o.enquiry_id
       WHERE o.sent_at IS NULL AND o.undeliverable_at IS NULL AND o.skipped_at IS NULL
         AND o.next_attempt_at <= ? AND (o.leased_until IS NULL OR o.leased_until <= ?)
       ORDER BY o.next_attempt_at, o.id LIMIT ?`,
    );
    this.#lease = this.db.prepare(`UPDATE outbox SET leased_until = ? WHERE id = ?`);
    // Opened (and migrated, waiting as SQLite waits): from now on a write waits on the event loop
    // (whenFree), never holding the thread.
    this.db.exec('PRAGMA busy_timeout = 0');
  }

  #migrate() {
    const { user_version: version } = this.db.prepare('PRAGMA user_version').get() as {
      user_version: number;
    };
    // At start, before anything else can use the connection.
    for (let next = version; next < migrations.length; next++) {
      this.db.exec('BEGIN IMMEDIATE');
      try {
        this.db.exec(migrations[next]!);
        this.db.exec(`PRAGMA user_version = ${next + 1}`);
        this.db.exec('COMMIT');
      } catch (error) {
        this.db.exec('ROLLBACK');
        throw error;
      }
    }
  }

  #findByKey(key: string): StoredEnquiry | undefined {
    const row = this.#byKey.get(key) as unknown as Row | undefined;
    return row && fromRow(row);
  }

  #pending: {
    enquiry: NewEnquiry;
    queueMail: boolean;
    done: (result: StoredEnquiry | Error) => void;
  }[] = [];

  /**
   * Enquiries that arrive in the same turn of the event loop share one transaction (group
   * commit). Each promise resolves only after that transaction has committed.
   */
  commit(enquiry: NewEnquiry, queueMail: boolean): Promise<StoredEnquiry> {
    // A booking whose time is taken rejects with SlotTaken, one beyond the cap with
    // BookingCapReached, and only it: the rest of its batch commits.
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => void this.#flush());
      this.#pending.push({
        enquiry: storedForm(enquiry),
        queueMail,
        done: (r) => (r instanceof Error ? reject(r) : resolve(r)),
      });
    });
  }

  async #flush() {
    const batch = this.#pending;
    this.#pending = [];
    const now = Date.now();
    let stored: (StoredEnquiry | SlotTaken | BookingCapReached)[];
    try {
      stored = await this.#exclusive(() =>
        batch.map(({ enquiry, queueMail }) => this.#insert(enquiry, queueMail, now)),
      );
    } catch (error) {
      for (const { done } of batch) done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    batch.forEach(({ done }, i) => done(stored[i]!));
  }

  #insert(
    enquiry: NewEnquiry,
    queueMail: boolean,
    now: number,
  ): StoredEnquiry | SlotTaken | BookingCapReached {
    // Inside the write transaction, so that two posts of one key cannot both get past this.
    const earlier = enquiry.idempotencyKey ? this.#findByKey(enquiry.idempotencyKey) : undefined;
    if (earlier) return earlier;
    // So are the counts: bookings of one address posted at once are counted one after another.
    if (enquiry.call) {
      const ahead = this.#callsAhead.all(instant(now)) as unknown as CallAhead[];
      const reached = bookingCapReached(ahead, enquiry, this.#caps);
      if (reached) return reached;
    }
    // Also inside it: no other booking can come between this look and the insert (the unique index
    // of a host's booked starts is the last word). The first candidate with no call then takes it.
    let host: string | null = null;
    if (enquiry.call) {
      const { start, end } = enquiry.call;
      const free = candidateHosts(enquiry.call).find(
        (candidate) => !this.#hostHasCall.get(end, start, candidate, candidate),
      );
      if (free === undefined) return new SlotTaken();
      host = free;
    }
    const id = crypto.randomUUID();
    const createdAt = new Date(now).toISOString();
    this.#insertEnquiry.run(
      id,
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
      confirmedAtOf(enquiry, createdAt),
    );
    if (queueMail && !enquiry.spam) {
      this.#queue(id, mailsOnCommit(enquiry, host, now));
    }
    return justStored(enquiry, id, createdAt, host);
  }

  #queue(id: string, mails: QueuedMail[]) {
    for (const mail of mails) this.#insertOutbox.run(...queuedMailParameters(id, mail));
  }

  async claimDue(
    now = Date.now(),
    limit = OUTBOX_CLAIM_BATCH,
    leaseMs = OUTBOX_LEASE_MS,
  ): Promise<OutboxItem[]> {
    return this.#exclusive(() =>
      (this.#due.all(now, now, limit) as unknown as Row[]).map((row) => {
        this.#lease.run(now + leaseMs, row.outbox_id!);
        const call = mailCallOf(row as MailCallColumns);
        return {
          id: row.outbox_id!,
          mail: row.mail!,
          enquiry: fromRow(row),
          attempts: row.attempts ?? 0,
          ...(call && { call }),
        };
      }),
    );
  }

  sharedRateLimit() {
    return undefined;
  }

  async addVitals(
    records: readonly NewVitalRecord[],
    {
      counts = [],
      dailyCap = Infinity,
    }: { counts?: readonly VitalsDayCounts[]; dailyCap?: number } = {},
  ) {
    const insert = this.#insertVital!;
    const kept = new Map<string, number>();
    await this.#exclusive(() => {
      for (const r of records) {
        insert.run(
          r.day,
          r.path,
          r.metric,
          r.value,
          r.rating,
          r.navigation,
          r.connection,
          r.device,
          r.build,
          r.target,
          r.phases && JSON.stringify(r.phases),
          r.network,
          r.sample ?? Math.random(),
        );
      }
      const count = this.db.prepare(
        `INSERT INTO vitals_days (day, received, dropped) VALUES (?, ?, ?)
         ON CONFLICT (day) DO UPDATE SET received = received + excluded.received,
           dropped = dropped + excluded.dropped`,
      );
      for (const c of counts) count.run(c.day, c.received, c.dropped);
      for (const day of new Set(records.map((r) => r.day)))
        kept.set(day, this.#keepSample(day, dailyCap));
    });
    return kept;
  }

  /** Trims a day to its `cap` measurements of smallest sample key; the largest key it keeps. */
  #keepSample(day: string, cap: number): number {
    const { n } = this.db.prepare('SELECT count(*) AS n FROM vitals WHERE day = ?').get(day) as {
      n: number;
    };
    if (n <= cap) return 1;
    const { sample } = this.db
      .prepare('SELECT sample FROM vitals WHERE day = ? ORDER BY sample LIMIT 1 OFFSET ?')
      .get(day, cap - 1) as { sample: number };
    this.db.prepare('DELETE FROM vitals WHERE day = ? AND sample > ?').run(day, sample);
    return sample;
  }

  async close() {
    if (this.db.isOpen) this.db.close();
  }
}
