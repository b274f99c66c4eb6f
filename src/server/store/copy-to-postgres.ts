/**
 * Copies a SQLite store into an empty PostgreSQL database (`npm run store:copy`, ../copy-store.ts):
 * the move of a live site onto PostgreSQL. Generic over the schema, so that a table added later is
 * copied with no change here: the target is migrated with the site's own steps (./migrations.ts),
 * then every table of the migrated schema that SQLite has too is filled from it, column by column,
 * in one transaction, converting what the engines keep differently (0/1 to booleans, JSON text to
 * arrays, a NUL character, which PostgreSQL cannot keep, to U+FFFD; PostgreSQL parses the rest
 * from text). Its sequences are set past the ids copied, and the rows counted on both sides before
 * it commits. SQLite is read in one read transaction, a consistent snapshot, so the copy may run
 * while the server writes (what comes after the snapshot is not in it: stop the server for the
 * switch).
 */
import { existsSync } from 'node:fs';
import { DatabaseSync, type SQLOutputValue } from 'node:sqlite';
import type { Db, Driver } from './db.ts';
import { stepsOf } from './migrations.ts';
import { postgresDriver } from './postgres/store.ts';
import { withoutNul } from '../safe-text.ts';

/** A refusal or a failure, said in a sentence with no password and no visitor's data. */
export class CopyError extends Error {}

/** A table's rows in the source (undefined: PostgreSQL's own, e.g. the rate limit) and the target. */
export interface TableCount {
  table: string;
  source: number | undefined;
  target: number;
  /** Values whose NUL characters, which PostgreSQL cannot keep, became U+FFFD. */
  cleaned?: number;
}

export interface CopyResult {
  /** Where the copy went: the database without its password. */
  target: string;
  tables: TableCount[];
  /** Every table holds as many rows as its source: committed. Otherwise rolled back. */
  matches: boolean;
}

/** Rows sent by one INSERT at most (fewer for a wide table: PostgreSQL takes 65535 parameters). */
const BATCH_ROWS = 500;
const MAX_PARAMETERS = 60_000;
/** The migrations' own record: made by the target's migration, never copied. */
const OWN_TABLES = new Set(['schema_migrations']);

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface SourceTable {
  name: string;
  columns: string[];
  /** A rowid table, read in the order its rows were inserted (PostgreSQL's serials then follow it). */
  rowid: boolean;
  rows: number;
}

interface TargetColumn {
  name: string;
  type: string;
  /** The sequence behind a serial or identity column. */
  sequence: string | null;
}

type TargetTables = Map<string, TargetColumn[]>;

/** The SQLite store at `path`, opened to read only, of this site's current schema. */
function openSource(path: string): DatabaseSync {
  if (!existsSync(path)) throw new CopyError(`There is no SQLite store at ${path}.`);
  // Not opened read-only: a read-only connection cannot open a WAL file whose server has stopped.
  // query_only keeps this connection from writing anything all the same.
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path);
  } catch (error) {
    throw new CopyError(`${path} cannot be opened: ${(error as Error).message}`);
  }
  try {
    db.exec('PRAGMA query_only = ON; PRAGMA busy_timeout = 5000');
    const { user_version: version } = db.prepare('PRAGMA user_version').get() as {
      user_version: number;
    };
    const current = stepsOf('sqlite').length;
    const enquiries = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'enquiries'")
      .get();
    if (!enquiries || version === 0) throw new CopyError(`${path} is not a store of this site.`);
    if (version > current)
      throw new CopyError(
        `${path} was made by a newer version of the site (schema ${version}, this one's is ${current}): copy with that version.`,
      );
    if (version < current)
      throw new CopyError(
        `${path} is at schema ${version}, this version of the site at ${current}: start this version's server on it once (it brings the store up to date), then copy.`,
      );
    return db;
  } catch (error) {
    db.close();
    if (error instanceof CopyError) throw error;
    throw new CopyError(`${path} is not a SQLite store: ${(error as Error).message}`);
  }
}

/** The source's tables and their row counts, read in the transaction the caller has begun. */
function sourceTables(db: DatabaseSync): Map<string, SourceTable> {
  const tables = db
    .prepare(
      `SELECT name, wr FROM pragma_table_list
       WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`,
    )
    .all() as { name: string; wr: number }[];
  return new Map(
    tables.map(({ name, wr }) => {
      const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all(name) as {
        name: string;
      }[];
      const { n } = db.prepare(`SELECT count(*) AS n FROM ${quoted(name)}`).get() as { n: number };
      return [name, { name, columns: columns.map((c) => c.name), rowid: wr === 0, rows: n }];
    }),
  );
}

/** The tables of the target's current schema, with their columns' types and sequences. */
async function targetTables(db: Pick<Db, 'all'>): Promise<TargetTables> {
  const rows = await db.all(
    `SELECT c.table_name, c.column_name, c.data_type,
       pg_get_serial_sequence(quote_ident(c.table_schema) || '.' || quote_ident(c.table_name),
         c.column_name) AS sequence
     FROM information_schema.columns c
     JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const tables: TargetTables = new Map();
  for (const row of rows) {
    const table = row.table_name as string;
    if (OWN_TABLES.has(table)) continue;
    if (!tables.has(table)) tables.set(table, []);
    tables.get(table)!.push({
      name: row.column_name as string,
      type: row.data_type as string,
      sequence: row.sequence as string | null,
    });
  }
  return tables;
}

/** The target's tables that hold a row. */
async function heldTables(db: Pick<Db, 'all'>, tables: TargetTables): Promise<string[]> {
  const held: string[] = [];
  for (const table of tables.keys()) {
    const [row] = await db.all(`SELECT EXISTS (SELECT 1 FROM ${quoted(table)}) AS held`);
    if (row!.held) held.push(table);
  }
  return held;
}

const refuseHeld = (held: string[]) => {
  if (held.length)
    throw new CopyError(
      `The target already holds data (in ${held.join(', ')}): copy into an empty database, never over a store in use.`,
    );
};

/** Refuses before anything is written when the source holds a table or column the target lacks. */
function checkFits(source: Map<string, SourceTable>, target: TargetTables) {
  const missing: string[] = [];
  for (const table of source.values()) {
    const columns = target.get(table.name);
    if (!columns) missing.push(`table ${table.name}`);
    else
      for (const column of table.columns)
        if (!columns.some((c) => c.name === column)) missing.push(`${table.name}.${column}`);
  }
  if (missing.length)
    throw new CopyError(
      `The PostgreSQL schema has no place for ${missing.join(', ')} of the SQLite store: nothing was copied.`,
    );
}

/** The target's tables, each after the tables its foreign keys point to. */
async function inKeyOrder(db: Pick<Db, 'all'>, tables: TargetTables): Promise<string[]> {
  const keys = await db.all(
    `SELECT child.relname AS child, parent.relname AS parent
     FROM pg_constraint k
     JOIN pg_class child ON child.oid = k.conrelid
     JOIN pg_class parent ON parent.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = child.relnamespace
     WHERE k.contype = 'f' AND n.nspname = current_schema()`,
  );
  const parents = (table: string) =>
    keys.filter((k) => k.child === table && k.parent !== table).map((k) => k.parent as string);
  const ordered: string[] = [];
  const left = [...tables.keys()].sort();
  while (left.length) {
    const next = left.findIndex((table) => parents(table).every((p) => ordered.includes(p)));
    // A cycle of keys: take the rest as they come (PostgreSQL refuses a row it breaks).
    ordered.push(...left.splice(next === -1 ? 0 : next, next === -1 ? left.length : 1));
  }
  return ordered;
}

/**
 * PostgreSQL keeps no NUL character in text, nor `\u0000` in JSON, where SQLite kept what a
 * visitor sent: each becomes U+FFFD, and the values so changed are counted.
 */
const NUL = '\u0000';
type Cleaned = { values: number };

function textWithoutNul(text: string, cleaned: Cleaned) {
  const kept = withoutNul(text);
  if (kept !== text) cleaned.values++;
  return kept;
}

/** JSON text whose strings hold no NUL (its keys are the site's own). */
function jsonWithoutNul(text: string, cleaned: Cleaned) {
  if (!text.includes('\\u0000')) return text;
  let changed = false;
  const json = JSON.stringify(
    JSON.parse(text, (_, value) => {
      if (typeof value !== 'string' || !value.includes(NUL)) return value;
      changed = true;
      return withoutNul(value);
    }),
  );
  if (changed) cleaned.values++;
  return json;
}

/**
 * SQLite's 0/1 in `column` (or a boolean written as text) as a boolean; any other value refuses the
 * copy. Text is read by its words: `Number('false')` is NaN, which is not 0, so it read as true.
 */
const booleanOf = (column: string) => (value: SQLOutputValue) => {
  if (value === null) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0;
  const text = String(value).trim().toLowerCase();
  if (['1', 't', 'true'].includes(text)) return true;
  if (['0', 'f', 'false'].includes(text)) return false;
  // The value is not said: a refusal names no data (CopyError).
  throw new Error(
    `${column} holds a value that is neither true nor false (not 0, 1, true or false).`,
  );
};

/** A source value as PostgreSQL takes it for a column of `type` (pg sends the rest as text). */
function converter(
  { name, type }: TargetColumn,
  cleaned: Cleaned,
): (value: SQLOutputValue) => unknown {
  if (type === 'boolean') return booleanOf(name);
  // SQLite keeps a list (field data's phases) as JSON text.
  if (type === 'ARRAY') return (value) => (typeof value === 'string' ? JSON.parse(value) : value);
  if (type === 'json' || type === 'jsonb')
    return (value) => (typeof value === 'string' ? jsonWithoutNul(value, cleaned) : value);
  return (value) => (typeof value === 'string' ? textWithoutNul(value, cleaned) : value);
}

/** `rows` rows of `columns` placeholders each. */
const placeholders = (rows: number, columns: number) =>
  Array.from({ length: rows }, () => `(${Array(columns).fill('?').join(', ')})`).join(', ');

/** The INSERT of `rows` rows of `table`'s columns, ids too (an identity column's as well). */
const insertOf = (table: SourceTable, rows: number) =>
  `INSERT INTO ${quoted(table.name)} (${table.columns.map(quoted).join(', ')})
   OVERRIDING SYSTEM VALUE VALUES ${placeholders(rows, table.columns.length)}`;

/** The source's rows of `table`, in the order they were inserted, integers however large. */
function rowsOf(sqlite: DatabaseSync, table: SourceTable): Iterable<SQLOutputValue[]> {
  const select = sqlite.prepare(
    `SELECT ${table.columns.map(quoted).join(', ')} FROM ${quoted(table.name)}` +
      (table.rowid ? ' ORDER BY rowid' : ''),
  );
  // pg sends a BigInt as its digits.
  select.setReadBigInts(true);
  select.setReturnArrays(true);
  return select.iterate() as Iterable<SQLOutputValue[]>;
}

/** Copies one table's rows in batches; how many values lost a NUL on the way. */
async function copyTable(
  sqlite: DatabaseSync,
  tx: Db,
  table: SourceTable,
  columns: TargetColumn[],
  batchRows: number,
) {
  const cleaned = { values: 0 };
  const convert = table.columns.map((name) =>
    converter(
      columns.find((c) => c.name === name)!,
      cleaned,
    ),
  );
  const perInsert = Math.max(1, Math.min(batchRows, Math.floor(MAX_PARAMETERS / convert.length)));
  let batch: unknown[][] = [];
  const flush = async () => {
    if (batch.length) await tx.run(insertOf(table, batch.length), batch.flat());
    batch = [];
  };
  try {
    for (const row of rowsOf(sqlite, table)) {
      batch.push(row.map((value, i) => convert[i]!(value)));
      if (batch.length === perInsert) await flush();
    }
    await flush();
  } catch (error) {
    throw new CopyError(`Copying ${table.name} failed: ${(error as Error).message}`);
  }
  return cleaned.values;
}

/** Sets each serial or identity column's sequence past the largest id copied. */
async function setSequences(tx: Db, tables: TargetTables) {
  for (const [table, columns] of tables)
    for (const { name, sequence } of columns)
      if (sequence)
        await tx.all(
          `SELECT setval(CAST(? AS regclass),
             coalesce((SELECT max(${quoted(name)}) FROM ${quoted(table)}), 0) + 1, false)`,
          [sequence],
        );
}

/** Each target table's rows beside its source's. */
async function counted(
  tx: Db,
  tables: TargetTables,
  source: Map<string, SourceTable>,
  cleaned: Map<string, number>,
) {
  const counts: TableCount[] = [];
  for (const table of [...tables.keys()].sort()) {
    const [row] = await tx.all(`SELECT count(*) AS n FROM ${quoted(table)}`);
    const changed = cleaned.get(table);
    counts.push({
      table,
      source: source.get(table)?.rows,
      target: Number(row!.n),
      ...(changed && { cleaned: changed }),
    });
  }
  return counts;
}

const matching = (counts: TableCount[]) =>
  counts.every(({ source, target }) => target === (source ?? 0));

/** Thrown inside the transaction so that it rolls back; carries the counts out. */
class CountMismatch extends Error {
  readonly counts: TableCount[];

  constructor(counts: TableCount[]) {
    super('The counts differ.');
    this.counts = counts;
  }
}

/** Connects to the target; refuses one that holds data before the migrations touch it. */
async function openTarget(url: string): Promise<Driver> {
  const look = await postgresDriver(url, { readOnly: true });
  try {
    refuseHeld(await heldTables(look.db, await targetTables(look.db)));
  } finally {
    await look.close();
  }
  return postgresDriver(url);
}

/**
 * In the target's transaction: every table of its schema filled from the source's, its sequences
 * set, the counts compared (a CountMismatch rolls it back).
 */
async function copyAll(
  sqlite: DatabaseSync,
  source: Map<string, SourceTable>,
  tx: Db,
  batchRows: number,
) {
  const target = await targetTables(tx);
  refuseHeld(await heldTables(tx, target));
  checkFits(source, target);
  const cleaned = new Map<string, number>();
  for (const name of await inKeyOrder(tx, target)) {
    const table = source.get(name);
    if (table) cleaned.set(name, await copyTable(sqlite, tx, table, target.get(name)!, batchRows));
  }
  await setSequences(tx, target);
  const counts = await counted(tx, target, source, cleaned);
  if (!matching(counts)) throw new CountMismatch(counts);
  return counts;
}

/**
 * Copies every row of the SQLite store at `sourcePath` into the empty PostgreSQL database at
 * `targetUrl`, migrated first with the site's own steps. Throws CopyError for a refusal (no source,
 * a source of another schema, a target holding data) or a failure; resolves with the counts per
 * table, committed only if they all match.
 */
export async function copyToPostgres(
  sourcePath: string,
  targetUrl: string,
  { batchRows = BATCH_ROWS }: { batchRows?: number } = {},
): Promise<CopyResult> {
  const sqlite = openSource(sourcePath);
  let driver: Driver | undefined;
  try {
    driver = await openTarget(targetUrl);
    // One snapshot of the source for everything read from here on (WAL: no writer waits for it).
    sqlite.exec('BEGIN');
    const source = sourceTables(sqlite);
    const tables = await driver.db.transaction((tx) => copyAll(sqlite, source, tx, batchRows));
    return { target: driver.description, tables, matches: true };
  } catch (error) {
    if (error instanceof CountMismatch)
      return { target: driver!.description, tables: error.counts, matches: false };
    throw error;
  } finally {
    if (sqlite.isTransaction) sqlite.exec('ROLLBACK');
    sqlite.close();
    await driver?.close();
  }
}
