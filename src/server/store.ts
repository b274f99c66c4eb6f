/**
 * The enquiry store: what the enquiry endpoints, the outbox, /healthz and the staff CLI need of it,
 * with two implementations. SQLite (./store-sqlite.ts, a file on this machine) is the default;
 * DATABASE_URL=postgres://... switches to PostgreSQL (./store-postgres.ts), which any number of
 * server processes share: one store, one outbox, one rate limit. Either way an enquiry and its
 * outbox entries are written in one transaction, and the caller answers only after it committed.
 */
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
  /** A booked call's time (a call request that chose one); UTC ISO instants. */
  call?: { start: string; end: string };
}

export interface StoredEnquiry extends Omit<NewEnquiry, 'call'> {
  id: string;
  createdAt: string;
  /** When the agency's e-mail about it was accepted by the SMTP server. */
  mailedAt: string | null;
  mailAttempts: number;
  call?: { start: string; end: string; cancelledAt: string | null };
}

/**
 * The e-mails an enquiry causes: the agency's notice of it; for a booked call, the prospect's
 * confirmation too; when it is cancelled, a cancellation to each.
 */
export type MailKind = 'agency' | 'prospect' | 'agency-cancel' | 'prospect-cancel';

export interface OutboxItem {
  /** The outbox entry: one per e-mail. */
  id: number;
  mail: MailKind;
  enquiry: StoredEnquiry;
  attempts: number;
}

/** The slot of a booking overlaps a call booked already; nothing was stored. */
export class SlotTaken extends Error {
  constructor() {
    super('That time was just taken.');
  }
}

export type CancelResult =
  | { status: 'cancelled'; enquiry: StoredEnquiry }
  | { status: 'already'; enquiry: StoredEnquiry }
  | { status: 'unknown' };

/** A rate limit's verdict on one more post from a client. */
export type RateVerdict = { allowed: true } | { allowed: false; retryAfter: number };

export interface RateLimit {
  /** Records a hit if allowed; otherwise says how many seconds until the next one is. */
  hit(client: string, now?: number): RateVerdict | Promise<RateVerdict>;
}

export interface EnquiryStore {
  /** Where it is, for the server's messages: a file, or a database without its password. */
  readonly description: string;
  /** The enquiry stored under an idempotency key, if any. */
  findByKey(key: string): Promise<StoredEnquiry | undefined>;
  /**
   * Stores an enquiry and, when `queueMail` and it is not spam, queues its e-mails; resolves once
   * committed. One whose idempotency key is stored already is not stored again: the one stored
   * first is returned. A booking that overlaps another rejects with SlotTaken.
   */
  commit(enquiry: NewEnquiry, queueMail: boolean): Promise<StoredEnquiry>;
  findById(id: string): Promise<StoredEnquiry | undefined>;
  /** The calls booked (and not cancelled) that overlap an interval of UTC ISO instants. */
  bookedBetween(from: string, to: string): Promise<{ start: string; end: string }[]>;
  /**
   * Cancels a booked call: frees its time and, when `queueMail`, queues a cancellation to the
   * agency and the prospect. Cancelling one already cancelled changes nothing.
   */
  cancelCall(id: string, queueMail: boolean, now?: number): Promise<CancelResult>;
  /**
   * Outbox entries whose (next) attempt is due, claimed for this process until `leaseMs` has
   * passed or it marks them: no other process sharing the store gets them meanwhile, and if this
   * one dies, another takes them over once the lease ends.
   */
  claimDue(now?: number, limit?: number, leaseMs?: number): Promise<OutboxItem[]>;
  /** Gives back claimed entries this process will not send now. */
  release(outboxIds: number[]): Promise<void>;
  markSent(outboxId: number, now?: number): Promise<void>;
  markFailed(outboxId: number, nextAttemptAt: number, error: string): Promise<void>;
  /** Every enquiry, oldest first. */
  all(): Promise<StoredEnquiry[]>;
  count(): Promise<number>;
  /** A real write, so that a read-only file, a full disk or a database gone shows as unhealthy. */
  isWritable(): Promise<boolean>;
  /**
   * A rate limit that every process sharing this store counts together; undefined when the store
   * is this process's own (SQLite), where a limit in memory does the same for less.
   */
  sharedRateLimit(max: number, windowMs: number): RateLimit | undefined;
  close(): Promise<void>;
}

/** Both stores' query for enquiries, with the delivery of the agency's e-mail about each (SQL of both). */
export const SELECT_ENQUIRIES = `SELECT e.*, o.sent_at, o.attempts FROM enquiries e
  LEFT JOIN outbox o ON o.enquiry_id = e.id AND o.mail = 'agency'`;

/** An enquiry as stored just now: nothing mailed yet, and a booked call not cancelled. */
export function justStored(enquiry: NewEnquiry, id: string, createdAt: string): StoredEnquiry {
  const { call, ...rest } = enquiry;
  return {
    ...rest,
    id,
    createdAt,
    mailedAt: null,
    mailAttempts: 0,
    ...(call && { call: { ...call, cancelledAt: null } }),
  };
}

let lastReport = 0;
let unreported = 0;

/**
 * Says in the server's log that the store failed (a database that is down): one line, and at most
 * one every 10 s while it keeps failing, since a load balancer asks /healthz every few seconds and
 * the outbox polls every second.
 */
export function reportStoreFailure(error: unknown, now = Date.now()) {
  if (now - lastReport < 10_000) {
    unreported++;
    return;
  }
  const more = unreported ? ` (${unreported} more failures since the last report)` : '';
  console.error(
    `The enquiry store failed: ${error instanceof Error ? error.message : String(error)}${more}`,
  );
  lastReport = now;
  unreported = 0;
}

/** Where the store is: DATABASE_URL (PostgreSQL) when set, else the SQLite file. */
export interface StoreLocation {
  databaseUrl?: string | undefined;
  databasePath: string;
}

/** Opens (and migrates) the configured store. `readOnly` is for the staff CLI. */
export async function openStore(
  { databaseUrl, databasePath }: StoreLocation,
  { readOnly = false } = {},
): Promise<EnquiryStore> {
  if (databaseUrl) {
    const { PostgresStore } = await import('./store-postgres.ts');
    return PostgresStore.open(databaseUrl, { readOnly });
  }
  const { SqliteStore } = await import('./store-sqlite.ts');
  return new SqliteStore(databasePath, { readOnly });
}
