/**
 * Backups of the SQLite store (`npm run backup`, `npm run restore`: ../backup.ts). A backup is
 * SQLite's online backup (node:sqlite's `backup()`): a consistent copy of the store as one
 * transaction saw it, taken while the server keeps reading and writing. A restore puts a checked
 * backup in the store's place, with no server using the file, and keeps the file it replaces.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, renameSync, rmSync, statSync } from 'node:fs';
import { DatabaseSync, backup, type SQLInputValue } from 'node:sqlite';
import { privateFile } from '../private-files.ts';
import { runCodeStep, stepsOf } from './migrations.ts';

/**
 * Pages copied per step of the backup: all of them, in one step. SQLite restarts a backup whose
 * source another connection wrote to between two steps, so a busy server could keep a backup of
 * many small steps from ever finishing; one step holds a read transaction for the copy, which in
 * WAL mode keeps no writer waiting.
 */
const ALL_PAGES = 1_000_000_000;

/** How long a backup waits for the store's lock held by another connection (see backupStore). */
const SOURCE_BUSY_MS = 10_000;

export class BackupError extends Error {}
/** The backup's name was taken (by another backup finished meanwhile): nothing was kept. */
export class BackupNameTaken extends BackupError {
  constructor(target: string) {
    super(`${target} exists already: give the backup a new name.`);
  }
}

/**
 * Copies `db` into the new file `path` (SQLite's online backup), made one self-contained file: the
 * copy keeps the store's WAL mode, whose -wal and -shm files would otherwise be left beside it.
 * Visitors' data: the file is made 0600 first (its folder 0700), and SQLite's own files take its mode.
 */
async function copyInto(db: DatabaseSync, path: string) {
  privateFile(path);
  await backup(db, path, { rate: ALL_PAGES });
  const copy = new DatabaseSync(path);
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** A store's tables (with their columns), indexes, triggers and views, one line each, sorted. */
function schemaOf(db: DatabaseSync): string[] {
  const objects = db
    .prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .all() as { type: string; name: string }[];
  return objects
    .map(({ type, name }) => {
      if (type !== 'table') return `${type} ${name}`;
      const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all(name) as {
        name: string;
      }[];
      return `table ${name} (${columns.map((column) => column.name).join(', ')})`;
    })
    .sort();
}

/** The schema the site's migrations make at `version`, made once in memory. */
const expectedSchemas = new Map<number, string[]>();
function expectedSchema(version: number) {
  let schema = expectedSchemas.get(version);
  if (!schema) {
    const db = new DatabaseSync(':memory:');
    try {
      for (const step of stepsOf('sqlite').slice(0, version))
        if (typeof step === 'string') db.exec(step);
        else
          runCodeStep(step, ({ sql, params }) =>
            db.prepare(sql).all(...(params as SQLInputValue[])),
          );
      schema = schemaOf(db);
    } finally {
      db.close();
    }
    expectedSchemas.set(version, schema);
  }
  return schema;
}

/**
 * What a backup file holds, checked: SQLite's own check passes and it is this site's store. One to
 * restore (`restoring`) must also have exactly the schema the site's migrations make at its
 * version: a trigger or a view of someone else's (one copying every new enquiry elsewhere, or
 * rewriting its address) would run in the server once restored, and a table missing would leave
 * the store unwritable. (A backup is taken whatever the store holds besides.)
 */
function checkedStore(path: string, restoring = false): { enquiries: number; version: number } {
  // SQLite reads a folder as "disk I/O error".
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
    throw new BackupError(`${path} is a folder: give the backup file in it.`);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch (error) {
    throw new BackupError(`${path} cannot be opened: ${(error as Error).message}`);
  }
  try {
    const check = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
    if (check.length !== 1 || check[0]!.integrity_check !== 'ok')
      throw new BackupError(`${path} is damaged (SQLite's integrity check failed).`);
    const { user_version: version } = db.prepare('PRAGMA user_version').get() as {
      user_version: number;
    };
    const table = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'enquiries'")
      .get();
    if (!table || version === 0) throw new BackupError(`${path} is not a store of this site.`);
    if (version > stepsOf('sqlite').length)
      throw new BackupError(
        `${path} was made by a newer version of the site (schema ${version}): update the site first.`,
      );
    const expected = restoring ? expectedSchema(version) : [];
    const found = restoring ? schemaOf(db) : [];
    const odd = [
      ...found.filter((line) => !expected.includes(line)).map((line) => `has ${line}`),
      ...expected.filter((line) => !found.includes(line)).map((line) => `lacks ${line}`),
    ];
    if (odd.length)
      throw new BackupError(
        `${path} is not a store as this site makes it (schema ${version}): it ${odd.slice(0, 3).join('; ')}.`,
      );
    const { n } = db.prepare('SELECT count(*) AS n FROM enquiries').get() as { n: number };
    return { enquiries: n, version };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${path} is not a SQLite store: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Copies the store at `source` to the new file `target` while the server serves; written under a
 * temporary name and checked before it takes its own, so that a backup cut short is never taken
 * for a whole one.
 */
export async function backupStore(source: string, target: string) {
  if (!existsSync(source)) throw new BackupError(`There is no store at ${source}.`);
  return writeBackup(target, async (partial) => {
    // Not read-only: a read-only connection cannot open a WAL file whose server has stopped.
    const db = new DatabaseSync(source);
    try {
      // With no server open on it, two backups at once (the timer's and an operator's) both open
      // the WAL, and one must wait while the other recovers it: refused at once, it failed "database
      // is locked" (SQLite's BUSY_RECOVERY, which node:sqlite's backup does not retry). The wait is
      // in the backup's thread, not the event loop's.
      db.exec(`PRAGMA busy_timeout = ${SOURCE_BUSY_MS}`);
      await copyInto(db, partial);
    } finally {
      db.close();
    }
    return checkedStore(partial);
  });
}

/**
 * A backup written to `target` by `write` (SQLite's copy, pg_dump) under a partial name of its own,
 * so that two at once (the timer's and an operator's) each write theirs; put in place only if no
 * backup of that name was finished meanwhile (BackupNameTaken); the partial never stays.
 */
export async function writeBackup<T>(
  target: string,
  write: (partial: string) => Promise<T>,
): Promise<T> {
  if (existsSync(target)) throw new BackupNameTaken(target);
  const partial = `${target}.${randomBytes(4).toString('hex')}.partial`;
  try {
    const held = await write(partial);
    try {
      linkSync(partial, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupNameTaken(target);
      throw error;
    }
    return held;
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Puts the backup `backupFile` in the place of the store at `target`, which no server may be
 * using; the file replaced is kept beside it, named with the time. The server migrates a backup
 * made by an older version when it starts.
 */
export async function restoreStore(backupFile: string, target: string, now = new Date()) {
  const held = checkedStore(backupFile, true);
  let replaced: string | undefined;
  if (existsSync(target)) {
    // Any connection (a running server's, the staff CLI's) keeps this lock from being taken.
    const db = new DatabaseSync(target);
    try {
      db.exec('PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; ROLLBACK');
    } catch {
      throw new BackupError(
        `${target} is in use: stop the server (and any \`npm run enquiries\`) before restoring.`,
      );
    } finally {
      db.close();
    }
  }
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  const source = new DatabaseSync(backupFile, { readOnly: true });
  try {
    await copyInto(source, partial);
  } finally {
    source.close();
  }
  if (existsSync(target)) {
    replaced = `${target}.replaced-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(target, replaced);
    // Kept, as a backup is: 0600 even if the store it was had been made open to others.
    chmodSync(replaced, 0o600);
  }
  // A write-ahead log left by the file replaced belongs to it, not to the backup: read with the
  // backup, it would corrupt it. (Its index, -shm, holds nothing of its own.)
  if (existsSync(`${target}-wal`)) {
    if (replaced) {
      renameSync(`${target}-wal`, `${replaced}-wal`);
      chmodSync(`${replaced}-wal`, 0o600);
    } else rmSync(`${target}-wal`);
  }
  rmSync(`${target}-shm`, { force: true });
  renameSync(partial, target);
  return { ...held, replaced };
}
