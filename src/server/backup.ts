/**
 * `npm run backup -- FILE`: copies the SQLite store (ENQUIRY_DB) to FILE while the server serves.
 * `npm run backup -- --dir DIR [--keep N]`: to a file named by the time in DIR (the backup timer's),
 * then removes all but the newest N (BACKUP_KEEP, 14) of the backups so named there; with
 * DATABASE_URL, a dump of the PostgreSQL store by pg_dump.
 * `npm run restore -- FILE`: puts the backup FILE in the store's place; the server must be stopped.
 * PostgreSQL's store (DATABASE_URL) is restored with pg_restore (docs/deploying.md).
 * The work is ./store/sqlite-backup.ts and ./store/backup-folder.ts; this file is the arguments and
 * the messages.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { commandArgs, wrongCall } from './command-args.ts';
import { databaseUrlProblem, serverConfig } from './config.ts';
import { backupIntoFolder } from './store/backup-folder.ts';
import { BackupError, backupStore, restoreStore } from './store/sqlite-backup.ts';
import {
  backupEditing,
  editingBackupOf,
  editingBackupProblem,
  restoreEditing,
} from './releases/backup.ts';
import { PUBLISHED_BRANCH } from './releases/draft.ts';

const USAGE = `Usage: npm run backup -- FILE
       npm run backup -- --dir DIR [--keep N]
       npm run restore -- FILE`;

const { values, positionals } = commandArgs(USAGE, {
  options: {
    restore: { type: 'boolean', default: false },
    dir: { type: 'string' },
    keep: { type: 'string' },
  },
  allowPositionals: true,
});
const command = values.restore ? 'restore' : 'backup';
const config = serverConfig();

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

if (values.restore && values.dir !== undefined)
  wrongCall('--dir goes with a backup: a restore takes one file, npm run restore -- FILE.', USAGE);
const folder = values.dir;
if (positionals.length !== (folder === undefined ? 1 : 0))
  wrongCall(
    `Say which file: npm run ${command} -- FILE (e.g. backups/enquiries-2026-11-28.sqlite)` +
      (values.restore ? '.' : `, or which folder: npm run backup -- --dir DIR [--keep N].`),
    USAGE,
  );
if (values.keep !== undefined && folder === undefined)
  wrongCall('--keep goes with --dir DIR: it says how many of the backups there to keep.', USAGE);
if (values.keep !== undefined && !/^[1-9]\d{0,5}$/.test(values.keep))
  wrongCall('--keep takes a whole number of backups, 1 or more.', USAGE);
// Set wrongly (0 for "keep all", a typo), it read as 14: the backups past the 14th went.
const keepSetting = process.env.BACKUP_KEEP;
if (values.keep === undefined && folder !== undefined && keepSetting !== undefined)
  if (!/^[1-9]\d{0,5}$/.test(keepSetting.trim()))
    fail(
      'BACKUP_KEEP takes a whole number of backups, 1 or more (unset, 14 are kept): nothing was backed up.',
    );
// pg_dump's address is read from it: a stack trace would repeat it, password and all.
if (config.databaseUrl) {
  const problem = databaseUrlProblem(config.databaseUrl);
  if (problem) fail(problem);
}
if (config.databaseUrl && folder === undefined)
  fail(
    `DATABASE_URL is set: the store is on PostgreSQL. Back it up with --dir DIR (pg_dump) and restore it with pg_restore (docs/deploying.md, Backups).`,
  );
const file = positionals[0]!;
const keep = values.keep === undefined ? config.backupKeep : Number(values.keep);
const enquiriesIn = (n: number) => `${n} ${n === 1 ? 'enquiry' : 'enquiries'}`;

/** The draft and the published commits beside a store backup (./releases/backup.ts), once there is a draft. */
async function editingBackup(storeBackup: string) {
  const made = await backupEditing(config.editing, storeBackup);
  if (made) console.log(`Backed up the draft and the branch "${PUBLISHED_BRANCH}" to ${made}.`);
}

try {
  if (folder !== undefined) {
    const made = await backupIntoFolder(config, folder, keep);
    const source = config.databaseUrl ? 'the PostgreSQL store' : config.databasePath;
    const held = made.enquiries === undefined ? '' : `: ${enquiriesIn(made.enquiries)}`;
    console.log(
      `Backed up ${source} to ${made.file}${held}.` +
        (made.removed.length ? ` Removed ${made.removed.join(', ')} (keeping ${keep}).` : ''),
    );
    for (const removed of made.removed)
      rmSync(editingBackupOf(join(folder, removed)), { force: true });
    await editingBackup(made.file);
  } else if (command === 'backup') {
    const { enquiries } = await backupStore(config.databasePath, file);
    console.log(`Backed up ${config.databasePath} to ${file}: ${enquiriesIn(enquiries)}.`);
    await editingBackup(file);
  } else {
    const untrusted = editingBackupProblem(file);
    if (untrusted) fail(`${untrusted} Nothing was restored.`);
    const { enquiries, replaced } = await restoreStore(file, config.databasePath);
    console.log(
      `Restored ${file} to ${config.databasePath}: ${enquiriesIn(enquiries)}.` +
        (replaced ? ` The store it replaced is kept as ${replaced}.` : ''),
    );
    const editing = await restoreEditing(config.editing, file).catch((error: Error) =>
      fail(
        `The draft and the branch "${PUBLISHED_BRANCH}" were not restored: ${error.message}. The store is; the server's Publishing makes a new draft from what is live.`,
      ),
    );
    if (editing)
      console.log(
        `Restored the draft and the branch "${PUBLISHED_BRANCH}" from ${editing}; the releases are in the store, fetched as the server starts.`,
      );
  }
} catch (error) {
  if (error instanceof BackupError) fail(error.message);
  throw error;
}
