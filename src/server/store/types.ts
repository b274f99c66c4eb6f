/**
 * The store's records and ports: what the enquiry endpoints, the bookings, the queue of jobs,
 * /healthz and the staff CLI need of a store. Written once (./store.ts) over two engines: SQLite
 * (./sqlite.ts, a file on this machine, the default) and PostgreSQL (./postgres/store.ts,
 * DATABASE_URL), which any number of server processes share: one store, one queue, one rate limit.
 * Either way an enquiry and its jobs are written in one transaction, and the caller answers only
 * after it committed. ./index.ts opens one.
 */
import { processWide } from '../process-wide.ts';
import type { RateLimit } from '../requests/rate-limit.ts';
import type { CalendarCopies } from './calendar-copies.ts';
import type { CalendarWrites } from './calendar-writes.ts';
import type { StaffRecords } from './staff.ts';
import type { DeskList } from '../../domain/staff.ts';
import type { ReleaseRecords } from './releases.ts';
import type { ConnectionType, DeviceClass, MetricName, Rating } from '../../domain/vitals.ts';

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
   * it: a time chosen by a bot is not taken (see storedForm). `hosts`: who may take it, in the order
   * to give it (free in their hours and calendars when the request was read); the store gives it
   * to the first with no call then. None: a call with no host, which holds every host's time.
   */
  call?: {
    start: string;
    end: string;
    hosts?: readonly string[];
    /** How long before the call its reminders go out, in minutes (availability.yaml's `reminders`). */
    reminders?: readonly number[];
    /**
     * Stored as confirmed at once: when e-mail is off, no link can reach the prospect to confirm
     * it. Otherwise the call waits for the prospect's confirmation (confirmCall).
     */
    confirmed?: boolean;
    /**
     * At most this many calls not yet confirmed may be booked ahead (BOOKING_UNCONFIRMED_SHARE of
     * the offered window's times): an unconfirmed booking past it is refused (BookingCapReached,
     * 'unconfirmed'). None: no such cap.
     */
    maxUnconfirmed?: number;
  };
}

/** A booked call as the free times see it: its time and host (null: it holds every host). */
export interface BookedCall {
  /** The enquiry it was booked with. */
  id: string;
  start: string;
  end: string;
  host: string | null;
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
  call?: StoredCall;
  /** Its e-mails, counted (as the store lists enquiries): sent, waiting (reminders too), failed. */
  mails?: { sent: number; waiting: number; failed: number };
  /** Marked handled on the staff's desk: by whom (their address), when. */
  handled?: { at: string; by: string };
}

/** A booked call as stored: its time and host now, and how it got there. */
export interface StoredCall {
  start: string;
  end: string;
  cancelledAt: string | null;
  host: string | null;
  /**
   * The calendar event's SEQUENCE: 0 as booked, one more each time it is moved or cancelled, so
   * that every calendar holding it takes the latest e-mail's version over the earlier ones.
   */
  sequence: number;
  /** How many times it has been moved. */
  moves: number;
  /** The time it was last moved from; absent if it never was (or was moved before this was kept). */
  movedFrom?: string;
  /** Who made its last move; absent if it never moved (or the move's record is lost: store step 28). */
  movedBy?: CallMover;
  /** When its last move was made; absent if it never moved, or moved before this was kept (step 29). */
  movedAt?: string;
  /** The member who made its last move from the desk (their address); absent for any other mover. */
  movedByMember?: string;
  /**
   * When the prospect confirmed it with the link of its e-mail (or when it was booked, with e-mail
   * off); null while it waits. Calls booked before confirmation existed count as confirmed.
   */
  confirmedAt: string | null;
  /**
   * When it was released because its prospect had not confirmed it within BOOKING_CONFIRM_MINUTES
   * of booking (cancelledAt is then the same instant: its time is free, as a cancelled call's);
   * null otherwise.
   */
  lapsedAt: string | null;
  /** Who cancelled it (a member's address, 'staff' from the CLI, 'prospect'), and why if said. */
  cancelledBy?: string | null;
  cancelReason?: string | null;
  /** A past call marked held or a no-show on the desk: by whom (their address), when. */
  outcome?: CallOutcome;
  /** Its mark taken off (Unmark), none standing since: by whom, when (kept since the desk says so). */
  unmarked?: { by: string; at: string };
}

/** What a member may mark a past call. */
export type OutcomeKind = 'held' | 'no-show';

/** What became of a past call, as a member marked it. */
export interface CallOutcome {
  kind: OutcomeKind;
  by: string;
  at: string;
}

/** A call's last change of mark: marked held or a no-show, or unmarked (null); by whom, when. */
export interface MarkChange extends Omit<CallOutcome, 'kind'> {
  kind: OutcomeKind | null;
}

/** Who cancels a call: a member's address, 'staff' (the CLI) or 'prospect'; why, if said. */
export interface CancelledBy {
  by: string;
  reason?: string;
}

/**
 * A call's cancellation as the store writes it (StoreTx.cancelCall): when, and who cancelled it
 * (and why, if said), or that it lapsed unconfirmed, which no one did.
 */
export type CallCancellation = { at: number } & (CancelledBy | { lapsed: true });

/** Who moves a call: the prospect, with its change link, or the staff (the desk, the CLI). */
export type CallMover = 'prospect' | 'staff';

/** A call's move as the store keeps it: by whom (the member too, from the desk), and when (epoch ms). */
export interface MoveMade {
  by: CallMover;
  member?: string;
  at: number;
}

/** A move or cancellation the staff made (`npm run enquiries -- --move/--cancel`), and why if said. */
export interface CallChange {
  by: 'staff';
  /** One line, as safe-text's headerText leaves it (the CLI's --reason). */
  reason?: string;
  /** The member who made it, as the staff's e-mails name them: their name, else their address. */
  who?: string;
}

/**
 * A job's kind: which handler runs it (../jobs/queue.ts). Checked in code, a short name when queued
 * and a handler when run, so that a new kind needs no change of the schema.
 */
export type JobKind = string;

/**
 * Which jobs a queue claims: of one kind only, or of every kind but those named `prefix…` (a
 * publish's build, a minute long, runs in a queue of its own so that e-mails are not held up
 * behind it, and only on the machine of its draft).
 */
export type JobKinds =
  { only: JobKind; exceptPrefix?: undefined } | { exceptPrefix: string; only?: undefined };

/**
 * Durable work to queue in a store transaction: its kind, when it is due, and what its kind needs
 * (`payload`, kept as JSON; each kind types its own, e.g. ../mail/mail-jobs.ts's MailPayload).
 */
export interface QueuedJob<Payload = unknown> {
  kind: JobKind;
  dueAt: number;
  payload?: Payload;
}

/** A job claimed from the queue. */
export interface Job<Payload = unknown> {
  /** One per job (per e-mail of an enquiry). */
  id: number;
  kind: JobKind;
  /** The enquiry it is about, if any. */
  enquiry?: StoredEnquiry;
  attempts: number;
  /** What its kind needs, as queued (none if it was queued without). */
  payload?: Payload;
  /** When this claim's lease ends: the claim it is (another process's takes a lease of its own). */
  leasedUntil: number;
}

/**
 * Where a job stands: done (`sent`, for an e-mail), given up for good (`failed`), dropped or skipped
 * unrun (`dropped`), claimed and running under a lease now (`running`, one dropped meanwhile too:
 * it may still be done), or due to run (`waiting`).
 */
export type JobState = 'sent' | 'failed' | 'dropped' | 'running' | 'waiting';

/** One of an enquiry's jobs, as queued, and where it stands. */
export interface JobRecord<Payload = unknown> {
  id: number;
  kind: JobKind;
  payload?: Payload;
  state: JobState;
}

/** A call booked ahead, as the caps count it. */
export interface CallAhead {
  email: string;
  clientIp: string;
  confirmed: boolean;
}

/**
 * What a write transaction may read and write (EnquiryStore.transaction): each method one or two
 * statements, deciding nothing (../booking/calls.ts decides).
 */
export interface StoreTx {
  /** The enquiry `id`, locked until the transaction ends. */
  enquiry(id: string): Promise<StoredEnquiry | undefined>;
  enquiryByKey(key: string): Promise<StoredEnquiry | undefined>;
  /** The calls booked after `now`, not cancelled. */
  callsAhead(now: number): Promise<CallAhead[]>;
  /**
   * Whether `host` has no call (and no call of no host holds them) overlapping [start, end), other
   * than enquiry `except`'s; a host of null: whether no call at all does.
   */
  hostIsFree(host: string | null, start: string, end: string, except?: string): Promise<boolean>;
  /**
   * Stores an enquiry (its call with `host`) and queues its jobs; undefined, and nothing stored,
   * when its idempotency key is stored already. A call whose host has a call at its start (another
   * process got there first) throws SlotTaken.
   */
  insertEnquiry(
    enquiry: NewEnquiry,
    host: string | null,
    now: number,
    jobs: readonly QueuedJob[],
  ): Promise<StoredEnquiry | undefined>;
  /** A call's new time and host, and who moved it when; its sequence and moves one up. */
  moveCall(
    id: string,
    to: { start: string; end: string; host: string },
    made: MoveMade,
  ): Promise<void>;
  /** A call cancelled (or, `lapsed`, released unconfirmed); its sequence one up. */
  cancelCall(id: string, cancellation: CallCancellation): Promise<void>;
  /** A call confirmed at `at`, if it waits, is not cancelled and has not begun: whether it was. */
  confirmCall(id: string, at: number): Promise<boolean>;
  /**
   * The calls still unconfirmed and not begun at `now` whose prospect was sent (or could not be
   * sent) their e-mail with its link (`mails`) at `cutoff` or before, none still waiting to go: oldest first,
   * `limit` at most; locked, leaving to another transaction those it holds.
   */
  unconfirmedDue(
    cutoff: number,
    now: number,
    limit: number,
    /** The kinds of job that send that e-mail. */
    mails: readonly JobKind[],
  ): Promise<StoredEnquiry[]>;
  /**
   * Drops the jobs of `kinds` about enquiry `id` not done yet: never claimed again, `reason` kept.
   * One running keeps its lease, so that it shows as running until it is done or not (jobsOf).
   */
  dropJobs(id: string, kinds: readonly JobKind[], reason: string, now: number): Promise<void>;
  /** Queues jobs, about enquiry `id` if given. */
  queue(jobs: readonly QueuedJob[], id?: string): Promise<void>;
  /** A staff member's last sign-in links (./staff.ts recentLinks). */
  recentStaffLinks: StaffRecords['recentLinks'];
  /** A sign-in link kept, unless another took its place (./staff.ts addLink). */
  addStaffLink: StaffRecords['addLink'];
}

/** Every host the booking could go to has a call then (or none was free); nothing was stored. */
export const SlotTaken = processWide(
  'SlotTaken',
  () =>
    class SlotTaken extends Error {
      constructor() {
        super('That time was just taken.');
      }
    },
);
export type SlotTaken = InstanceType<typeof SlotTaken>;

/** Which cap refused a booking. */
export type BookingLimit = 'email' | 'client' | 'network' | 'unconfirmed';

/**
 * A booking that would give one e-mail address (`limit: 'email'`, in any case), one client
 * (`'client'`: its address, an IPv6 client's /64) or one wider network (`'network'`: an IPv4 /24,
 * an IPv6 /48) more than `cap` calls booked ahead, or the calls not yet confirmed more than their
 * share of the offered window's times (`'unconfirmed'`, `cap` of them); nothing was stored.
 */
export const BookingCapReached = processWide(
  'BookingCapReached',
  () =>
    class BookingCapReached extends Error {
      readonly limit: BookingLimit;
      readonly cap: number;

      constructor(limit: BookingLimit, cap: number) {
        const who = {
          email: 'This e-mail address',
          client: 'This client',
          network: 'This network',
          unconfirmed: 'The site',
        };
        super(
          `${who[limit]} has ${cap} call${cap === 1 ? '' : 's'}${limit === 'unconfirmed' ? ' waiting to be confirmed' : ''} booked already.`,
        );
        this.limit = limit;
        this.cap = cap;
      }
    },
);
export type BookingCapReached = InstanceType<typeof BookingCapReached>;

/** When the agency is told that bookings come in faster than people book (BOOKING_ALERT_PER_HOUR). */
export interface BookingAlertRule {
  /** More calls than this booked within the last hour call for the alert. */
  perHour: number;
  /** At most one alert within this long (6 hours), across every process sharing the store. */
  quietMs: number;
}

/**
 * One Core Web Vitals measurement of a real visit, as kept: nothing that names the visitor (no
 * address, no user agent, no identifier), the page path only if the build has it (else OTHER_PATH),
 * the day, not the time, and a short key of the network it came from, which names no network.
 */
export interface VitalRecord {
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  path: string;
  metric: MetricName;
  value: number;
  rating: Rating;
  navigation: string;
  connection: ConnectionType;
  device: DeviceClass;
  /** The build that served the page (src/integrations/build-identity.ts). */
  build: string;
  /** LCP's element or INP's target, as a short selector. */
  target: string | null;
  /** INP's input delay, processing and presentation delay, in ms. */
  phases: [number, number, number] | null;
  /**
   * The network it came from (an IPv4 /24, an IPv6 /48) as a key of 4 hex digits, a keyed hash
   * (../vitals/recorder.ts networkKey): enough for /speed to give each network one say in a figure
   * (../vitals/figure.ts), while each key stands for some 256 IPv4 networks and countless IPv6 ones, so it names
   * none. Null for a measurement stored before keys were kept: a network of its own.
   */
  network: string | null;
}

/**
 * A measurement to store, with its sample key: a number drawn uniformly from [0, 1) when it came
 * in. A day keeps the `dailyCap` measurements of smallest key, a uniform random sample of all the
 * day's (however they were spread over it); a store gives one a key of its own when it has none.
 */
export type NewVitalRecord = VitalRecord & { sample?: number };

/** What a day's beacons came to, besides the measurements stored: how many came in, and were dropped. */
export interface VitalsDayCounts {
  day: string;
  /** Measurements that came in (past the gate for posts): stored, sampled out or dropped. */
  received: number;
  /** Measurements dropped: a network over its share of the day, the queue full, a write failed. */
  dropped: number;
}

/** A day's counts, with the measurements it keeps (`received - dropped - kept` were sampled out). */
export interface VitalsDay extends VitalsDayCounts {
  kept: number;
}

/** What field data's percentiles can be split by. */
export type VitalsKey = 'day' | 'path' | 'metric' | 'connection' | 'device' | 'network';

/** One split's p75 and count (EnquiryStore.vitalsP75). */
export type VitalsP75<K extends VitalsKey> = { [key in K]: VitalRecord[key] & string } & {
  p75: number;
  samples: number;
};

/** Field data (src/server/vitals/), kept in the same store as the enquiries. */
export interface VitalsStore {
  /**
   * Stores measurements, and adds to their days' counts, in one transaction; then a day over
   * `dailyCap` keeps its `dailyCap` measurements of smallest sample key. Resolves to each day's key
   * at or under which a measurement is still kept (1 while the day is under its cap).
   */
  addVitals(
    records: readonly NewVitalRecord[],
    options?: { counts?: readonly VitalsDayCounts[]; dailyCap?: number },
  ): Promise<Map<string, number>>;
  /** Deletes the measurements and counts of days before `day` ('YYYY-MM-DD'); resolves to how many measurements. */
  pruneVitals(day: string): Promise<number>;
  /** The measurements of `day` and after, oldest day first. */
  vitalsSince(day: string): Promise<VitalRecord[]>;
  /**
   * The measurements of the days from `from` to `to`, in the order stored, `pageSize` at a time: a
   * window of any size is never read whole (the CSV of `npm run vitals`).
   */
  vitalsPages(from: string, to: string, pageSize?: number): AsyncGenerator<VitalRecord[]>;
  /**
   * The nearest-rank p75 and the count of the measurements of `day` and after (to `to`, if given),
   * per value of the columns `by` (of `metrics` alone, if given), worked out by the database: the
   * desk, /speed and the report read a few hundred rows however many measurements the window holds.
   * A measurement without a network key is a network of its own.
   */
  vitalsP75<K extends VitalsKey>(
    day: string,
    by: readonly K[],
    options?: { metrics?: readonly MetricName[]; to?: string },
  ): Promise<VitalsP75<K>[]>;
  /** The counts of `day` and after that have any, oldest first. */
  vitalsDaysSince(day: string): Promise<VitalsDay[]>;
  /**
   * The secret the measurements' network keys are made with: made at random on first use and kept,
   * so that every process, and the same process after a restart, gives a network the same key.
   */
  vitalsSecret(): Promise<string>;
}

export interface EnquiryStore extends VitalsStore {
  /** Where it is, for the server's messages: a file, or a database without its password. */
  readonly description: string;
  /** The hosts' calendar feeds as last read. */
  readonly calendarCopies: CalendarCopies;
  /** The calls' events as written into the hosts' calendars (CALENDAR_WRITE). */
  readonly calendarWrites: CalendarWrites;
  /** The staff desk's links, sessions, passkeys and audit log. */
  readonly staff: StaffRecords;
  /** The desk's paged lists, search, notes and marks (./staff-queries.ts). */
  readonly desk: StaffQueries;
  /** Publishing's publishes and releases (./releases.ts). */
  readonly releases: ReleaseRecords;
  /**
   * The key a store of an older version kept to sign the staff's links (`staff`) or a booked
   * call's (`booking`), if it still holds it: now in key files (../private-files.ts signingKeys).
   */
  legacySecret(name: 'booking' | 'staff'): Promise<string | undefined>;
  /**
   * Deletes those keys, so that neither the store nor its backups hold a key that signs anyone in
   * (SQLite: nor the deleted rows' bytes in its pages or its log).
   */
  forgetLegacySecrets(): Promise<void>;
  /**
   * Runs `work` in one write transaction, committed if it returns and rolled back if it throws.
   * `booking`: also under the lock that bookings and moves are stored under, across processes.
   */
  transaction<T>(work: (tx: StoreTx) => Promise<T>, options?: { lock?: 'booking' }): Promise<T>;
  /**
   * Stores an enquiry with no call and queues its `jobs`; resolves once committed. Enquiries that
   * arrive in the same turn of the event loop share one transaction. One whose idempotency key is
   * stored already is not stored again: the one stored first is returned.
   */
  commit(enquiry: NewEnquiry, jobs: readonly QueuedJob[]): Promise<StoredEnquiry>;
  /** The enquiry stored under an idempotency key, if any. */
  findByKey(key: string): Promise<StoredEnquiry | undefined>;
  findById(id: string): Promise<StoredEnquiry | undefined>;
  /** The enquiries whose id begins with `reference` (lower case), as the desk shows it: two at most. */
  findByReference(reference: string): Promise<StoredEnquiry[]>;
  /** The calls booked (and not cancelled) that overlap an interval of UTC ISO instants. */
  bookedBetween(from: string, to: string): Promise<BookedCall[]>;
  /** How many calls were booked after an instant (cancelled ones too: they were booked). */
  bookedSince(instant: number): Promise<number>;
  /** When the site last sent the alert `name` (epoch ms), if ever. */
  lastAlert(name: string): Promise<number | undefined>;
  /**
   * Records `now` as the last alert `name` if it is still `last` (compare and set): of processes
   * that read the same last alert, one claims the next. Whether this one did.
   */
  claimAlert(name: string, now: number, last: number | undefined): Promise<boolean>;
  /**
   * Jobs whose (next) attempt is due, claimed for this process until `leaseMs` has passed or it
   * marks them: no other process sharing the store gets them meanwhile, and if this one dies,
   * another takes them over once the lease ends. Never one done, failed for good or skipped.
   */
  claimDue(now?: number, limit?: number, leaseMs?: number, kind?: JobKinds): Promise<Job[]>;
  /**
   * Gives back claimed jobs this process will not run now: each only while its claim's lease is
   * still the job's, never one another process took over once that lease ended.
   */
  release(jobs: readonly Pick<Job, 'id' | 'leasedUntil'>[]): Promise<void>;
  /** A job done (an e-mail accepted by the SMTP server): never claimed again. */
  markDone(jobId: number, now?: number): Promise<void>;
  /** A failed attempt worth retrying (the SMTP server is down, say): due again at `nextAttemptAt`. */
  markRetry(jobId: number, nextAttemptAt: number, error: string): Promise<void>;
  /**
   * A failure no retry can mend (the SMTP server refused the address for good, the e-mail could
   * not be made): the job is never claimed again, and `reason` is kept for the staff.
   */
  markFailed(jobId: number, reason: string, now?: number): Promise<void>;
  /** A job that is not to run after all (a reminder of a call since moved): never claimed again. */
  markSkipped(jobId: number, reason: string, now?: number): Promise<void>;
  /**
   * The jobs of `kinds` about enquiry `id`, in the order queued, each where it stands at `now`:
   * which of a call's e-mails a host was sent, say (../mail/mail-item.ts hostCalendar).
   */
  jobsOf(id: string, kinds: readonly JobKind[], now: number): Promise<JobRecord[]>;
  /** How many jobs failed for good: work someone must see to (for /healthz). */
  countFailed(): Promise<number>;
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
/** Where the store is: DATABASE_URL (PostgreSQL) when set, else the SQLite file. */
export interface StoreLocation {
  databaseUrl?: string | undefined;
  databasePath: string;
}

export interface StoreOptions {
  /** For the staff CLI: reads only, and runs no migrations. */
  readOnly?: boolean;
  /** PostgreSQL: how long a statement may run (10 s; the tests' own, shorter). */
  statementTimeoutMs?: number;
}

/* The staff desk's reads and marks (./staff-queries.ts). */

/** What the desk asks for: a list, narrowed, a page of it. */
export interface DeskQuery {
  list: DeskList;
  /**
   * Words typed: each found at the beginning of a word of the name, of the e-mail (whole, either
   * half, or a part between its dots and dashes) or of the reference, whatever the case.
   */
  text?: string;
  /** A host's id: their calls only. */
  host?: string;
  /** From this instant (inclusive) to that one (exclusive): the call's start, or the arrival. */
  from?: string;
  to?: string;
  offset: number;
  limit: number;
  /** What is ahead and what is past, in epoch ms. */
  now: number;
}

/** A member's note as stored: on enquiry `enquiryId`, by `author` (their address). */
export interface StoredNote {
  enquiryId: string;
  author: string;
  at: number;
  body: string;
}

/** Where a page of the CSV ended: the next starts after it. */
export interface ExportCursor {
  createdAt: string;
  order: number;
}

/** A host as the desk names them: their id in availability.yaml, and their name. */
export interface KnownHost {
  id: string;
  name: string;
}

export interface StaffQueries {
  /** A page of a list, in the list's order (calls by their time, enquiries newest first). */
  list(query: DeskQuery): Promise<StoredEnquiry[]>;
  /** The notes of these enquiries, oldest first each. */
  notesOf(ids: readonly string[]): Promise<Map<string, StoredNote[]>>;
  /** A note on an enquiry; false when there is no such enquiry. */
  addNote(note: StoredNote): Promise<boolean>;
  /**
   * A call begun by `now` and not cancelled marked `to` (held or a no-show) by `by`, or unmarked
   * (null), only if its mark is still `shown` (the member's page's; null: none): a colleague's
   * meanwhile is kept. Whether it changed: false for no such call, a mark other than `shown`, or
   * one that is `to` already.
   */
  markOutcome(
    id: string,
    mark: { shown: OutcomeKind | null; to: OutcomeKind | null },
    by: string,
    now: number,
  ): Promise<boolean>;
  /** Enquiries marked handled by `by` at `now`, those not handled yet: the ids it marked. */
  markAllHandled(ids: readonly string[], by: string, now: number): Promise<string[]>;
  /** The live site's hosts, by id and name, kept (a name changed) for when a publish removes one. */
  rememberHosts(hosts: readonly KnownHost[]): Promise<void>;
  /** The hosts kept but not among `live` who have a call (booked, cancelled or past), by name. */
  formerHosts(live: readonly string[]): Promise<KnownHost[]>;
  /** Every enquiry (spam too), in the order stored, `limit` after `after`; where it ended. */
  exportPage(
    after: ExportCursor | undefined,
    limit: number,
  ): Promise<{ rows: StoredEnquiry[]; next: ExportCursor | undefined }>;
}
