/**
 * The little the store asks of a database (./shared.ts, ./calendar-copies.ts): statements written
 * once with `?` placeholders, rows back, and the few words in which the two engines' SQL differ.
 * Each engine's driver is beside its store (./sqlite.ts, ./postgres/store.ts).
 */
export interface Db {
  /** The rows a statement returns (none for one that returns none). */
  all(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs a statement; how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** Where the two engines' SQL differs. */
export interface Dialect {
  /** A date column as 'YYYY-MM-DD' (SQLite keeps it as that text; PostgreSQL as a date). */
  day(column: string): string;
  /** The column that orders a table's rows as they were inserted. */
  insertOrder: string;
}
