/**
 * `npm run backup` copies the SQLite store while the server serves and takes enquiries;
 * `npm run restore` puts a backup back, and refuses while a server uses the store.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, it } from 'vitest';
import { newDatabasePath, postForm, readStore, validEnquiry } from '../support/server';
import { stoppedAfterEach } from './stopped-after-each';

const run = promisify(execFile);
const servers = stoppedAfterEach();
const folder = mkdtempSync(join(tmpdir(), 'backups-'));
afterAll(async () => (await import('node:fs')).rmSync(folder, { recursive: true, force: true }));

/** `npm run backup|restore -- FILE` against the store at `database`, as an operator runs it. */
const npmRun = (script: 'backup' | 'restore', file: string, database: string) =>
  run('npm', ['run', '--silent', script, '--', file], {
    env: { ...process.env, ENQUIRY_DB: database, DATABASE_URL: '' },
  });

it('backs up the store while posts arrive, and restores it with the server stopped', async () => {
  const database = newDatabasePath();
  const server = await servers.start({ ENQUIRY_DB: database });
  const acknowledged: { id: string; at: number }[] = [];
  let posting = true;
  const post = async (n: number) => {
    const response = await postForm(`${server.url}/php/email.php`, {
      ...validEnquiry,
      project: `Enquiry ${n} of the backup test`,
    });
    expect(response.status).toBe(200);
    acknowledged.push({ id: ((await response.json()) as { id: string }).id, at: Date.now() });
  };
  for (let n = 0; n < 20; n++) await post(n);
  // Four clients keep posting for as long as the backup runs.
  const clients = [0, 1, 2, 3].map(async (client) => {
    for (let n = 0; posting; n++) await post(1000 * (client + 1) + n);
  });
  const file = join(folder, 'during.sqlite');
  const started = Date.now();
  const { stdout } = await npmRun('backup', file, database);
  const ended = Date.now();
  posting = false;
  await Promise.all(clients);

  expect(stdout).toMatch(/^Backed up .* to .*during\.sqlite: \d+ enquiries\.\n$/);
  // One file, nothing beside it: no -wal, -shm or unfinished copy.
  expect(readdirSync(folder)).toEqual(['during.sqlite']);
  expect(acknowledged.filter(({ at }) => at > started && at < ended).length).toBeGreaterThan(0);
  // A consistent copy: SQLite's check passes, every enquiry in it is the server's, and it holds at
  // least those acknowledged before the backup began.
  const copy = new DatabaseSync(file, { readOnly: true });
  expect(copy.prepare('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
  copy.close();
  const backedUp = (await readStore(file)).map((e) => e.id);
  const all = new Set((await readStore(database)).map((e) => e.id));
  expect(backedUp.every((id) => all.has(id))).toBe(true);
  for (const { id, at } of acknowledged) if (at < started) expect(backedUp).toContain(id);
  expect(all.size).toBeGreaterThan(backedUp.length);

  // A backup never overwrites a file, and a restore waits for the server to stop.
  await expect(npmRun('backup', file, database)).rejects.toMatchObject({
    stderr: expect.stringContaining('exists already'),
  });
  await expect(npmRun('restore', file, database)).rejects.toMatchObject({
    stderr: expect.stringContaining('is in use: stop the server'),
  });

  await server.stop();
  const restored = await npmRun('restore', file, database);
  expect(restored.stdout).toMatch(/The store it replaced is kept as .*\.replaced-/);
  const again = await servers.start({ ENQUIRY_DB: database });
  expect((await readStore(database)).map((e) => e.id)).toEqual(backedUp);
  // The restored store takes enquiries as before.
  const response = await postForm(`${again.url}/php/email.php`, validEnquiry);
  expect(response.status).toBe(200);
});

it('refuses a file that is not a store of this site, and leaves the store as it was', async () => {
  const database = newDatabasePath();
  const server = await servers.start({ ENQUIRY_DB: database });
  await server.stop();
  const other = join(folder, 'other.sqlite');
  const db = new DatabaseSync(other);
  db.exec('CREATE TABLE notes (text)');
  db.close();
  await expect(npmRun('restore', other, database)).rejects.toMatchObject({
    stderr: expect.stringContaining('is not a store of this site'),
  });
  await expect(npmRun('restore', folder, database)).rejects.toMatchObject({
    stderr: `${folder} is a folder: give the backup file in it.\n`,
  });
  const text = join(folder, 'text.sqlite');
  (await import('node:fs')).writeFileSync(text, 'not a database at all');
  await expect(npmRun('restore', text, database)).rejects.toMatchObject({
    stderr: expect.stringMatching(/not a SQLite store|cannot be opened/),
  });
  expect(existsSync(database)).toBe(true);

  // A backup someone changed: a trigger that copies each new enquiry elsewhere would run in the
  // server once restored; a store of one bare table would leave it unwritable.
  const good = join(folder, 'good.sqlite');
  await npmRun('backup', good, database);
  const changed = (name: string, sql: string) => {
    const path = join(folder, name);
    copyFileSync(good, path);
    const db = new DatabaseSync(path);
    db.exec(sql);
    db.close();
    return path;
  };
  const stealing = changed(
    'trigger.sqlite',
    'CREATE TABLE loot (email); CREATE TRIGGER steal AFTER INSERT ON enquiries BEGIN INSERT INTO loot VALUES (new.email); END;',
  );
  await expect(npmRun('restore', stealing, database)).rejects.toMatchObject({
    stderr: expect.stringMatching(
      /is not a store as this site makes it \(schema \d+\): it has table loot \(email\); has trigger steal\.\n$/,
    ),
  });
  const bare = join(folder, 'bare.sqlite');
  const db2 = new DatabaseSync(bare);
  db2.exec('CREATE TABLE enquiries (x); PRAGMA user_version = 3');
  db2.close();
  await expect(npmRun('restore', bare, database)).rejects.toMatchObject({
    stderr: expect.stringContaining('is not a store as this site makes it (schema 3)'),
  });
  // An editing backup beside it that others may write (found by its name alone): nothing restored.
  writeFileSync(`${good}.editing.tar.gz`, 'theirs', { mode: 0o666 });
  chmodSync(`${good}.editing.tar.gz`, 0o666);
  await expect(npmRun('restore', good, database)).rejects.toMatchObject({
    stderr: expect.stringContaining(
      "is not the backup's own (another owner, or others may write it)",
    ),
  });
  expect(readdirSync(dirname(database)).filter((name) => name.includes('.replaced-'))).toEqual([]);

  await expect(
    npmRun('backup', join(folder, 'x.sqlite'), join(folder, 'none.sqlite')),
  ).rejects.toMatchObject({
    stderr: expect.stringContaining('There is no store at'),
  });
});
