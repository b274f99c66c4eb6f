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
  /**
   * A booked call's time (a call request that chose one); UTC ISO instants. Spam is stored without
   * it: a time chosen by a bot is not taken (see storedForm).
   */
  call?: { start: string; end: string };
}

export interface StoredEnquiry extends Omit<NewEnquiry, 'call'> {
  id: string;
  createdAt: string;
  /** When the agency's e-mail about it was accepted by the SMTP server. */
  mailedAt: string | null;
  mailAttempts: number;
  /**
   * Which of its e-mails failed for good (it is no longer retried) and why, as 'prospect: 550 …';
   * null if none did.
   */
  mailFailure: string | null;
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

/**
 * A booking that would give one e-mail address (`limit: 'email'`, in any case) or one client
 * (`'client'`, its address) more than `cap` calls booked ahead; nothing was stored.
 */
export class BookingCapReached extends Error {
  readonly limit: 'email' | 'client';
  readonly cap: number;

  constructor(limit: 'email' | 'client', cap: number) {
    super(
      `${limit === 'email' ? 'This e-mail address' : 'This client'} has ${cap} call${cap === 1 ? '' : 's'} booked already.`,
    );
    this.limit = limit;
    this.cap = cap;
  }
}

/**
 * How many calls one e-mail address, and one client, may have booked ahead (not cancelled) at a
 * time, unless the store is opened with another cap (BOOKING_CAP): room for a second call, too
 * little for one visitor to take every free time.
 */
export const DEFAULT_BOOKING_CAP = 2;

export type CancelResult =
  | { status: 'cancelled'; enquiry: StoredEnquiry }
  | { status: 'already'; enquiry: StoredEnquiry }
  | { status: 'unknown' };

/** A rate limit's verdict on one more post from a client. */
export type RateVerdict = { allowed: true } | { allowed: false; retryAfter: number };

export interface RateLimit {
  /** Records a hit if allowed; otherwise says how many seconds until the next one is. */
  hit(client: string, now?: number): RateVerdict | Promise<RateVerdict>;
  /** Takes back the hit recorded at `at` (a post refused for what it says does not count). */
  refund(client: string, at: number): void | Promise<void>;
}

export interface EnquiryStore {
  /** Where it is, for the server's messages: a file, or a database without its password. */
  readonly description: string;
  /** The enquiry stored under an idempotency key, if any. */
  findByKey(key: string): Promise<StoredEnquiry | undefined>;
  /**
   * Stores an enquiry and, when `queueMail` and it is not spam, queues its e-mails; resolves once
   * committed. One whose idempotency key is stored already is not stored again: the one stored
   * first is returned. Spam is stored without its call (storedForm). A booking that would give its
   * e-mail address or its client more future bookings than the store's cap rejects with
   * BookingCapReached; one that overlaps another, with SlotTaken.
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
   * one dies, another takes them over once the lease ends. Never one sent or undeliverable.
   */
  claimDue(now?: number, limit?: number, leaseMs?: number): Promise<OutboxItem[]>;
  /** Gives back claimed entries this process will not send now. */
  release(outboxIds: number[]): Promise<void>;
  markSent(outboxId: number, now?: number): Promise<void>;
  /** A failed attempt worth retrying (the SMTP server is down, say): due again at `nextAttemptAt`. */
  markFailed(outboxId: number, nextAttemptAt: number, error: string): Promise<void>;
  /**
   * A failure no retry can mend (the SMTP server refused the address for good, the e-mail could
   * not be made): the entry is never claimed again, and `reason` is kept for the staff.
   */
  markUndeliverable(outboxId: number, reason: string, now?: number): Promise<void>;
  /** How many outbox entries are undeliverable: mail someone must see to (for /healthz). */
  countUndeliverable(): Promise<number>;
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
  /**
   * The secret that signs booked calls' cancel links when BOOKING_SECRET is not set: made at
   * random on first use and kept in the store, so that every process sharing it, and every restart,
   * signs and checks with the same one. Not for a read-only store that has none yet.
   */
  bookingSecret(): Promise<string>;
  close(): Promise<void>;
}

/** Both stores' query for enquiries, with the delivery of the agency's e-mail about each (SQL of both). */
export const SELECT_ENQUIRIES = `SELECT e.*, o.sent_at, o.attempts,
    (SELECT f.mail || ': ' || coalesce(f.last_error, '') FROM outbox f
      WHERE f.enquiry_id = e.id AND f.undeliverable_at IS NOT NULL ORDER BY f.id LIMIT 1)
      AS mail_failure
  FROM enquiries e
  LEFT JOIN outbox o ON o.enquiry_id = e.id AND o.mail = 'agency'`;

/** The enquiry as the stores keep it: spam without its call, so that it holds no time. */
export function storedForm(enquiry: NewEnquiry): NewEnquiry {
  if (!enquiry.spam || !enquiry.call) return enquiry;
  const { call, ...rest } = enquiry;
  return rest;
}

/** An enquiry (in its storedForm) as stored just now: nothing mailed yet, a booked call not cancelled. */
export function justStored(enquiry: NewEnquiry, id: string, createdAt: string): StoredEnquiry {
  const { call, ...rest } = enquiry;
  return {
    ...rest,
    id,
    createdAt,
    mailedAt: null,
    mailAttempts: 0,
    mailFailure: null,
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

export interface StoreOptions {
  /** For the staff CLI: reads only, and runs no migrations. */
  readOnly?: boolean;
  /**
   * Future bookings allowed per e-mail address and per client (BOOKING_CAP): DEFAULT_BOOKING_CAP
   * unless given; Infinity for no cap.
   */
  bookingCap?: number;
}

/** Opens (and migrates) the configured store. */
export async function openStore(
  { databaseUrl, databasePath }: StoreLocation,
  options: StoreOptions = {},
): Promise<EnquiryStore> {
  if (databaseUrl) {
    const { PostgresStore } = await import('./postgres.ts');
    return PostgresStore.open(databaseUrl, options);
  }
  const { SqliteStore } = await import('./sqlite.ts');
  return new SqliteStore(databasePath, options);
}
