/**
 * The little the store (./store.ts) asks of a database: statements written once with `?`
 * placeholders, rows back, transactions, and the few words in which the two engines' SQL differs.
 * Each engine's driver is its own file (./sqlite.ts, ./postgres/store.ts).
 */
import type { RateLimit } from '../requests/rate-limit.ts';

export interface Db {
  /** The rows a statement returns (none for one that returns none). */
  all(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs a statement; how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Runs `work` in one write transaction, its statements through the `tx` it is handed; committed
   * if it returns, rolled back if it throws. `booking`: also under the lock that bookings and moves
   * are stored under, across processes.
   */
  transaction<T>(work: (tx: Db) => Promise<T>, options?: { lock?: 'booking' }): Promise<T>;
}

/** Where the two engines' SQL differs. */
export interface Dialect {
  /** A date column as 'YYYY-MM-DD' (SQLite keeps it as that text; PostgreSQL as a date). */
  day(column: string): string;
  /** The column that orders a table's rows as they were inserted. */
  insertOrder: string;
  /**
   * Ends a SELECT whose rows of `table` the transaction then changes: locked until it ends
   * (PostgreSQL; SQLite's write transaction holds the whole file already).
   */
  forUpdate(table: string): string;
  /** Ends a SELECT of rows of `table` to claim: those another transaction holds are left to it. */
  skipLocked(table: string): string;
  /** A list of numbers as a parameter (SQLite keeps it as JSON text; PostgreSQL as an array). */
  numbers(list: readonly number[] | null): unknown;
  /** Whether an error is the database refusing a second call of one host at one time. */
  isBookedStartConflict(error: unknown): boolean;
}

/** What an engine gives the store: its port, its dialect, and what only it has. */
export interface Driver {
  db: Db;
  dialect: Dialect;
  /** Where it is, for the server's messages: a file, or a database without its password. */
  description: string;
  /**
   * A long read that must not hold the server's thread (SQLite's, on a connection of its own in a
   * worker: ./read-aside.ts); without it, `db.all` (PostgreSQL's is the server's, not this thread's).
   */
  readAside?(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** A rate limit counted by every process sharing the database (PostgreSQL's). */
  sharedRateLimit?(max: number, windowMs: number): RateLimit;
  close(): Promise<void>;
}

/** A transaction's `tx`: no transaction in it. */
export const noNesting = (): never => {
  throw new Error('A transaction cannot start inside another.');
};
