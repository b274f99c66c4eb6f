/**
 * Backups into a folder (`npm run backup -- --dir DIR`, the backup timer's): each named by the
 * instant it was taken, the newest N kept, and nothing in the folder removed that is not one of
 * its own backups; the folder its owner's alone (0700), each backup too (0600). The clock is the
 * test's.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { backupIntoFolder, backupName } from '../../src/server/store/backup-folder';
import { BackupError } from '../../src/server/store/sqlite-backup';
import { SqliteStore } from '../../src/server/store/sqlite';
import { enquiry } from '../support/records';

const run = promisify(execFile);
let dir: string;
let store: string;
let backups: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'backup-folder-'));
  store = join(dir, 'enquiries.sqlite');
  backups = join(dir, 'backups');
  const sqlite = new SqliteStore(store);
  await new Bookings(sqlite).commit(enquiry(), false);
  await sqlite.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Day `n` of November 2026 at 04:00:07 UTC (2.5: half a day after the 2nd's). */
const day = (n: number) => new Date(Date.UTC(2026, 10, 1, 4, 0, 7) + (n - 1) * 86_400_000);
const mode = (path: string) => statSync(path).mode & 0o777;
/** What the folder holds, besides its own backups. */
const others = [
  'notes.txt',
  // Taken by hand, as docs/deploying.md said before the timer: another name, never removed.
  'enquiries-2026-11-01-0400.sqlite',
  'enquiries-2026-11-01T040007Z.sqlite.partial',
  'copy-of-enquiries-2026-11-01T040007Z.sqlite',
];

it('keeps the newest N of its own backups, named by the day, and nothing else is removed', async () => {
  expect(backupName(day(1))).toBe('enquiries-2026-11-01T040007Z.sqlite');
  const first = await backupIntoFolder(store, backups, 3, day(1));
  expect(first).toMatchObject({
    enquiries: 1,
    file: join(backups, backupName(day(1))),
    removed: [],
  });
  expect(mode(backups)).toBe(0o700);
  expect(mode(first.file)).toBe(0o600);
  for (const name of others) writeFileSync(join(backups, name), 'not a backup of the timer');
  // A folder that happens to bear a backup's name is not a backup.
  mkdirSync(join(backups, backupName(day(2))));

  const removed: string[][] = [];
  for (const n of [3, 4, 5, 6])
    removed.push((await backupIntoFolder(store, backups, 3, day(n))).removed);
  expect(removed).toEqual([[], [], [backupName(day(1))], [backupName(day(3))]]);
  expect(readdirSync(backups).sort()).toEqual(
    [...others, backupName(day(2)), ...[4, 5, 6].map((n) => backupName(day(n)))].sort(),
  );

  // A clock set back: the backup just taken is kept, whatever its name says.
  const late = await backupIntoFolder(store, backups, 3, day(2.5));
  expect(late.removed).toEqual([]);
  expect(readdirSync(backups)).toContain(backupName(day(2.5)));
  // Fewer kept from now on: the oldest go, the one just taken stays.
  expect((await backupIntoFolder(store, backups, 1, day(7))).removed).toEqual([
    backupName(day(6)),
    backupName(day(5)),
    backupName(day(4)),
    backupName(day(2.5)),
  ]);
  await expect(backupIntoFolder(store, backups, 0, day(8))).rejects.toThrow(BackupError);
});

it('narrows a folder others could read to its owner', async () => {
  mkdirSync(backups, { mode: 0o755 });
  chmodSync(backups, 0o755);
  await backupIntoFolder(store, backups, 2, day(1));
  expect(mode(backups)).toBe(0o700);
});

it('npm run backup -- --dir DIR keeps BACKUP_KEEP of them, or --keep N', async () => {
  const npmBackup = (args: string[], env: Record<string, string> = {}) =>
    run('npm', ['run', '--silent', 'backup', '--', '--dir', backups, ...args], {
      env: { ...process.env, ENQUIRY_DB: store, DATABASE_URL: '', ...env },
    });
  mkdirSync(backups);
  for (const n of [1, 2, 3]) writeFileSync(join(backups, backupName(day(n))), '');
  writeFileSync(join(backups, 'notes.txt'), '');

  const kept2 = await npmBackup([], { BACKUP_KEEP: '2' });
  expect(kept2.stdout).toMatch(
    new RegExp(
      `^Backed up .* to .*enquiries-\\d{4}-\\d{2}-\\d{2}T\\d{6}Z\\.sqlite: 1 enquiry\\. Removed ${backupName(day(2))}, ${backupName(day(1))} \\(keeping 2\\)\\.\\n$`,
    ),
  );
  // The backup just made, renamed as of a day before, so that the next one (maybe within the same
  // second) takes a name of its own.
  const older = [backupName(day(3)), 'notes.txt'];
  const made = readdirSync(backups).find((name) => !older.includes(name))!;
  renameSync(join(backups, made), join(backups, backupName(day(4))));
  const kept1 = await npmBackup(['--keep', '1']);
  expect(kept1.stdout).toContain(
    `Removed ${backupName(day(4))}, ${backupName(day(3))} (keeping 1).`,
  );
  expect(readdirSync(backups)).toHaveLength(2);
  expect(readdirSync(backups)).toContain('notes.txt');

  await expect(npmBackup(['--keep', 'none'])).rejects.toMatchObject({
    stderr: expect.stringContaining('Keep at least one backup'),
  });
  await expect(npmBackup(['extra.sqlite'])).rejects.toMatchObject({
    stderr: expect.stringContaining('--dir DIR [--keep N]'),
  });
}, 30_000);
