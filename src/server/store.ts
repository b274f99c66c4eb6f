/**
 * The enquiry store: SQLite through node:sqlite, in WAL mode. An enquiry and
 * its outbox entry are written in one transaction, and the caller answers
 * only after it has committed, so an acknowledged enquiry survives a crash.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';

export type EnquiryKind = 'enquiry' | 'call';

export interface NewEnquiry {
  kind: EnquiryKind;
  name: string;
  email: string;
  /** The validated fields, as the form sent them. */
  data: Record<string, string | string[]>;
  clientIp: string;
  userAgent: string;
  /** Caught by the honeypot: kept for review, never mailed. */
  spam: boolean;
  /**
   * Made on the visitor's device, once per submission: a retry, a double tap or a replay from the
   * device's queue carries the same key, and the store keeps the enquiry once.
   */
  idempotencyKey?: string;
}

export interface StoredEnquiry extends NewEnquiry {
  id: string;
  createdAt: string;
  mailedAt: string | null;
  mailAttempts: number;
}

export interface OutboxItem {
  enquiry: StoredEnquiry;
  attempts: number;
}

/** Versioned schema changes; PRAGMA user_version records how many have run. Append, never edit. */
const migrations: string[] = [
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
];

interface Row {
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
  sent_at: number | null;
  attempts: number | null;
}

const fromRow = (row: Row): StoredEnquiry => ({
  id: row.id,
  kind: row.kind,
  createdAt: row.created_at,
  name: row.name,
  email: row.email,
  data: JSON.parse(row.data),
  clientIp: row.client_ip,
  userAgent: row.user_agent,
  spam: row.spam === 1,
  ...(row.idempotency_key === null ? {} : { idempotencyKey: row.idempotency_key }),
  mailedAt: row.sent_at === null ? null : new Date(row.sent_at).toISOString(),
  mailAttempts: row.attempts ?? 0,
});

const SELECT = `SELECT e.*, o.sent_at, o.attempts FROM enquiries e LEFT JOIN outbox o ON o.enquiry_id = e.id`;

export class EnquiryStore {
  readonly db: DatabaseSync;
  readonly #insertEnquiry: StatementSync;
  readonly #insertOutbox: StatementSync;
  readonly #byKey: StatementSync;
  readonly #due: StatementSync;
  readonly #sent: StatementSync;
  readonly #failed: StatementSync;
  readonly #health: StatementSync;

  /** `readOnly` opens an existing store for reading only, as the staff CLI does. */
  constructor(path: string, { readOnly = false } = {}) {
    if (path !== ':memory:' && !readOnly) mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path, { readOnly });
    // NORMAL is durable against a crash of the process (kill -9); FULL would add a sync per commit
    // for power loss, at several times the cost.
    this.db.exec(`PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;`);
    if (!readOnly) {
      this.db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`);
      this.#migrate();
    }
    this.#insertEnquiry = this.db.prepare(
      `INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent, spam, idempotency_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#byKey = this.db.prepare(`${SELECT} WHERE e.idempotency_key = ?`);
    this.#insertOutbox = this.db.prepare(
      `INSERT INTO outbox (enquiry_id, next_attempt_at) VALUES (?, ?)`,
    );
    this.#due = this.db.prepare(
      `${SELECT} WHERE o.sent_at IS NULL AND o.next_attempt_at <= ? ORDER BY o.next_attempt_at LIMIT ?`,
    );
    this.#sent = this.db.prepare(
      `UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE enquiry_id = ?`,
    );
    this.#failed = this.db.prepare(
      `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE enquiry_id = ?`,
    );
    this.#health = this.db.prepare(
      `INSERT INTO health (id, checked_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at`,
    );
  }

  #migrate() {
    const { user_version: version } = this.db.prepare('PRAGMA user_version').get() as {
      user_version: number;
    };
    for (let next = version; next < migrations.length; next++) {
      this.#transaction(() => {
        this.db.exec(migrations[next]!);
        this.db.exec(`PRAGMA user_version = ${next + 1}`);
      });
    }
  }

  #transaction<T>(work: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** The enquiry stored under an idempotency key, if any. */
  findByKey(key: string): StoredEnquiry | undefined {
    const row = this.#byKey.get(key) as unknown as Row | undefined;
    return row && fromRow(row);
  }

  /**
   * Stores an enquiry and, unless it is spam, queues its e-mail; returns once committed. An enquiry
   * whose idempotency key is already stored is not stored again: the one stored first is returned.
   */
  add(enquiry: NewEnquiry, queueMail: boolean, now = Date.now()): StoredEnquiry {
    return this.#transaction(() => this.#insert(enquiry, queueMail, now));
  }

  #pending: {
    enquiry: NewEnquiry;
    queueMail: boolean;
    done: (result: StoredEnquiry | Error) => void;
  }[] = [];

  /**
   * Like `add`, but enquiries that arrive in the same turn of the event loop
   * share one transaction (group commit). Each promise resolves only after
   * that transaction has committed, so the answer still follows the commit.
   */
  commit(enquiry: NewEnquiry, queueMail: boolean): Promise<StoredEnquiry> {
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => this.#flush());
      this.#pending.push({
        enquiry,
        queueMail,
        done: (r) => (r instanceof Error ? reject(r) : resolve(r)),
      });
    });
  }

  #flush() {
    const batch = this.#pending;
    this.#pending = [];
    const now = Date.now();
    let stored: StoredEnquiry[];
    try {
      stored = this.#transaction(() =>
        batch.map(({ enquiry, queueMail }) => this.#insert(enquiry, queueMail, now)),
      );
    } catch (error) {
      for (const { done } of batch) done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    batch.forEach(({ done }, i) => done(stored[i]!));
  }

  #insert(enquiry: NewEnquiry, queueMail: boolean, now: number): StoredEnquiry {
    // Inside the write transaction, so that two posts of one key cannot both get past this.
    const earlier = enquiry.idempotencyKey ? this.findByKey(enquiry.idempotencyKey) : undefined;
    if (earlier) return earlier;
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
    );
    if (queueMail && !enquiry.spam) this.#insertOutbox.run(id, now);
    return { ...enquiry, id, createdAt, mailedAt: null, mailAttempts: 0 };
  }

  /** Outbox entries whose (next) attempt is due. */
  due(now = Date.now(), limit = 20): OutboxItem[] {
    return (this.#due.all(now, limit) as unknown as Row[]).map((row) => ({
      enquiry: fromRow(row),
      attempts: row.attempts ?? 0,
    }));
  }

  markSent(id: string, now = Date.now()) {
    this.#sent.run(now, id);
  }

  markFailed(id: string, nextAttemptAt: number, error: string) {
    this.#failed.run(nextAttemptAt, error.slice(0, 500), id);
  }

  /** Every enquiry, oldest first. */
  all(): StoredEnquiry[] {
    return (
      this.db.prepare(`${SELECT} ORDER BY e.created_at, e.rowid`).all() as unknown as Row[]
    ).map(fromRow);
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM enquiries').get() as { n: number }).n;
  }

  /** A real write, so that a read-only file or a full disk shows as unhealthy. */
  isWritable(): boolean {
    try {
      this.#health.run(Date.now());
      return true;
    } catch {
      return false;
    }
  }

  close() {
    if (this.db.isOpen) this.db.close();
  }
}
