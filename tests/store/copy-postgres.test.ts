/**
 * `npm run store:copy` (src/server/store/copy-to-postgres.ts): a SQLite store filled through the
 * store's own API with every kind of record is copied into a new PostgreSQL store on the run's
 * server, which the site's code then opens and uses: every table counted alike, each record read
 * back as SQLite gave it, a call moved by the link its e-mail carried, a job claimed, a staff
 * session and passkey valid, field data in the report, and new rows after the copy taking ids past
 * the copied ones. A table it was never told of is copied too (bytes, large integers, booleans, an
 * identity column), and a visitor's NUL character arrives as U+FFFD. A target that holds data, a
 * missing source and a source of another schema are refused; counts that differ roll everything
 * back; a copy taken while the server writes is one consistent moment; the command never prints
 * the database's password.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { checkCallToken, signCallToken } from '../../src/server/call-token';
import { formatTables, reportTables } from '../../src/server/vitals/report';
import { CopyError, copyToPostgres } from '../../src/server/store/copy-to-postgres';
import { PostgresStore } from '../../src/server/store/postgres/store';
import { SqliteStore } from '../../src/server/store/sqlite';
import type { EnquiryStore } from '../../src/server/store/types';
import { call, enquiry, plus, vitalRecord } from '../support/records';
import { newPostgresDatabase } from '../support/store-backends';

const run = promisify(execFile);
/** The staff's and the jobs' clock: before the real one, so that the jobs queued then are due. */
const now = Date.parse('2026-11-01T09:00:00Z');
const minute = 60_000;
const idle = 120 * minute;
const maxSession = 12 * 60 * minute;
const passkey = {
  id: 'cred-1',
  email: 'anna@a.example',
  publicKey: 'pQECAyYgASFYIA',
  counter: 7,
  transports: ['internal', 'hybrid'],
};

/** A booking of `start` with host anna, reminded a day and an hour before. */
const booking = (start: string, overrides = {}) =>
  call(start, {
    call: { start, end: plus(start, 30), hosts: ['anna'], reminders: [24 * 60, 60] },
    ...overrides,
  });

/**
 * Fills `store` with a record of every kind, through the site's code; the call whose change link
 * the test follows after the copy.
 */
async function fill(store: EnquiryStore) {
  const bookings = new Bookings(store, { bookingCap: Infinity });
  const asked = await bookings.commit(enquiry(), true);
  await bookings.commit(enquiry({ name: 'Spam Bot', spam: true }), true);
  const moving = await bookings.commit(booking('2027-01-05T09:30:00Z'), true);
  const cancelled = await bookings.commit(booking('2027-01-06T09:30:00Z'), true);
  await bookings.cancelCall(cancelled.id, { queueMail: true });
  await bookings.confirmCall(moving.id);
  // The call as written into its host's calendar (CalDAV), with the host's own description kept.
  await store.calendarWrites.claim(moving.id, now, minute);
  await store.calendarWrites.save(
    moving.id,
    {
      host: 'anna',
      href: '/anna/calendar/call.ics',
      etag: '"etag-1"',
      sequence: 1,
      description: 'An iPad app.',
      hostDescription: 'Bring the roadmap.',
    },
    now,
  );
  await store.transaction((tx) =>
    tx.queue([{ kind: 'calendar-write', dueAt: now, payload: { host: 'anna', n: [1, 2] } }]),
  );
  // The agency's e-mail about the enquiry went; the other jobs wait.
  const claimed = await store.claimDue(Date.now() + minute, 100, 0);
  const sent = claimed.find((job) => job.kind === 'agency' && job.enquiry?.id === asked.id)!;
  await store.markDone(sent.id, now);
  await store.release(claimed.filter((job) => job !== sent));
  await store.addVitals(
    [
      vitalRecord({ path: '/iphone', network: '3fa9' }),
      vitalRecord({
        metric: 'INP',
        value: 264,
        rating: 'needs-improvement',
        phases: [12.5, 200, 51.5],
      }),
    ],
    { counts: [{ day: '2026-11-20', received: 5, dropped: 1 }] },
  );
  await store.calendarCopies.claimRead('feed-1', 'anna', now, 0, minute);
  await store.calendarCopies.saveRead(
    'feed-1',
    { body: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', etag: '"e1"', lastModified: null },
    now,
  );
  await store.claimAlert('booking-pace', now, undefined);
  await store.vitalsSecret();
  await store.isWritable();
  const link = { ref: 'ref-1', email: 'anna@a.example', seq: 1, createdAt: now };
  await store.staff.addLink({ ...link, expiresAt: now + 15 * minute }, now);
  await store.staff.armLink('ref-1', 'link-hash-1', now);
  await store.staff.useLink('link-hash-1', now + minute);
  await store.staff.addChallenge(
    {
      hash: 'challenge-hash-1',
      purpose: 'register',
      email: 'anna@a.example',
      network: '203.0.113.0/24',
      expiresAt: now + 5 * minute,
    },
    now,
    20,
  );
  await store.staff.startSession('hash-1', 'anna@a.example', now);
  await store.staff.addPasskey({ ...passkey, counter: 0 }, now);
  await store.staff.usePasskey(passkey.id, passkey.counter, now + minute);
  await store.staff.audit({
    at: now,
    actor: 'anna@a.example',
    action: 'marked handled',
    subject: asked.id,
    detail: 'déjà vu, "quoted", 100%',
  });
  await store.staff.markHandled(asked.id, 'anna@a.example', now);
  await store.desk.addNote({ enquiryId: asked.id, author: 'anna@a.example', at: now, body: 'Hi' });
  await store.desk.rememberHosts([{ id: 'ana', name: 'Ana Ødegård' }]);
  await fillReleases(store);
  return { moving: (await store.findById(moving.id))! };
}

/** A publish gone live, the build deployed before it (its files), and a roll back to that. */
async function fillReleases(store: EnquiryStore) {
  const author = { email: 'erin@a.example', name: 'Erin' };
  const kind = 'publish-copy';
  const { publish } = await store.releases.startPublish(
    author,
    { kind, payload: (id) => ({ publish: id }) },
    now,
  );
  for (const job of await store.claimDue(now, 10, 0, { only: kind }))
    await store.markDone(job.id, now);
  const files = new Uint8Array([31, 139, 8, 0, 255, 0]);
  const deployed = await store.releases.addRelease(
    {
      kind: 'deploy',
      commit: 'abc1',
      actor: '',
      actorName: 'the deploy',
      summary: 'As deployed',
      files,
    },
    now,
  );
  await store.releases.updatePublish(
    publish.id,
    { state: 'live', step: 'Live', progress: 100, commit: 'abc2', releaseId: deployed },
    now,
  );
  await store.releases.addRelease(
    {
      kind: 'rollback',
      folder: deployed,
      commit: 'abc3',
      actor: author.email,
      actorName: 'Erin',
      summary: 'Roll back',
    },
    now + minute,
  );
}

/** What the site reads of a store, to compare the copy with its source. */
const readAll = async (store: EnquiryStore) => ({
  enquiries: await store.all(),
  vitals: await store.vitalsSince('2000-01-01'),
  days: await store.vitalsDaysSince('2000-01-01'),
  feeds: await store.calendarCopies.states(),
  feedBody: await store.calendarCopies.body('feed-1'),
  written: await store.calendarWrites.states((await store.all()).map((enquiry) => enquiry.id)),
  alert: await store.lastAlert('booking-pace'),
  secret: await store.vitalsSecret(),
  audit: await store.staff.recentAudit(10),
  passkeys: await store.staff.passkeysOf(passkey.email),
  link: await store.staff.checkLink('link-hash-1', now + 2 * minute),
  challenges: await store.staff.challengesOf('203.0.113.0/24'),
  failed: await store.countFailed(),
  releases: await store.releases.recent(10),
  releaseFiles: Buffer.from((await store.releases.files(1)) ?? []),
  publish: await store.releases.latestPublish(),
});

let dir: string;
let sqlitePath: string;
const opened: EnquiryStore[] = [];
const open = async (url: string) => {
  const store = await PostgresStore.open(url);
  opened.push(store);
  return store;
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-copy-'));
  sqlitePath = join(dir, 'enquiries.sqlite');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A SQLite store filled with every kind of record, closed; what it reads back, and its call. */
async function filledSqlite() {
  const sqlite = new SqliteStore(sqlitePath);
  const { moving } = await fill(sqlite);
  const before = await readAll(sqlite);
  await sqlite.close();
  return { before, moving };
}

/** Runs a query on the store's PostgreSQL database as its own role. */
async function query(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** A target migrated, with a rule of its own that drops field data as it comes in. */
async function dropsFieldData(url: string) {
  await (await PostgresStore.open(url)).close();
  await query(
    url,
    `CREATE FUNCTION drop_row() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NULL; END';
     CREATE TRIGGER drop_vitals BEFORE INSERT ON vitals FOR EACH ROW EXECUTE FUNCTION drop_row()`,
  );
}

describe('a SQLite store copied into PostgreSQL', () => {
  it('holds every row of every table, and the site reads each record back as SQLite gave it', async () => {
    const { before } = await filledSqlite();
    const url = await newPostgresDatabase();
    const result = await copyToPostgres(sqlitePath, url, { batchRows: 2 });

    expect(result.matches).toBe(true);
    expect(result.target).not.toContain(new URL(url).password);
    for (const { table, source, target } of result.tables)
      expect({ table, target }).toEqual({ table, target: source ?? 0 });
    // Every table SQLite has held a record here: a table added to the schema needs one in fill().
    const empty = result.tables.filter(({ source }) => source === 0).map(({ table }) => table);
    expect(empty, 'tables that fill() left empty').toEqual([]);
    // PostgreSQL's own (the shared rate limit) has nothing to copy.
    expect(result.tables.filter(({ source }) => source === undefined)).toEqual([
      { table: 'rate_limit', source: undefined, target: 0 },
    ]);
    const copy = await open(url);
    expect(await readAll(copy)).toEqual(before);
    // Untouched: the way back.
    const again = new SqliteStore(sqlitePath, { readOnly: true });
    expect(await again.all()).toEqual(before.enquiries);
    await again.close();
  });

  it('works: a call moved by its link, jobs claimed, a staff session and passkey valid, field data reported', async () => {
    const { moving } = await filledSqlite();
    // The key that signs calls' links is kept beside the store, never in it: the copy leaves it be.
    const secret = 'the-booking-key-of-the-key-file-0123456789';
    // The change link the prospect's e-mail carries, signed before the move.
    const token = signCallToken(
      'change',
      moving.id,
      moving.call!.sequence,
      Date.parse(moving.call!.start),
      secret,
    );
    const url = await newPostgresDatabase();
    await copyToPostgres(sqlitePath, url);
    const store = await open(url);

    const link = checkCallToken('change', token, secret, now);
    expect(link).toEqual({ ok: true, id: moving.id, sequence: 0 });
    const bookings = new Bookings(store, { bookingCap: Infinity });
    const start = '2027-01-05T11:00:00Z';
    const move = { start, end: plus(start, 30), hosts: ['anna'], maxMoves: 3 };
    const moved = await bookings.moveCall(moving.id, { ...move, sequence: 0 }, true, now);
    expect(moved).toMatchObject({ status: 'moved', enquiry: { call: { start, sequence: 1 } } });
    // The link is used up, as it would have been on SQLite.
    expect(await bookings.moveCall(moving.id, { ...move, sequence: 0 }, true, now)).toMatchObject({
      status: 'used',
    });

    // The queued jobs are claimed (the one sent before the copy is not), each once.
    const claimed = await store.claimDue(Date.now() + minute, 100, 5 * minute);
    const kinds = claimed.map((job) => job.kind);
    expect(kinds).toContain('calendar-write');
    expect(kinds).toContain('prospect-move');
    expect(claimed.find((job) => job.kind === 'calendar-write')?.payload).toEqual({
      host: 'anna',
      n: [1, 2],
    });
    expect(new Set(claimed.map((job) => job.id)).size).toBe(claimed.length);
    expect(await store.claimDue(Date.now() + minute, 100, 5 * minute)).toEqual([]);

    expect(await store.staff.session('hash-1', now + minute, idle, maxSession)).toEqual({
      email: 'anna@a.example',
      createdAt: now,
    });
    expect(await store.staff.passkey(passkey.id)).toEqual({
      ...passkey,
      createdAt: now,
      usedAt: now + minute,
    });
    expect(await store.staff.useLink('link-hash-1', now + 2 * minute)).toEqual({
      refused: 'used',
    });
    expect(await store.staff.useChallenge('challenge-hash-1', 'register', now + minute)).toEqual({
      email: 'anna@a.example',
    });

    const report = formatTables(
      reportTables(await store.vitalsSince('2026-11-01')),
      '2026-11-01',
      '2026-11-30',
      await store.vitalsDaysSince('2026-11-01'),
    );
    expect(report).toContain('2 measurements');
    expect(report).toContain('Received 5 measurements, kept 2.');
    expect(report).toContain('/iphone');
  });

  it('gives new rows ids past the copied ones', async () => {
    const { before } = await filledSqlite();
    const url = await newPostgresDatabase();
    await copyToPostgres(sqlitePath, url);
    const copied = (await query(url, 'SELECT max(id) AS id FROM jobs'))[0]!.id;
    const store = await open(url);

    const added = await new Bookings(store).commit(enquiry({ name: 'After the copy' }), true);
    await store.staff.audit({
      at: now + 1,
      actor: 'ben@a.example',
      action: 'signed in',
      subject: null,
      detail: null,
    });
    await store.addVitals([vitalRecord({ path: '/after' })]);
    // Listed last: the enquiries' insert order (seq) continues after the copied ones'.
    expect((await store.all()).map((e) => e.id)).toEqual([
      ...before.enquiries.map((e) => e.id),
      added.id,
    ]);
    const [job] = await query(url, `SELECT id FROM jobs WHERE enquiry_id = '${added.id}'`);
    expect(Number(job!.id)).toBeGreaterThan(Number(copied));
    expect((await store.staff.recentAudit(1))[0]?.actor).toBe('ben@a.example');
    expect((await store.vitalsSince('2026-11-20')).at(-1)?.path).toBe('/after');
  });

  it("carries a visitor's NUL characters, which PostgreSQL cannot keep, as U+FFFD, and says how many", async () => {
    const sqlite = new SqliteStore(sqlitePath);
    const sent = await new Bookings(sqlite).commit(
      enquiry({
        name: 'Nul\u0000Byte',
        data: { project: 'A\u0000B', typed: 'a backslash: \\u0000' },
      }),
      false,
    );
    await sqlite.staff.audit({
      at: now,
      actor: 'anna@a.example',
      action: 'x',
      subject: null,
      detail: '\u0000',
    });
    await sqlite.close();
    const url = await newPostgresDatabase();
    const result = await copyToPostgres(sqlitePath, url);

    expect(result.matches).toBe(true);
    const cleaned = result.tables
      .filter((t) => t.cleaned)
      .map(({ table, cleaned }) => ({ table, cleaned }));
    expect(cleaned).toEqual([
      { table: 'enquiries', cleaned: 2 },
      { table: 'staff_audit', cleaned: 1 },
    ]);
    const copy = await open(url);
    expect(await copy.findById(sent.id)).toMatchObject({
      name: 'Nul\uFFFDByte',
      data: { project: 'A\uFFFDB', typed: 'a backslash: \\u0000' },
    });
    expect((await copy.staff.recentAudit(1))[0]?.detail).toBe('\uFFFD');
  });

  it('copies a table it was never told of, with bytes, integers past 2^53, booleans and an identity column', async () => {
    await filledSqlite();
    // A table a later version adds to both engines' schemas, here by hand.
    const sqlite = new DatabaseSync(sqlitePath);
    sqlite.exec(`CREATE TABLE later_things (id INTEGER PRIMARY KEY, token BLOB NOT NULL,
      big INTEGER NOT NULL, used INTEGER NOT NULL, note TEXT)`);
    const insert = sqlite.prepare('INSERT INTO later_things VALUES (?, ?, ?, ?, ?)');
    insert.run(7, new Uint8Array([0, 1, 254, 255]), 2n ** 62n + 1n, 1, null);
    insert.run(9, new Uint8Array([]), -(2n ** 53n) - 3n, 0, 'déjà');
    // SQLite keeps whatever a column is given: a boolean written as text is read by its words.
    insert.run(11, new Uint8Array([]), 1, 'false', null);
    insert.run(12, new Uint8Array([]), 2, ' TRUE ', null);
    sqlite.close();
    const url = await newPostgresDatabase();
    await (await PostgresStore.open(url)).close();
    await query(
      url,
      `CREATE TABLE later_things (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
         token BYTEA NOT NULL, big BIGINT NOT NULL, used BOOLEAN NOT NULL, note TEXT)`,
    );

    const result = await copyToPostgres(sqlitePath, url);
    expect(result.tables.find((t) => t.table === 'later_things')).toEqual({
      table: 'later_things',
      source: 4,
      target: 4,
    });
    await query(url, `INSERT INTO later_things (token, big, used) VALUES ('\\x00', 0, false)`);
    expect(
      await query(
        url,
        `SELECT id::text, encode(token, 'hex') AS token, big::text, used, note
         FROM later_things ORDER BY later_things.id`,
      ),
    ).toEqual([
      { id: '7', token: '0001feff', big: String(2n ** 62n + 1n), used: true, note: null },
      { id: '9', token: '', big: String(-(2n ** 53n) - 3n), used: false, note: 'déjà' },
      { id: '11', token: '', big: '1', used: false, note: null },
      { id: '12', token: '', big: '2', used: true, note: null },
      { id: '13', token: '00', big: '0', used: false, note: null },
    ]);
  });

  it('refuses a true-or-false value it cannot read, saying where, and copies nothing', async () => {
    await filledSqlite();
    const sqlite = new DatabaseSync(sqlitePath);
    sqlite.exec('CREATE TABLE later_flags (id INTEGER PRIMARY KEY, used INTEGER NOT NULL)');
    sqlite.prepare('INSERT INTO later_flags VALUES (?, ?)').run(1, 'maybe\x1b[2J');
    sqlite.close();
    const url = await newPostgresDatabase();
    await (await PostgresStore.open(url)).close();
    await query(url, 'CREATE TABLE later_flags (id BIGINT PRIMARY KEY, used BOOLEAN NOT NULL)');
    const refused = copyToPostgres(sqlitePath, url);
    await expect(refused).rejects.toThrow(CopyError);
    await expect(refused).rejects.toThrow(
      'Copying later_flags failed: used holds a value that is neither true nor false (not 0, 1, true or false).',
    );
    expect(await query(url, 'SELECT count(*)::int AS n FROM enquiries')).toEqual([{ n: 0 }]);
  });

  it('is one moment of a store that the server keeps writing meanwhile', async () => {
    const writer = new SqliteStore(sqlitePath);
    const bookings = new Bookings(writer);
    for (let i = 0; i < 50; i++) await bookings.commit(enquiry({ name: `Before ${i}` }), true);
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        await bookings.commit(enquiry({ name: `During ${written}` }), true);
        written++;
      }
    })();
    const url = await newPostgresDatabase();
    const result = await copyToPostgres(sqlitePath, url, { batchRows: 5 });
    writing = false;
    await writes;

    expect(result.matches).toBe(true);
    const count = (table: string) => result.tables.find((t) => t.table === table)!.target;
    expect(written).toBeGreaterThan(0);
    expect(count('enquiries')).toBeGreaterThanOrEqual(50);
    // Each enquiry copied has its e-mail job: nothing of a write half in the snapshot.
    expect(count('jobs')).toBe(count('enquiries'));
    expect(await writer.count()).toBe(50 + written);
    await writer.close();
  });
});

describe('what the copy refuses', () => {
  it('a target that holds data, naming its tables, and leaves it as it was', async () => {
    await filledSqlite();
    const url = await newPostgresDatabase();
    await copyToPostgres(sqlitePath, url);
    await expect(copyToPostgres(sqlitePath, url)).rejects.toThrow(
      /^The target already holds data \(in .*enquiries.*\): copy into an empty database/,
    );
    expect((await query(url, 'SELECT count(*) AS n FROM enquiries'))[0]!.n).toBe('4');

    // A database holding another application's table is refused before any migration runs.
    const other = await newPostgresDatabase();
    await query(other, `CREATE TABLE invoices (id INT); INSERT INTO invoices VALUES (1)`);
    await expect(copyToPostgres(sqlitePath, other)).rejects.toThrow(/holds data \(in invoices\)/);
    expect(await query(other, `SELECT to_regclass('enquiries') AS t`)).toEqual([{ t: null }]);
  });

  it('a missing source, creating no file, and a file that is not a store of this schema', async () => {
    const url = await newPostgresDatabase();
    const missing = join(dir, 'nothing.sqlite');
    await expect(copyToPostgres(missing, url)).rejects.toThrow(
      new CopyError(`There is no SQLite store at ${missing}.`),
    );
    expect(existsSync(missing)).toBe(false);

    const old = new DatabaseSync(sqlitePath);
    old.exec('CREATE TABLE enquiries (id TEXT); PRAGMA user_version = 5');
    old.close();
    await expect(copyToPostgres(sqlitePath, url)).rejects.toThrow(
      /is at schema 5, this version of the site at \d+: start this version's server on it once/,
    );
    rmSync(sqlitePath);
    new DatabaseSync(sqlitePath).close();
    await expect(copyToPostgres(sqlitePath, url)).rejects.toThrow(/is not a store of this site/);
  });

  it('counts that differ: nothing is kept', async () => {
    await filledSqlite();
    const url = await newPostgresDatabase();
    await dropsFieldData(url);
    const result = await copyToPostgres(sqlitePath, url);
    expect(result.matches).toBe(false);
    expect(result.tables.find((t) => t.table === 'vitals')).toEqual({
      table: 'vitals',
      source: 2,
      target: 0,
    });
    expect(await query(url, 'SELECT count(*) AS n FROM enquiries')).toEqual([{ n: '0' }]);
  });
});

describe('npm run store:copy', () => {
  /** The command as an operator runs it, with DATABASE_URL (or --to) and ENQUIRY_DB. */
  const storeCopy = (env: Record<string, string>, args: string[] = []) => {
    const all: NodeJS.ProcessEnv = {
      ...process.env,
      ENQUIRY_DB: sqlitePath,
      DATABASE_URL: '',
      ...env,
    };
    delete all.npm_config_loglevel;
    return run('npm', ['run', '--silent', 'store:copy', '--', ...args], { env: all }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  };

  it('prints the counts, never the password, and says why it refuses', async () => {
    await filledSqlite();
    const url = await newPostgresDatabase();
    const password = new URL(url).password;
    const copied = await storeCopy({ DATABASE_URL: url });
    expect(copied.stderr).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.stdout).toMatch(
      /^Copied: the SQLite file .* into the PostgreSQL database .*\.\n/,
    );
    expect(copied.stdout).toMatch(/\n {2}enquiries +4 +4\n/);
    expect(copied.stdout).toMatch(/\n {2}rate_limit +- +0\n/);

    const refused = await storeCopy({}, ['--to', url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds data/);

    const wrong = new URL(url);
    wrong.password = 'not-the-password-4d8a';
    const denied = await storeCopy({ DATABASE_URL: wrong.href });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/^The copy failed; no row was copied: /);

    // A password with a space, which the URL parser takes: tried, refused, and not repeated.
    const spaced = await storeCopy({
      DATABASE_URL: `postgres://agency:${password} x@127.0.0.1:1/db`,
    });
    expect(spaced.code).toBe(1);
    // Not a URL, another scheme, an unknown option carrying the URL, no target at all.
    for (const [env, args] of [
      [{ DATABASE_URL: `agency:${password}@127.0.0.1:1/db` }, []],
      [{ DATABASE_URL: url.replace('postgres:', 'mysql:') }, []],
      [{}, [`--too=${url}`]],
      [{}, []],
    ] as [Record<string, string>, string[]][]) {
      const answer = await storeCopy(env, args);
      expect(answer.code).toBe(2);
      expect(answer.stderr).toMatch(/PostgreSQL|Usage/);
      expect(answer.stdout + answer.stderr).not.toContain(password);
    }
    const dropping = await newPostgresDatabase();
    await dropsFieldData(dropping);
    const differs = await storeCopy({ DATABASE_URL: dropping });
    expect(differs.code).toBe(1);
    expect(differs.stdout).toMatch(/^Not copied: .*\n {2}table .*\n[^]*\n {2}vitals +2 +0\n/);
    expect(differs.stderr).toBe(
      'The counts differ in vitals: nothing was written (the copy was rolled back).\n',
    );
    const missing = await storeCopy({ DATABASE_URL: url, ENQUIRY_DB: join(dir, 'none.sqlite') });
    expect(missing).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('There is no SQLite store'),
    });
    for (const answer of [copied, refused, denied, spaced, differs, missing])
      expect(answer.stdout + answer.stderr).not.toContain(password);
    expect(denied.stdout + denied.stderr).not.toContain('not-the-password-4d8a');
  });
});
