/**
 * The store on SQLite (node:sqlite), in WAL mode: the default, a file on this machine for one
 * server process. This file is its driver: the connection, its transactions and its dialect; the
 * store itself is ./store.ts.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { privateFile } from '../private-files.ts';
import { noNesting, type Db, type Driver } from './db.ts';
import { runCodeStep, stepsOf } from './migrations.ts';
import { readAside } from './read-aside.ts';
import { Store } from './store.ts';
import type { StoreOptions } from './types.ts';

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
 * transactions take turns, and a statement from outside waits for the one open: no other flow's
 * statement ever runs inside it.
 */
function sqliteDb(db: DatabaseSync): Db {
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const all = (sql: string, params: readonly unknown[] = []) =>
    prepared(sql).all(...(params as SQLInputValue[])) as Record<string, unknown>[];
  const run = (sql: string, params: readonly unknown[] = []) =>
    Number(prepared(sql).run(...(params as SQLInputValue[])).changes);
  const inside: Db = {
    all: async (sql, params) => all(sql, params),
    run: async (sql, params) => run(sql, params),
    transaction: noNesting,
  };
  // Every statement and transaction from outside takes its turn on the one connection, in the
  // order asked. (A flag that waiters polled let two of them wake together when a transaction
  // ended, and the second one's BEGIN failed inside the first's: "cannot start a transaction
  // within a transaction", seen with two processes on one file, whose waits for each other's lock
  // spread the turns out.)
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(step: () => Promise<T>): Promise<T> => {
    const result = turn.then(step);
    turn = result.catch(() => {});
    return result;
  };
  return {
    all: (sql, params) => inTurn(() => whenFree(() => all(sql, params))),
    run: (sql, params) => inTurn(() => whenFree(() => run(sql, params))),
    // One write transaction holds the whole file: the booking lock is that.
    transaction: (work) =>
      inTurn(async () => {
        await whenFree(() => db.exec('BEGIN IMMEDIATE'));
        try {
          const result = await work(inside);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      }),
  };
}

/** Runs the steps of ./migrations.ts this file lacks; PRAGMA user_version counts those run. */
function migrate(db: DatabaseSync) {
  const { user_version: version } = db.prepare('PRAGMA user_version').get() as {
    user_version: number;
  };
  const steps = stepsOf('sqlite');
  // At start, before anything else can use the connection.
  for (let next = version; next < steps.length; next++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const step = steps[next]!;
      if (typeof step === 'string') db.exec(step);
      else
        runCodeStep(step, ({ sql, params }) => db.prepare(sql).all(...(params as SQLInputValue[])));
      db.exec(`PRAGMA user_version = ${next + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

/** Opens (and, unless `readOnly`, migrates) the SQLite file at `path`. */
export function sqliteDriver(
  path: string,
  { readOnly = false }: StoreOptions = {},
): Driver & { file: DatabaseSync } {
  // Visitors' data: a new file is 0600 in a folder 0700 (its -wal and -shm take its mode).
  if (path !== ':memory:' && !readOnly) privateFile(path);
  const db = new DatabaseSync(path, { readOnly });
  // NORMAL is durable against a crash of the process (kill -9); FULL would add a sync per commit
  // for power loss, at several times the cost.
  db.exec(`PRAGMA busy_timeout = ${BUSY_MS}; PRAGMA foreign_keys = ON;`);
  if (!readOnly) {
    db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;`);
    migrate(db);
  }
  // Opened (and migrated, waiting as SQLite waits): from now on a write waits on the event loop
  // (whenFree), never holding the thread.
  db.exec('PRAGMA busy_timeout = 0');
  return {
    file: db,
    db: sqliteDb(db),
    dialect: {
      day: (column) => column,
      insertOrder: 'rowid',
      forUpdate: () => '',
      skipLocked: () => '',
      numbers: (list) => list && JSON.stringify(list),
      isBookedStartConflict: () => false,
    },
    // A file's own (not one in memory, which no other connection can open).
    ...(path !== ':memory:' && {
      readAside: (sql: string, params?: readonly unknown[]) => readAside(path, sql, params),
    }),
    description: `the SQLite file ${path}`,
    async close() {
      if (db.isOpen) db.close();
    },
  };
}

/** The store on the SQLite file at `path`. */
export class SqliteStore extends Store {
  /** The connection, for what only SQLite has (its pragmas). */
  readonly db: DatabaseSync;

  constructor(path: string, options: StoreOptions = {}) {
    const driver = sqliteDriver(path, options);
    super(driver);
    this.db = driver.file;
  }

  /**
   * SQLite keeps a deleted row's bytes in its page, and the page's old copies in the write-ahead
   * log, until they are written over: zeroed here (secure_delete), and the log emptied, so that no
   * key is left in the file or in a backup of it.
   */
  override async forgetLegacySecrets() {
    this.db.exec('PRAGMA secure_delete = ON');
    try {
      await super.forgetLegacySecrets();
    } finally {
      this.db.exec('PRAGMA secure_delete = OFF');
    }
    this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  }
}
