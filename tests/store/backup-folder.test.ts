/**
 * Backups into a folder (`npm run backup -- --dir DIR`, the backup timer's): each named by the
 * instant it was taken, the newest N kept, and nothing in the folder removed that is not one of
 * its own backups; the folder its owner's alone (0700), each backup too (0600); a store on
 * PostgreSQL dumped by pg_dump (here a stand-in that shows what it was given), its password never
 * on the command line. The clock is the test's.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { backupIntoFolder, backupName } from '../../src/server/store/backup-folder';
import { BackupError } from '../../src/server/store/sqlite-backup';
import { SqliteStore } from '../../src/server/store/sqlite';
import { enquiry } from '../support/records';

const run = promisify(execFile);
let dir: string;
let store: string;
let backups: string;
/** Where the store is, as the configuration says: the SQLite file. */
const sqlite = () => ({ databasePath: store });
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
  const first = await backupIntoFolder(sqlite(), backups, 3, { now: day(1) });
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
    removed.push((await backupIntoFolder(sqlite(), backups, 3, { now: day(n) })).removed);
  expect(removed).toEqual([[], [], [backupName(day(1))], [backupName(day(3))]]);
  expect(readdirSync(backups).sort()).toEqual(
    [...others, backupName(day(2)), ...[4, 5, 6].map((n) => backupName(day(n)))].sort(),
  );

  // A clock set back: the backup just taken is kept, whatever its name says.
  const late = await backupIntoFolder(sqlite(), backups, 3, { now: day(2.5) });
  expect(late.removed).toEqual([]);
  expect(readdirSync(backups)).toContain(backupName(day(2.5)));
  // Fewer kept from now on: the oldest go, the one just taken stays.
  expect((await backupIntoFolder(sqlite(), backups, 1, { now: day(7) })).removed).toEqual([
    backupName(day(6)),
    backupName(day(5)),
    backupName(day(4)),
    backupName(day(2.5)),
  ]);
  await expect(backupIntoFolder(sqlite(), backups, 0, { now: day(8) })).rejects.toThrow(
    BackupError,
  );
});

/** How a SQLite file begins: a file of a backup's name that does not is never removed. */
const SQLITE_HEAD = 'SQLite format 3\0';

it('removes none but its own backups: not a file named as one dated ahead, nor one that is no store', async () => {
  await backupIntoFolder(sqlite(), backups, 3, { now: day(1) });
  // Files of a backup's name that are none of its backups (a copy, a mistake, someone's doing):
  // had they counted as the newest, the pruning would have removed the real backups instead.
  const planted = [backupName(new Date('2097-01-01T00:00:00Z')), backupName(day(0.5))];
  writeFileSync(join(backups, planted[0]!), SQLITE_HEAD);
  writeFileSync(join(backups, planted[1]!), 'no store');
  for (const n of [2, 3]) await backupIntoFolder(sqlite(), backups, 2, { now: day(n) });
  expect(readdirSync(backups).sort()).toEqual(
    [...planted, backupName(day(2)), backupName(day(3))].sort(),
  );
});

it.skipIf(process.getuid?.() !== 0)(
  "refuses a folder of another user's, or a link to one",
  async () => {
    mkdirSync(backups, { mode: 0o777 });
    chownSync(backups, 65534, 65534);
    await expect(backupIntoFolder(sqlite(), backups, 2, { now: day(1) })).rejects.toThrow(
      `${backups} belongs to another user: keep the backups in a folder of the user that takes them.`,
    );
    const link = join(dir, 'link-to-backups');
    symlinkSync(backups, link);
    await expect(backupIntoFolder(sqlite(), link, 2, { now: day(1) })).rejects.toThrow(
      'is not a folder (a link?)',
    );
    expect(readdirSync(backups)).toEqual([]);
  },
);

it('keeps two backups of one second, run one after the other or at once, and leaves nothing else', async () => {
  const next = (n: number) => backupName(new Date(day(1).getTime() + n * 1000));
  await backupIntoFolder(sqlite(), backups, 9, { now: day(1) });
  const after = await backupIntoFolder(sqlite(), backups, 9, { now: day(1) });
  expect(after.file).toBe(join(backups, next(1)));
  // The timer's and an operator's at once: each its own copy, each its own name.
  const both = await Promise.all(
    [0, 1].map(() => backupIntoFolder(sqlite(), backups, 9, { now: day(1) })),
  );
  expect(both.map((made) => made.file).sort()).toEqual([
    join(backups, next(2)),
    join(backups, next(3)),
  ]);
  expect(readdirSync(backups).sort()).toEqual([0, 1, 2, 3].map(next).sort());
});

it('keeps both of two at once of a store no server has open, whose log SQLite must first recover', async () => {
  // A store left with writes in its log (-wal) and no index of it (-shm), as a server stopped
  // mid-write leaves it: whichever backup opens it first recovers the log, and the other waits.
  const written = join(dir, 'written.sqlite');
  copyFileSync(store, written);
  const writer = new DatabaseSync(written);
  writer.exec(
    'PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE filler (x BLOB)',
  );
  const fill = writer.prepare('INSERT INTO filler VALUES (randomblob(3000))');
  for (let n = 0; n < 1000; n++) fill.run();
  copyFileSync(written, store);
  copyFileSync(`${written}-wal`, `${store}-wal`);
  writer.close();

  const both = await Promise.all(
    [0, 1].map(() => backupIntoFolder(sqlite(), backups, 9, { now: day(1) })),
  );
  expect(both.map((made) => made.enquiries)).toEqual([1, 1]);
  expect(readdirSync(backups)).toHaveLength(2);
});

it('narrows a folder others could read to its owner', async () => {
  mkdirSync(backups, { mode: 0o755 });
  chmodSync(backups, 0o755);
  await backupIntoFolder(sqlite(), backups, 2, { now: day(1) });
  expect(mode(backups)).toBe(0o700);
});

it('npm run backup -- --dir DIR keeps BACKUP_KEEP of them, or --keep N', async () => {
  const npmBackup = (args: string[], env: Record<string, string> = {}) =>
    run('npm', ['run', '--silent', 'backup', '--', '--dir', backups, ...args], {
      env: { ...process.env, ENQUIRY_DB: store, DATABASE_URL: '', ...env },
    });
  mkdirSync(backups);
  for (const n of [1, 2, 3]) writeFileSync(join(backups, backupName(day(n))), SQLITE_HEAD);
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

  // A wrong call: what is wrong, then the usage, exit 2; nothing backed up or removed.
  await expect(npmBackup(['--keep=0'])).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringMatching(/^--keep takes a whole number of backups, 1 or more\.\nUsage:/),
  });
  await expect(npmBackup(['--keep', '-3'])).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--keep needs a value; one that starts with a dash'),
  });
  await expect(npmBackup(['extra.sqlite'])).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringContaining(
      'or which folder: npm run backup -- --dir DIR [--keep N].\nUsage:',
    ),
  });
  await expect(
    run('npm', ['run', '--silent', 'backup', '--', join(dir, 'one.sqlite'), '--keep', '2'], {
      env: { ...process.env, ENQUIRY_DB: store, DATABASE_URL: '' },
    }),
  ).rejects.toMatchObject({
    code: 2,
    stderr: expect.stringContaining('--keep goes with --dir DIR'),
  });
  expect(existsSync(join(dir, 'one.sqlite'))).toBe(false);
  await expect(
    run(process.execPath, ['src/server/backup.ts', '--restore', '--dir', backups, 'x.sqlite'], {
      env: { ...process.env, ENQUIRY_DB: store, DATABASE_URL: '' },
    }),
  ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('a restore takes one file') });
  // BACKUP_KEEP set as no number of backups (0 meant as "keep all"): refused, not read as 14.
  await expect(
    run(process.execPath, ['src/server/backup.ts', '--dir', backups], {
      env: { ...process.env, ENQUIRY_DB: store, DATABASE_URL: '', BACKUP_KEEP: '0' },
    }),
  ).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining('BACKUP_KEEP takes a whole number of backups, 1 or more'),
  });
  expect(readdirSync(backups)).toHaveLength(2);
});

describe('with DATABASE_URL, a dump by pg_dump', () => {
  /** A pg_dump that writes its arguments and PGPASSWORD into the file asked for, or fails. */
  const fakePgDump = (fails = false) => {
    const path = join(dir, 'pg_dump');
    writeFileSync(
      path,
      fails
        ? `#!/bin/sh\necho 'pg_dump: error: connection to server at "db" failed' >&2\nexit 1\n`
        : `#!/bin/sh\nfor a; do case "$a" in --file=*) f="\${a#--file=}";; esac; done\nprintf '%s\\n' PGDMP "$@" "PGPASSWORD=$PGPASSWORD" > "$f"\n`,
    );
    chmodSync(path, 0o755);
    return path;
  };
  const databaseUrl = 'postgres://agency:p%40ss%20word@db.internal:5432/agency?sslmode=require';
  const postgres = { databaseUrl, databasePath: 'unused.sqlite' };

  it('passes the password in its environment, never on its command line, and keeps the newest N', async () => {
    const pgDump = fakePgDump();
    const made = [];
    for (const n of [1, 2, 3])
      made.push(await backupIntoFolder(postgres, backups, 2, { now: day(n), pgDump }));
    // SQLite's backups are another engine's: never counted with the dumps, never removed.
    await backupIntoFolder(sqlite(), backups, 1, { now: day(4) });
    expect(made.map((m) => m.removed)).toEqual([[], [], [backupName(day(1), 'postgres')]]);
    expect(readdirSync(backups).sort()).toEqual(
      [backupName(day(2), 'postgres'), backupName(day(3), 'postgres'), backupName(day(4))].sort(),
    );
    const file = made[2]!.file;
    expect(file).toMatch(/enquiries-2026-11-03T040007Z\.dump$/);
    expect(mode(file)).toBe(0o600);
    const [, format, target, url, password] = readFileSync(file, 'utf8').trim().split('\n');
    expect([format, password]).toEqual(['--format=custom', 'PGPASSWORD=p@ss word']);
    // Written under a name of its own, then put in place.
    expect(target).toMatch(new RegExp(`^--file=${file}\\.[0-9a-f]{8}\\.partial$`));
    expect(url).toBe('--dbname=postgres://agency@db.internal:5432/agency?sslmode=require');
  });

  it('takes a password written in the query (`?password=`) to its environment too, and refuses an sslpassword', async () => {
    const inQuery = {
      databaseUrl: 'postgres://agency@db.internal:5432/agency?password=S3cret%21&sslmode=require',
      databasePath: 'unused.sqlite',
    };
    const { file } = await backupIntoFolder(inQuery, backups, 2, {
      now: day(1),
      pgDump: fakePgDump(),
    });
    const [, , , url, password] = readFileSync(file, 'utf8').trim().split('\n');
    expect([url, password]).toEqual([
      '--dbname=postgres://agency@db.internal:5432/agency?sslmode=require',
      'PGPASSWORD=S3cret!',
    ]);
    await expect(
      backupIntoFolder(
        { ...inQuery, databaseUrl: `${inQuery.databaseUrl}&sslpassword=K3y` },
        backups,
        2,
        { now: day(2), pgDump: fakePgDump() },
      ),
    ).rejects.toThrow(/sslpassword would be on pg_dump's command line/);
    // A failure says pg_dump's words, never the command line execFile's message repeats.
    const silent = join(dir, 'pg_dump-silent');
    writeFileSync(silent, '#!/bin/sh\nexit 2\n');
    chmodSync(silent, 0o755);
    const failed = backupIntoFolder(inQuery, backups, 2, { now: day(3), pgDump: silent });
    await expect(failed).rejects.toThrow(new BackupError('pg_dump failed: exit code 2'));
  });

  it('says why when pg_dump fails or is missing, and leaves no file', async () => {
    await expect(
      backupIntoFolder(postgres, backups, 2, { now: day(1), pgDump: fakePgDump(true) }),
    ).rejects.toThrow(
      new BackupError('pg_dump failed: pg_dump: error: connection to server at "db" failed'),
    );
    await expect(
      backupIntoFolder(postgres, backups, 2, { now: day(1), pgDump: join(dir, 'no-pg_dump') }),
    ).rejects.toThrow(/^There is no .*no-pg_dump: install PostgreSQL's client/);
    expect(readdirSync(backups)).toEqual([]);
  });
});
