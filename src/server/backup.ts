/**
 * `npm run backup -- FILE`: copies the SQLite store (ENQUIRY_DB) to FILE while the server serves.
 * `npm run restore -- FILE`: puts the backup FILE in the store's place; the server must be stopped.
 * PostgreSQL's store (DATABASE_URL) is backed up with pg_dump and pg_restore (docs/deploying.md).
 * The work is ./store/sqlite-backup.ts; this file is the arguments and the messages.
 */
import { parseArgs } from 'node:util';
import { serverConfig } from './config.ts';
import { BackupError, backupStore, restoreStore } from './store/sqlite-backup.ts';

const { values, positionals } = parseArgs({
  options: { restore: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const command = values.restore ? 'restore' : 'backup';
const config = serverConfig();

const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

if (positionals.length !== 1)
  fail(`Say which file: npm run ${command} -- FILE (e.g. backups/enquiries-2026-11-28.sqlite)`);
if (config.databaseUrl)
  fail(
    `DATABASE_URL is set: the store is on PostgreSQL. Back it up with pg_dump and restore it with pg_restore (docs/deploying.md, Backups).`,
  );
const file = positionals[0]!;
const enquiriesIn = (n: number) => `${n} ${n === 1 ? 'enquiry' : 'enquiries'}`;

try {
  if (command === 'backup') {
    const { enquiries } = await backupStore(config.databasePath, file);
    console.log(`Backed up ${config.databasePath} to ${file}: ${enquiriesIn(enquiries)}.`);
  } else {
    const { enquiries, replaced } = await restoreStore(file, config.databasePath);
    console.log(
      `Restored ${file} to ${config.databasePath}: ${enquiriesIn(enquiries)}.` +
        (replaced ? ` The store it replaced is kept as ${replaced}.` : ''),
    );
  }
} catch (error) {
  if (error instanceof BackupError) fail(error.message);
  throw error;
}
