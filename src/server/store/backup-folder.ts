/**
 * Backups kept in a folder of their own (`npm run backup -- --dir DIR`, which the backup timer of
 * deploy/ runs daily): each named by the instant it was taken, the newest few kept. Only files of
 * its own name are ever removed: anything else in the folder (a backup taken by hand under
 * another name, an operator's notes) stays. The folder is its owner's alone (0700), each backup
 * too (0600): they hold every visitor's name, address and message.
 */
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BackupError, backupStore } from './sqlite-backup.ts';

/** A backup's name here: the instant in UTC, to the second, so that names sort as time does. */
const OWN_NAME = /^enquiries-\d{4}-\d{2}-\d{2}T\d{6}Z\.sqlite$/;

/** The name of a backup taken at `at`: enquiries-2026-11-28T040000Z.sqlite. */
export const backupName = (at: Date) =>
  `enquiries-${at.toISOString().slice(0, 19).replace(/:/g, '')}Z.sqlite`;

/** The folder, made or narrowed to its owner alone. */
function ownFolder(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!statSync(dir).isDirectory()) throw new BackupError(`${dir} is not a folder.`);
  if (statSync(dir).mode & 0o077) chmodSync(dir, 0o700);
}

/**
 * Backs up the store at `source` into `dir` under the name of `now`, then removes all but the
 * newest `keep` of the folder's own backups (never the one just taken, should the clock have gone
 * back). What was backed up, where, and the names removed.
 */
export async function backupIntoFolder(
  source: string,
  dir: string,
  keep: number,
  now = new Date(),
) {
  if (!Number.isInteger(keep) || keep < 1)
    throw new BackupError(`Keep at least one backup (--keep ${keep}).`);
  ownFolder(dir);
  const file = join(dir, backupName(now));
  const held = await backupStore(source, file);
  chmodSync(file, 0o600);
  const own = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && OWN_NAME.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .reverse();
  const removed = own.slice(keep).filter((name) => join(dir, name) !== file);
  for (const name of removed) rmSync(join(dir, name));
  return { ...held, file, removed };
}
