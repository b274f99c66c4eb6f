/**
 * What the server leaves on the disk, as another user of the machine would find it: under umask
 * 000 the store, its -wal and -shm, the key files and a backup are 0600 in folders 0700, and none
 * of the store's files nor the backup holds a key that signs links. The server refuses to start on
 * a store or key file others can read, in one line with the chmod that mends it, and on a short
 * STAFF_SECRET. An older store's booking key is moved out, and the call links it signed still work;
 * STAFF_SECRET, when set, signs the staff's links.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { signCallToken } from '../../src/server/call-token';
import { linkToken } from '../../src/server/staff/access';
import { newDatabasePath, postForm, validEnquiry } from '../support/server';
import { textOf } from '../support/mime';
import { book, freeSlots } from './calls';
import { stoppedAfterEach } from './stopped-after-each';

const run = promisify(execFile);
const servers = stoppedAfterEach();

/** A file's permission bits in octal, as `ls -l` shows them. */
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** A store's place in a folder the server has yet to make: data/enquiries.sqlite. */
const newStorePath = () => join(dirname(newDatabasePath()), 'data', 'enquiries.sqlite');
const storeFiles = (path: string) =>
  [path, `${path}-wal`, `${path}-shm`].filter((file) => existsSync(file));
const keysOf = (database: string) => join(dirname(database), 'keys');
const key = (database: string, name: string) =>
  readFileSync(join(keysOf(database), `${name}.key`), 'utf8').trim();

/** Every byte of `files`, as text to search. */
const bytesOf = (files: string[]) =>
  files.map((file) => readFileSync(file).toString('latin1')).join('\n');

/** Runs `work` with the test process's umask 000, which the processes it starts inherit. */
async function underUmask000<T>(work: () => Promise<T>): Promise<T> {
  const before = process.umask(0);
  try {
    return await work();
  } finally {
    process.umask(before);
  }
}

/** Starts the server where it is expected to refuse: what it wrote, and its exit code. */
async function refusedStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '9', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // One that starts after all is stopped, and fails below.
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  return { code: code as number, lines: output.split('\n').filter(Boolean) };
}

describe('the files the server keeps', () => {
  it('are 0600 in folders 0700 under umask 000, and neither the store nor a backup holds a key', async () => {
    const database = newStorePath();
    const server = await underUmask000(() => servers.start({ ENQUIRY_DB: database }));
    expect((await postForm(`${server.url}/php/email.php`, validEnquiry)).status).toBe(200);

    const files = storeFiles(database);
    expect(files.map((file) => file.slice(database.length))).toEqual(['', '-wal', '-shm']);
    for (const file of files) expect([file, mode(file)]).toEqual([file, '600']);
    expect(mode(dirname(database))).toBe('700');
    expect(mode(keysOf(database))).toBe('700');
    expect(readdirSync(keysOf(database)).sort()).toEqual(['booking.key', 'staff.key']);
    for (const name of ['booking', 'staff'])
      expect(mode(join(keysOf(database), `${name}.key`))).toBe('600');

    // A backup into a folder it makes, while the server serves, by an operator under umask 000.
    const backup = join(dirname(database), '..', 'backups', 'enquiries.sqlite');
    await run('sh', ['-c', 'umask 000 && exec npm run --silent backup -- "$0"', backup], {
      env: { ...process.env, ENQUIRY_DB: database, DATABASE_URL: '' },
    });
    expect(mode(backup)).toBe('600');
    expect(mode(dirname(backup))).toBe('700');

    const keys = [key(database, 'staff'), key(database, 'booking')];
    const held = { store: bytesOf(storeFiles(database)), backup: bytesOf([backup]) };
    expect(held.backup).toContain(validEnquiry.project);
    for (const secret of keys) {
      expect(held.store).not.toContain(secret);
      expect(held.backup).not.toContain(secret);
      expect(await (await fetch(`${server.url}/healthz`)).text()).not.toContain(secret);
      expect(server.output()).not.toContain(secret);
    }
  });

  it('that others can open keep the server from starting: one line with the chmod that mends them, exit 1', async () => {
    const database = newStorePath();
    const server = await servers.start({ ENQUIRY_DB: database });
    // Killed: its write-ahead log stays beside the store, as after a crash.
    await server.kill9();
    expect(existsSync(`${database}-wal`)).toBe(true);

    chmodSync(database, 0o644);
    chmodSync(`${database}-wal`, 0o640);
    const store = await refusedStart({ ENQUIRY_DB: database });
    expect(store.code).toBe(1);
    expect(store.lines).toEqual([
      `${database}, ${database}-wal can be read by other users of this machine (visitors' data or a signing key): run \`chmod 600 ${database} ${database}-wal\` as its owner, then start the server again.`,
    ]);
    chmodSync(database, 0o600);
    chmodSync(`${database}-wal`, 0o600);

    // A key file, in a folder open to others too: both chmods, which mend it when run.
    const staffKey = join(keysOf(database), 'staff.key');
    chmodSync(staffKey, 0o604);
    chmodSync(keysOf(database), 0o755);
    const keys = await refusedStart({ ENQUIRY_DB: database });
    expect(keys.code).toBe(1);
    expect(keys.lines).toHaveLength(1);
    const fix = /`([^`]+)`/.exec(keys.lines[0]!)![1]!;
    expect(fix).toBe(`chmod 600 ${staffKey} && chmod 700 ${keysOf(database)}`);
    await run('sh', ['-c', fix]);
    // The folder of keys alone, which would let others put a key of their own in it.
    chmodSync(keysOf(database), 0o773);
    const folder = await refusedStart({ ENQUIRY_DB: database });
    expect(folder.code).toBe(1);
    expect(folder.lines).toEqual([
      expect.stringContaining(`run \`chmod 700 ${keysOf(database)}\``),
    ]);
    await run('sh', ['-c', /`([^`]+)`/.exec(folder.lines[0]!)![1]!]);
    expect((await servers.start({ ENQUIRY_DB: database })).output()).toContain('Serving the site');
  });
});

describe('the keys that sign links', () => {
  it('keep the server from starting when STAFF_SECRET is under 32 characters, or a key file is cut short: one line', async () => {
    const refused = await refusedStart({ ENQUIRY_DB: newStorePath(), STAFF_SECRET: 'short' });
    expect(refused.code).toBe(1);
    expect(refused.lines).toEqual([
      expect.stringMatching(/^STAFF_SECRET is shorter than 32 characters: .*openssl rand -hex 32/),
    ]);
    const database = newStorePath();
    await (await servers.start({ ENQUIRY_DB: database })).stop();
    writeFileSync(join(keysOf(database), 'booking.key'), '\n');
    const cut = await refusedStart({ ENQUIRY_DB: database });
    expect(cut.code).toBe(1);
    expect(cut.lines).toEqual([
      `${join(keysOf(database), 'booking.key')} holds no key (under 32 characters): put back the copy you keep, or delete it to make a new key (the links signed with the old one then stop working).`,
    ]);
  });

  it('of an older store are moved out: the call links it signed still work, and the store keeps neither key', async () => {
    const database = newStorePath();
    const oldBooking = 'a0'.repeat(32);
    const oldStaff = 'b1'.repeat(32);
    const before = await servers.start({ ENQUIRY_DB: database, BOOKING_SECRET: oldBooking });
    const { slots } = await freeSlots(before);
    const response = await book(before, slots[0]!.start);
    expect(response.status).toBe(200);
    const { id } = (await response.json()) as { id: string };
    await before.stop();
    // The store as the version before kept it: its keys in site_secrets, no key files.
    const db = new DatabaseSync(database);
    db.exec(
      `INSERT INTO site_secrets (name, value) VALUES ('booking', '${oldBooking}'), ('staff', '${oldStaff}')`,
    );
    db.close();
    rmSync(keysOf(database), { recursive: true });

    const server = await servers.start({ ENQUIRY_DB: database });
    const token = signCallToken('cancel', id, 0, Date.parse(slots[0]!.start), oldBooking);
    const page = await fetch(`${server.url}/schedule/cancel?token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Do you want to cancel this call?');
    expect(key(database, 'booking')).toBe(oldBooking);
    expect(key(database, 'staff')).not.toBe(oldStaff);
    expect(server.output()).toContain(`moved out of the store to ${keysOf(database)}/booking.key`);
    const held = bytesOf(storeFiles(database));
    expect(held).not.toContain(oldBooking);
    expect(held).not.toContain(oldStaff);
  });

  it('of the staff are STAFF_SECRET when it is set: a link signed with it signs in', async () => {
    const STAFF_SECRET = 'staff-secret-from-the-environment-0123456789';
    const email = 'office@northgate-digital.example';
    const { server, mails } = await servers.startWithMail({ STAFF_SECRET, STAFF_EMAILS: email });
    const post = (fields: Record<string, string>) =>
      postForm(`${server.url}/staff/sign-in`, fields, {
        Accept: 'text/html',
        Origin: server.url,
      });
    expect((await post({ email })).status).toBe(200);
    await expect.poll(() => mails.filter((m) => m.to.includes(email)).length).toBe(1);
    const mailed = /\/staff\/sign-in\?token=(\S+)/.exec(textOf(mails[0]!.raw) ?? '')![1]!;
    const id = mailed.slice(0, mailed.indexOf('.'));

    const otherKey = await post({
      token: linkToken('another-secret-0123456789abcdef0123456789', id),
    });
    expect(otherKey.status).toBe(400);
    const signed = await post({ token: linkToken(STAFF_SECRET, id) });
    expect(signed.status).toBe(303);
    expect(signed.headers.get('location')).toBe('/staff');
    expect(signed.headers.get('set-cookie')).toMatch(/^staff=/);
    // No key file stands in for it.
    expect(existsSync(join(keysOf(server.database), 'staff.key'))).toBe(false);
  });
});
