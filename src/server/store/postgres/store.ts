/**
 * The store on PostgreSQL (DATABASE_URL), shared by any number of server processes. This file is
 * its driver (the store itself is ../store.ts):
 *
 * - The steps of ../migrations.ts are recorded in schema_migrations; each process runs the missing
 *   ones at start under an advisory lock, so two that start at once do not both run them.
 * - Bookings and moves are stored under an advisory lock that every process takes for them, so
 *   that the calls ahead of an address are counted, and a host's time looked at, with no other
 *   booking coming in between; a host's booked starts are unique besides.
 * - Rows to claim (jobs, calls to lapse) are read FOR UPDATE SKIP LOCKED: processes claim together,
 *   each row by one of them.
 * - The rate limit (./rate-limit.ts) is a table of hits per client and window, counted by every
 *   process.
 */
import pg from 'pg';
import { noNesting, type Db, type Driver } from '../db.ts';
import { runCodeStep, stepsOf } from '../migrations.ts';
import { numbered } from '../sql.ts';
import { Store } from '../store.ts';
import type { StoreOptions } from '../types.ts';
import { sharedRateLimit } from './rate-limit.ts';
import { log } from '../../log.ts';
import { withoutNul } from '../../safe-text.ts';

/** The advisory lock that migrations run under (an arbitrary number, the same in every process). */
const MIGRATION_LOCK = 7_110_214_771;
/** The advisory lock that bookings are stored under, one at a time across processes. */
const BOOKING_LOCK = 7_110_214_772;

/** The unique index of a host's booked starts refused a row (another process booked it first). */
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
  // A connection lost while this transaction holds it (the database restarted) is told as an
  // 'error' of its client, which, unheard, would end the process: it is dropped at its release.
  const lost = (error: Error) => (broken = error);
  client.on('error', lost);
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
    client.off('error', lost);
    client.release(broken);
  }
}

/** The port of ../db.ts on a pool: each statement named, so that every connection prepares it once. */
function postgresDb(pool: pg.Pool): Db {
  const names = new Map<string, string>();
  const on = (client: pg.Pool | pg.PoolClient) => {
    // A transaction's connection takes one statement at a time: pg queues one sent while another
    // runs (deprecated; pg 9 refuses it), and the store's steps may ask side by side.
    let last: Promise<unknown> = Promise.resolve();
    const query = (sql: string, params: readonly unknown[] = []) => {
      let name = names.get(sql);
      if (!name) names.set(sql, (name = `store-${names.size}`));
      // (A value with a NUL, which PostgreSQL refuses, as ../../safe-text.ts's withoutNul says.)
      const values = params.map((value) => (typeof value === 'string' ? withoutNul(value) : value));
      const send = () => client.query({ name, text: numbered(sql), values });
      if (client instanceof pg.Pool) return send();
      const sent = last.then(send, send);
      last = sent.catch(() => {});
      return sent;
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

/** Runs the steps of ../migrations.ts this database lacks, in the transaction `client` has open. */
async function migrate(client: pg.PoolClient) {
  // No statement limit here: the wait for another process's migration, and a step over a large
  // table, took longer, and the store never opened.
  await client.query('SET LOCAL statement_timeout = 0');
  await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const { rows } = await client.query<{ version: number }>(
    'SELECT coalesce(max(version), 0) AS version FROM schema_migrations',
  );
  const steps = stepsOf('postgres');
  for (let next = rows[0]!.version; next < steps.length; next++) {
    const step = steps[next]!;
    if (typeof step === 'string') await client.query(step);
    else
      await runCodeStep(
        step,
        async ({ sql, params }) => (await client.query(numbered(sql), params)).rows,
      );
    await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [next + 1]);
  }
}

/** Connects to `url` and runs the missing migrations (not for `readOnly`, the staff CLI's use). */
export async function postgresDriver(
  url: string,
  { readOnly = false, statementTimeoutMs = 10_000 }: StoreOptions = {},
): Promise<Driver> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // With the database gone, a request waits this long for a connection, then gets a 503.
    connectionTimeoutMillis: 3000,
    statement_timeout: statementTimeoutMs,
    keepAlive: true,
    ...(readOnly && { options: '-c default_transaction_read_only=on' }),
  });
  // A connection the server dropped (a restart, a failover): the pool opens another when needed.
  pool.on('error', (error) => log.warn(`PostgreSQL connection lost: ${error.message}`));
  try {
    if (readOnly) await pool.query('SELECT 1');
    else await inTransaction(pool, migrate);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const sweeps: ReturnType<typeof setInterval>[] = [];
  let closed = false;
  return {
    db: postgresDb(pool),
    dialect: {
      day: (column) => `to_char(${column}, 'YYYY-MM-DD')`,
      insertOrder: 'seq',
      forUpdate: (table) => ` FOR UPDATE OF ${table}`,
      skipLocked: (table) => ` FOR UPDATE OF ${table} SKIP LOCKED`,
      numbers: (list) => list,
      isBookedStartConflict: isBookedStartViolation,
    },
    description: describe(url),
    sharedRateLimit(max, windowMs) {
      const { limit, sweep } = sharedRateLimit(pool, max, windowMs);
      sweeps.push(sweep);
      return limit;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const sweep of sweeps) clearInterval(sweep);
      await pool.end();
    },
  };
}

/** The store on the PostgreSQL database at a URL. */
export class PostgresStore extends Store {
  /** Connects and runs the missing migrations (not for `readOnly`, the staff CLI's use). */
  static async open(url: string, options: StoreOptions = {}): Promise<PostgresStore> {
    return new PostgresStore(await postgresDriver(url, options));
  }
}
