/**
 * The enquiry store on PostgreSQL (DATABASE_URL), shared by any number of server processes:
 *
 * - Migrations (./migrations.ts) are numbered and recorded in schema_migrations; each process runs
 *   the missing ones at start under an advisory lock, so two that start at once do not both run them.
 * - An enquiry and its outbox entries are one statement, hence one transaction; a second post of
 *   an idempotency key finds the first (the unique key decides, whichever process gets it).
 * - Booked calls cannot overlap: an exclusion constraint on the call's time range decides. A
 *   booking is stored in a transaction of its own, under an advisory lock that every process takes
 *   for bookings, so that the count of the bookings ahead of its address and client is exact.
 * - The outbox is claimed with FOR UPDATE SKIP LOCKED and a lease: processes deliver it together,
 *   each entry by one of them, and entries claimed by a process that died are taken over when
 *   their lease ends.
 * - The rate limit (./rate-limit.ts) is a table of hits per client and window, counted by every
 *   process.
 */
import pg from 'pg';
import { migrate } from './migrations.ts';
import { noNesting, type Db } from '../db.ts';
import { SharedStore } from '../shared.ts';
import { sharedRateLimit } from './rate-limit.ts';
import {
  DEFAULT_BOOKING_CAP,
  DEFAULT_NETWORK_CAP,
  OUTBOX_CLAIM_BATCH,
  OUTBOX_LEASE_MS,
} from '../../config.ts';
import type { RateLimit } from '../../requests/rate-limit.ts';
import {
  CALLS_AHEAD,
  HOST_HAS_CALL,
  INSERT_OUTBOX,
  SELECT_ENQUIRIES,
  bookingCapReached,
  candidateHosts,
  confirmedAtOf,
  justStored,
  mailCallOf,
  mailsOnCommit,
  numbered,
  queuedMailParameters,
  storedForm,
  type BookingCaps,
  type CallAhead,
  type MailCallColumns,
  type MailCountColumns,
  type QueuedMail,
  fromRow,
} from '../sql.ts';
import {
  SlotTaken,
  type EnquiryKind,
  type EnquiryStore,
  type MailKind,
  type NewEnquiry,
  type OutboxItem,
  type StoreOptions,
  type StoredEnquiry,
  type NewVitalRecord,
  type VitalRecord,
  type VitalsDayCounts,
} from '../types.ts';

/** The advisory lock that bookings are stored under, one at a time across processes. */
const BOOKING_LOCK = 7_110_214_772;

interface Row extends Partial<MailCallColumns>, MailCountColumns {
  id: string;
  kind: EnquiryKind;
  created_at: Date;
  name: string;
  email: string;
  data: Record<string, string | string[]>;
  client_ip: string;
  user_agent: string;
  spam: boolean;
  idempotency_key: string | null;
  call_start: Date | null;
  call_end: Date | null;
  call_cancelled_at: Date | null;
  call_host: string | null;
  call_sequence: number;
  call_moves: number;
  call_confirmed_at: Date | null;
  call_lapsed_at: Date | null;
  sent_at: string | null;
  attempts: number | null;
  mail_failure?: string | null;
  outbox_id?: string;
  mail?: MailKind;
}

/**
 * Enquiries and their outbox entries, in one statement (one transaction): the columns come as
 * arrays, one element per enquiry. The ids returned are those stored; one whose idempotency key
 * was taken (before, or earlier in the same batch) is not.
 */
const INSERT = `WITH input AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[],
      $6::jsonb[], $7::text[], $8::text[], $9::boolean[], $10::text[], $11::timestamptz[],
      $12::timestamptz[], $13::text[], $14::text[], $15::timestamptz[])
      AS t (id, kind, created_at, name, email, data, client_ip, user_agent, spam, idempotency_key,
        call_start, call_end, call_host, mails, call_confirmed_at)
  ), e AS (
    INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent, spam,
      idempotency_key, call_start, call_end, call_host, call_confirmed_at)
    SELECT id, kind, created_at, name, email, data, client_ip, user_agent, spam, idempotency_key,
      call_start, call_end, call_host, call_confirmed_at FROM input
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id
  ), o AS (
    INSERT INTO outbox (enquiry_id, mail, next_attempt_at)
    SELECT e.id, m.mail, $16 FROM e JOIN input USING (id)
      CROSS JOIN unnest(string_to_array(input.mails, ',')) AS m (mail)
  )
  SELECT id FROM e`;

interface Pending {
  enquiry: NewEnquiry;
  queueMail: boolean;
  /** A booking's host, chosen under the booking lock. */
  host?: string | null;
  resolve(stored: StoredEnquiry): void;
  reject(error: unknown): void;
}

const CLAIM = `WITH claimed AS (
    UPDATE outbox SET leased_until = $1::bigint + $3::bigint
    WHERE id IN (
      SELECT id FROM outbox
      WHERE sent_at IS NULL AND undeliverable_at IS NULL AND skipped_at IS NULL
        AND next_attempt_at <= $1
        AND (leased_until IS NULL OR leased_until <= $1)
      ORDER BY next_attempt_at, id LIMIT $2
      FOR UPDATE SKIP LOCKED)
    RETURNING id, enquiry_id, mail, attempts, sent_at, next_attempt_at, sequence, remind_minutes,
      host, start_at, end_at, previous_start_at, previous_end_at, changed_by, change_reason
  )
  SELECT e.*, c.id AS outbox_id, c.mail, c.attempts, c.sent_at, c.sequence, c.remind_minutes,
    c.host, c.start_at, c.end_at, c.previous_start_at, c.previous_end_at, c.changed_by,
    c.change_reason
  FROM claimed c JOIN enquiries e ON e.id = c.enquiry_id
  ORDER BY c.next_attempt_at, c.id`;

/** The unique index of a host's booked starts refused a row (the booking lock should come first). */
const isBookedStartViolation = (error: unknown) =>
  (error as { code?: string; constraint?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === 'enquiries_booked_call';

/** The database, without its password, for messages. */
function describe(url: string) {
  const { hostname, port, pathname } = new URL(url);
  return `the PostgreSQL database ${decodeURIComponent(pathname.slice(1))} on ${hostname}:${port || 5432}`;
}

/**
 * Runs `work` in a transaction on a connection of its own; a connection whose rollback fails is
 * dropped, not handed to the next caller. `booking`: under the lock bookings are stored under.
 */
async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  lock?: 'booking',
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    if (lock === 'booking') await client.query('SELECT pg_advisory_xact_lock($1)', [BOOKING_LOCK]);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback));
    throw error;
  } finally {
    client.release(broken);
  }
}

/** The port of ../db.ts on a pool: each statement named, so that every connection prepares it once. */
function postgresDb(pool: pg.Pool): Db {
  const names = new Map<string, string>();
  const on = (client: pg.Pool | pg.PoolClient) => {
    const query = (sql: string, params: readonly unknown[] = []) => {
      let name = names.get(sql);
      if (!name) names.set(sql, (name = `shared-${names.size}`));
      return client.query({ name, text: numbered(sql), values: [...params] });
    };
    return {
      all: async (sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows,
      run: async (sql: string, params?: readonly unknown[]) =>
        (await query(sql, params)).rowCount ?? 0,
    };
  };
  return {
    ...on(pool),
    transaction: (work, options) =>
      inTransaction(
        pool,
        (client) => work({ ...on(client), transaction: noNesting }),
        options?.lock,
      ),
  };
}

export class PostgresStore extends SharedStore implements EnquiryStore {
  readonly description: string;
  readonly pool: pg.Pool;
  readonly #timers: ReturnType<typeof setInterval>[] = [];
  readonly #caps: BookingCaps;

  private constructor(url: string, readOnly: boolean, caps: BookingCaps) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      // With the database gone, a request waits this long for a connection, then gets a 503.
      connectionTimeoutMillis: 3000,
      statement_timeout: 10_000,
      keepAlive: true,
      ...(readOnly && { options: '-c default_transaction_read_only=on' }),
    });
    super(postgresDb(pool), {
      day: (column) => `to_char(${column}, 'YYYY-MM-DD')`,
      insertOrder: 'seq',
      lockEnquiry: ' FOR UPDATE OF e',
      skipLocked: ' FOR UPDATE SKIP LOCKED',
      isBookedStartConflict: isBookedStartViolation,
    });
    this.pool = pool;
    this.description = describe(url);
    this.#caps = caps;
    // A connection the server dropped (a restart, a failover): the pool opens another when needed.
    this.pool.on('error', (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  }

  /** Connects and runs the missing migrations (not for `readOnly`, the staff CLI's use). */
  static async open(
    url: string,
    {
      readOnly = false,
      bookingCap = DEFAULT_BOOKING_CAP,
      networkCap = bookingCap === Infinity ? Infinity : DEFAULT_NETWORK_CAP,
    }: StoreOptions = {},
  ): Promise<PostgresStore> {
    const store = new PostgresStore(url, readOnly, { bookingCap, networkCap });
    try {
      if (!readOnly) await store.#migrate();
      else await store.pool.query('SELECT 1');
      return store;
    } catch (error) {
      await store.pool.end().catch(() => {});
      throw error;
    }
  }

  async #migrate() {
    await this.#transaction(migrate);
  }

  #transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, work);
  }

  async #one(query: pg.QueryConfig, client: pg.Pool | pg.PoolClient = this.pool) {
    const { rows } = await client.query<Row>(query);
    return rows[0] && fromRow(rows[0]);
  }

  findByKey(key: string, client: pg.Pool | pg.PoolClient = this.pool) {
    return this.#one(
      { name: 'by-key', text: `${SELECT_ENQUIRIES} WHERE e.idempotency_key = $1`, values: [key] },
      client,
    );
  }

  #pending: Pending[] = [];

  /**
   * Enquiries that arrive in the same turn of the event loop are stored by one statement (group
   * commit, as on SQLite: one round trip and one WAL flush for them all); each promise resolves
   * after that statement committed. Bookings, which are few, are stored one at a time (#book).
   */
  commit(enquiry: NewEnquiry, queueMail: boolean): Promise<StoredEnquiry> {
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => void this.#flush());
      this.#pending.push({ enquiry: storedForm(enquiry), queueMail, resolve, reject });
    });
  }

  /** This process's bookings, one after another: they wait for one lock anyway, on one connection. */
  #bookings = Promise.resolve();

  async #flush() {
    const batch = this.#pending;
    this.#pending = [];
    for (const item of batch.filter(({ enquiry }) => enquiry.call)) {
      this.#bookings = this.#bookings.then(() => this.#book(item));
    }
    const rest = batch.filter(({ enquiry }) => !enquiry.call);
    if (rest.length === 0) return;
    let stored: (StoredEnquiry | undefined)[];
    try {
      stored = await this.#insert(rest, Date.now(), this.pool);
    } catch (error) {
      for (const item of rest) item.reject(error);
      return;
    }
    for (const [i, item] of rest.entries()) {
      const enquiry = stored[i];
      if (enquiry) item.resolve(enquiry);
      else this.#storedFirst(item.enquiry, this.pool).then(item.resolve, item.reject);
    }
  }

  /**
   * Stores a booking in a transaction of its own, under the lock that every process takes for
   * bookings: the calls booked ahead of its e-mail address and its client are counted with no other
   * booking coming in between, and it is refused beyond the cap. Settles its promise; never throws.
   */
  async #book(item: Pending) {
    const { enquiry } = item;
    try {
      const stored = await inTransaction(
        this.pool,
        async (client) => {
          // A repeat of a booking is answered with the one stored, not counted against the cap.
          const earlier =
            enquiry.idempotencyKey && (await this.findByKey(enquiry.idempotencyKey, client));
          if (earlier) return earlier;
          const now = Date.now();
          const { rows } = await client.query<CallAhead>({
            name: 'calls-ahead',
            text: numbered(CALLS_AHEAD),
            values: [new Date(now).toISOString()],
          });
          const reached = bookingCapReached(rows, enquiry, this.#caps);
          if (reached) throw reached;
          // Under the lock, no other booking comes between this look and the insert: the first
          // candidate with no call then takes it.
          const call = enquiry.call!;
          let host: string | null | undefined;
          for (const candidate of candidateHosts(call)) {
            const { rowCount } = await client.query({
              name: 'host-has-call',
              text: numbered(HOST_HAS_CALL),
              values: [call.end, call.start, candidate, candidate],
            });
            if (!rowCount) {
              host = candidate;
              break;
            }
          }
          if (host === undefined) throw new SlotTaken();
          // Its e-mails (with the reminders, of columns the batch insert has not) are queued apart.
          const [inserted] = await this.#insert([{ ...item, host, queueMail: false }], now, client);
          if (!inserted) return await this.#storedFirst(enquiry, client);
          if (item.queueMail && !enquiry.spam)
            await this.#queue(client, inserted.id, mailsOnCommit(enquiry, host, now));
          return inserted;
        },
        'booking',
      );
      item.resolve(stored);
    } catch (error) {
      item.reject(isBookedStartViolation(error) ? new SlotTaken() : error);
    }
  }

  /** The enquiry stored first under the idempotency key of one that was therefore not stored. */
  async #storedFirst(enquiry: NewEnquiry, client: pg.Pool | pg.PoolClient) {
    // Stored by this process or another, whichever got the key first: that one is the answer.
    const earlier = await this.findByKey(enquiry.idempotencyKey!, client);
    if (!earlier) throw new Error('An enquiry was neither stored nor found.');
    return earlier;
  }

  /**
   * Stores enquiries and their outbox entries by one statement: what was stored, in order, with
   * undefined for one whose idempotency key was stored first.
   */
  async #insert(
    batch: Pending[],
    now: number,
    client: pg.Pool | pg.PoolClient,
  ): Promise<(StoredEnquiry | undefined)[]> {
    const createdAt = new Date(now).toISOString();
    const rows = batch.map(({ enquiry, queueMail, host }) => ({
      id: crypto.randomUUID(),
      enquiry,
      host: host ?? null,
      mails:
        !queueMail || enquiry.spam
          ? ''
          : mailsOnCommit(enquiry, host ?? null, now)
              .map(({ mail }) => mail)
              .join(','),
    }));
    const column = <T>(pick: (row: (typeof rows)[number]) => T) => rows.map(pick);
    const { rows: inserted } = await client.query<{ id: string }>({
      name: 'insert-enquiries',
      text: INSERT,
      values: [
        column((r) => r.id),
        column((r) => r.enquiry.kind),
        column(() => createdAt),
        column((r) => r.enquiry.name),
        column((r) => r.enquiry.email),
        column((r) => JSON.stringify(r.enquiry.data)),
        column((r) => r.enquiry.clientIp),
        column((r) => r.enquiry.userAgent),
        column((r) => r.enquiry.spam),
        column((r) => r.enquiry.idempotencyKey ?? null),
        column((r) => r.enquiry.call?.start ?? null),
        column((r) => r.enquiry.call?.end ?? null),
        column((r) => r.host),
        column((r) => r.mails),
        column((r) => confirmedAtOf(r.enquiry, createdAt)),
        now,
      ],
    });
    const stored = new Set(inserted.map((row) => row.id));
    return rows.map(({ id, enquiry, host }) =>
      stored.has(id) ? justStored(enquiry, id, createdAt, host) : undefined,
    );
  }

  /** Queues e-mails of enquiry `id` in the transaction of `client`. */
  async #queue(client: pg.PoolClient, id: string, mails: QueuedMail[]) {
    for (const mail of mails)
      await client.query({
        name: 'insert-outbox',
        text: numbered(INSERT_OUTBOX),
        values: queuedMailParameters(id, mail),
      });
  }

  async claimDue(
    now = Date.now(),
    limit = OUTBOX_CLAIM_BATCH,
    leaseMs = OUTBOX_LEASE_MS,
  ): Promise<OutboxItem[]> {
    const { rows } = await this.pool.query<Row>({
      name: 'claim-due',
      text: CLAIM,
      values: [now, limit, leaseMs],
    });
    return rows.map((row) => {
      const call = mailCallOf(row as MailCallColumns);
      return {
        id: Number(row.outbox_id),
        mail: row.mail!,
        enquiry: fromRow(row),
        attempts: row.attempts ?? 0,
        ...(call && { call }),
      };
    });
  }

  sharedRateLimit(max: number, windowMs: number): RateLimit {
    const { limit, sweep } = sharedRateLimit(this.pool, max, windowMs);
    this.#timers.push(sweep);
    return limit;
  }

  async addVitals(
    records: readonly NewVitalRecord[],
    {
      counts = [],
      dailyCap = Infinity,
    }: { counts?: readonly VitalsDayCounts[]; dailyCap?: number } = {},
  ) {
    // One statement for the batch: a column of values each, unnested into rows.
    const column = <K extends keyof VitalRecord>(key: K) => records.map((r) => r[key]);
    const kept = new Map<string, number>();
    await this.#transaction(async (client) => {
      if (records.length) await this.#insertVitals(client, records, column);
      if (counts.length)
        await client.query({
          name: 'count-vitals',
          text: `INSERT INTO vitals_days AS v (day, received, dropped)
            SELECT d::date, r, x FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS u(d, r, x)
            ON CONFLICT (day) DO UPDATE SET received = v.received + excluded.received,
              dropped = v.dropped + excluded.dropped`,
          values: [
            counts.map((c) => c.day),
            counts.map((c) => c.received),
            counts.map((c) => c.dropped),
          ],
        });
      for (const day of new Set(records.map((r) => r.day))) {
        const { rows } = await client.query<{ n: number }>({
          name: 'count-day-vitals',
          text: 'SELECT count(*)::int AS n FROM vitals WHERE day = $1::date',
          values: [day],
        });
        if (rows[0]!.n <= dailyCap) {
          kept.set(day, 1);
          continue;
        }
        const { rows: last } = await client.query<{ sample: number }>({
          name: 'day-sample-edge',
          text: 'SELECT sample FROM vitals WHERE day = $1::date ORDER BY sample LIMIT 1 OFFSET $2',
          values: [day, dailyCap - 1],
        });
        const edge = last[0]!.sample;
        await client.query({
          name: 'trim-day-vitals',
          text: 'DELETE FROM vitals WHERE day = $1::date AND sample > $2',
          values: [day, edge],
        });
        kept.set(day, edge);
      }
    });
    return kept;
  }

  /** The batch's rows in one statement: a column of values each, unnested into rows. */
  async #insertVitals(
    client: pg.PoolClient,
    records: readonly NewVitalRecord[],
    column: <K extends keyof VitalRecord>(key: K) => VitalRecord[K][],
  ) {
    await client.query({
      name: 'add-vitals',
      text: `INSERT INTO vitals (day, path, metric, value, rating, navigation, connection, device,
          build, target, phases, network, sample)
        SELECT d::date, p, m, v, r, n, c, dv, b, t,
          CASE WHEN ph IS NULL THEN NULL ELSE string_to_array(ph, ',')::float8[] END, nw, s
        FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::text[], $6::text[],
          $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::float8[])
          AS u(d, p, m, v, r, n, c, dv, b, t, ph, nw, s)`,
      values: [
        column('day'),
        column('path'),
        column('metric'),
        column('value'),
        column('rating'),
        column('navigation'),
        column('connection'),
        column('device'),
        column('build'),
        column('target'),
        records.map((r) => r.phases?.join(',') ?? null),
        column('network'),
        records.map((r) => r.sample ?? Math.random()),
      ],
    });
  }

  #closed = false;

  async close() {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    await this.pool.end();
  }
}
