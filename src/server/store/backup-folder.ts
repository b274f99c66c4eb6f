/**
 * Backups kept in a folder of their own (`npm run backup -- --dir DIR`, which the backup timer of
 * deploy/ runs daily): each named by the instant it was taken, the newest few kept. Only files of
 * its own name are ever removed: anything else in the folder (a backup taken by hand under
 * another name, an operator's notes) stays. The folder is its owner's alone (0700), each backup
 * too (0600): they hold every visitor's name, address and message. The SQLite store is copied by
 * SQLite's online backup (./sqlite-backup.ts); a store on PostgreSQL is dumped by pg_dump.
 */
import { execFile } from 'node:child_process';
import { chmodSync, closeSync, lstatSync, openSync, readSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StoreLocation } from './types.ts';
import { BackupError, BackupNameTaken, backupStore, writeBackup } from './sqlite-backup.ts';
import { privateFolder } from '../private-files.ts';

/** Each engine's backups: SQLite's a store file, PostgreSQL's pg_dump's custom format. */
const EXTENSION = { sqlite: 'sqlite', postgres: 'dump' } as const;
type Kind = keyof typeof EXTENSION;

/** A backup's name: the instant in UTC, to the second, so that names sort as time does. */
export const backupName = (at: Date, kind: Kind = 'sqlite') =>
  `enquiries-${at.toISOString().slice(0, 19).replace(/:/g, '')}Z.${EXTENSION[kind]}`;

const ownName = (kind: Kind) =>
  new RegExp(`^enquiries-\\d{4}-\\d{2}-\\d{2}T\\d{6}Z\\.${EXTENSION[kind]}$`);

/**
 * The folder, made or narrowed to its owner alone; refused if it is not the taker's own (in a
 * folder of someone else's, they could take the backups away or slip in files the pruning keeps
 * in their place) or is a link.
 */
function ownFolder(dir: string) {
  privateFolder(dir);
  const found = lstatSync(dir);
  if (!found.isDirectory())
    throw new BackupError(`${dir} is not a folder (a link?): give the folder itself.`);
  if (found.uid !== process.getuid?.())
    throw new BackupError(
      `${dir} belongs to another user: keep the backups in a folder of the user that takes them.`,
    );
  if (found.mode & 0o077) chmodSync(dir, 0o700);
}

/** How each engine's backup file begins: a file of the name that does not is no backup of ours. */
const MAGIC = { sqlite: 'SQLite format 3\0', postgres: 'PGDMP' } as const;

/**
 * Whether `name` in `dir` is one of the backups this command takes and may remove: named so, a
 * file of the taker's own beginning as such a backup does, and not named after `latest` (a name
 * dated ahead would outlast every real backup, which the pruning would remove instead).
 */
function prunable(dir: string, name: string, kind: Kind, latest: Date) {
  if (!ownName(kind).test(name) || name > backupName(latest, kind)) return false;
  const path = join(dir, name);
  const found = lstatSync(path);
  if (!found.isFile() || found.uid !== process.getuid?.()) return false;
  const head = Buffer.alloc(MAGIC[kind].length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return head.toString('latin1') === MAGIC[kind];
}

/**
 * Dumps the PostgreSQL database at `url` into `file` (pg_dump's custom format, one consistent
 * snapshot while the processes write). The password goes to pg_dump in its environment, never on
 * its command line, which every user of the machine can read.
 */
async function dumpPostgres(url: string, file: string, pgDump: string) {
  const target = new URL(url);
  // libpq takes it in the query too (`?password=`), which went on the command line.
  const password = decodeURIComponent(target.password) || target.searchParams.get('password');
  target.password = '';
  target.searchParams.delete('password');
  if (target.searchParams.has('sslpassword'))
    throw new BackupError(
      "DATABASE_URL's sslpassword would be on pg_dump's command line, which every user of the machine can read: give the key without a passphrase, or the password in ~/.pgpass (docs/deploying.md).",
    );
  await writeBackup(file, async (partial) => {
    try {
      await promisify(execFile)(
        pgDump,
        ['--format=custom', `--file=${partial}`, `--dbname=${target.href}`],
        { env: { ...process.env, ...(password && { PGPASSWORD: password }) } },
      );
    } catch (error) {
      const { code, stderr } = error as { code?: unknown; stderr?: string };
      if (code === 'ENOENT')
        throw new BackupError(
          `There is no ${pgDump}: install PostgreSQL's client (docs/deploying.md).`,
        );
      // Its own words, never execFile's message, which repeats the command line.
      throw new BackupError(`pg_dump failed: ${stderr?.trim() || `exit code ${String(code)}`}`);
    }
  });
}

/**
 * Backs up the store (DATABASE_URL's database, else the SQLite file) into `dir` under the name of
 * `now`, then removes all but the newest `keep` of the folder's own backups of that engine (never
 * the one just taken, should the clock have gone back). What was backed up, where, and the names
 * removed; `enquiries` for SQLite, whose backup is checked and counted.
 */
export async function backupIntoFolder(
  { databaseUrl, databasePath }: StoreLocation,
  dir: string,
  keep: number,
  { now = new Date(), pgDump = 'pg_dump' } = {},
): Promise<{ file: string; removed: string[]; enquiries?: number }> {
  if (!Number.isInteger(keep) || keep < 1)
    throw new BackupError(`Keep at least one backup (--keep ${keep}).`);
  ownFolder(dir);
  const kind: Kind = databaseUrl ? 'postgres' : 'sqlite';
  // A backup of this second there already, or finished meanwhile (one run right after another, the
  // timer's and an operator's at once): the next free second's name, so that both are kept and the
  // names still sort as time does.
  let file = '';
  let held: { enquiries?: number } | undefined;
  for (let later = 0; !held; later++) {
    file = join(dir, backupName(new Date(now.getTime() + later * 1000), kind));
    try {
      if (!databaseUrl) held = await backupStore(databasePath, file);
      else {
        await dumpPostgres(databaseUrl, file, pgDump);
        held = {};
      }
    } catch (error) {
      if (!(error instanceof BackupNameTaken) || later === 60) throw error;
    }
  }
  chmodSync(file, 0o600);
  const latest = new Date(Math.max(now.getTime(), Date.now()) + 61_000);
  const own = readdirSync(dir)
    .filter((name) => prunable(dir, name, kind, latest))
    .sort()
    .reverse();
  const removed = own.slice(keep).filter((name) => join(dir, name) !== file);
  for (const name of removed) rmSync(join(dir, name));
  return { ...held, file, removed };
}
