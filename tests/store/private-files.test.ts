/**
 * What the store and the keys that sign links leave on the disk, whatever the umask: the SQLite
 * file, its -wal and -shm, its backups and the file a restore replaces are 0600 in folders 0700;
 * the keys are files of their own (0600), made once however many processes start at once, and
 * never in the store (its tables, or SQLite's file bytes): an older store's booking key is moved
 * out to its key file, so that the links prospects hold keep working. Both engines.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  keyFile,
  KeyFileError,
  privateFolder,
  signingKeys,
  sqliteFiles,
} from '../../src/server/private-files';
import { PostgresStore } from '../../src/server/store/postgres/store';
import { backupStore, restoreStore } from '../../src/server/store/sqlite-backup';
import { SqliteStore } from '../../src/server/store/sqlite';
import type { EnquiryStore } from '../../src/server/store/types';
import { enquiry } from '../support/records';
import { backends, newPostgresDatabase } from '../support/store-backends';

const run = promisify(execFile);
const fixtures = join(import.meta.dirname, 'fixtures');
const made = JSON.parse(readFileSync(join(fixtures, 'made-by-df3d24c.expected.json'), 'utf8'))
  .secrets as Record<'sqlite' | 'postgres', { booking: string; vitals: string }>;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'private-files-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
};

/** A file's permission bits, as `ls -l` shows them in octal. */
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Runs `work` with the process's umask 000, as a careless shell or service would start it. */
async function underUmask000<T>(work: () => Promise<T> | T): Promise<T> {
  const before = process.umask(0);
  try {
    return await work();
  } finally {
    process.umask(before);
  }
}

const none = { staff: undefined, booking: undefined };

/**
 * A store of each engine: opened as a server process opens it (each call another connection), and
 * everything it holds as text: the SQLite file's bytes (with its -wal and -shm), or every row of
 * every PostgreSQL table.
 */
interface Place {
  open(): Promise<EnquiryStore>;
  text(): Promise<string>;
  /** Runs SQL as an older version of the site would have. */
  exec(sql: string): Promise<void>;
}

const places: Record<keyof typeof backends, (fixture?: boolean) => Promise<Place>> = {
  async sqlite(fixture = false) {
    const path = join(newFolder(), 'data', 'enquiries.sqlite');
    if (fixture) {
      mkdirSync(dirname(path));
      copyFileSync(join(fixtures, 'made-by-df3d24c.sqlite'), path);
    }
    const open = async () => {
      const store = new SqliteStore(path);
      cleanups.push(() => store.close());
      return store;
    };
    return {
      open,
      async text() {
        return sqliteFiles(path)
          .filter((file) => existsSync(file))
          .map((file) => readFileSync(file).toString('latin1'))
          .join('\n');
      },
      async exec(sql) {
        const store = new SqliteStore(path);
        store.db.exec(sql);
        await store.close();
      },
    };
  },
  async postgresql(fixture = false) {
    const url = await newPostgresDatabase();
    const query = async (sql: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
      } finally {
        await client.end();
      }
    };
    if (fixture) await query(readFileSync(join(fixtures, 'made-by-df3d24c.postgres.sql'), 'utf8'));
    return {
      async open() {
        const store = await PostgresStore.open(url);
        cleanups.push(() => store.close());
        return store;
      },
      async text() {
        const tables = (await query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`,
        )) as pg.QueryResult<{ table_name: string }>;
        const rows: string[] = [];
        for (const { table_name: table } of tables.rows) {
          const result = (await query(`SELECT t::text AS row FROM "${table}" t`)) as pg.QueryResult;
          rows.push(...result.rows.map((r) => String(r.row)));
        }
        return rows.join('\n');
      },
      async exec(sql) {
        await query(sql);
      },
    };
  },
};

const hex64 = /^[0-9a-f]{64}$/;

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'the keys that sign links, beside the %s store',
  (kind) => {
    it('are made once for every process, 0600 in a folder 0700 whatever the umask, and never in the store', async () => {
      const keys = join(newFolder(), 'keys');
      const place = await places[kind]();
      const [a, b] = await underUmask000(async () => {
        const stores = [await place.open(), await place.open()];
        await stores[0]!.commit(enquiry(), []);
        // Two processes starting at once.
        return Promise.all(stores.map((store) => signingKeys(keys, none, store)));
      });
      expect(a.staff).toMatch(hex64);
      expect(a.booking).toMatch(hex64);
      expect(a.staff).not.toBe(a.booking);
      expect(b).toEqual(a);
      expect(mode(keys)).toBe('700');
      expect(readdirSync(keys).sort()).toEqual(['booking.key', 'staff.key']);
      for (const name of readdirSync(keys)) expect(mode(join(keys, name))).toBe('600');
      // A restart reads them back.
      expect(await signingKeys(keys, none, await place.open())).toEqual({ ...a, moved: false });
      const held = await place.text();
      expect(held).toContain('Grace Hopper');
      expect(held).not.toContain(a.staff);
      expect(held).not.toContain(a.booking);
    });

    it('are the environment’s when it gives them: no key file is made', async () => {
      const keys = join(newFolder(), 'keys');
      const given = { staff: 's'.repeat(40), booking: 'b'.repeat(40) };
      const place = await places[kind]();
      expect(await signingKeys(keys, given, await place.open())).toEqual({
        ...given,
        moved: false,
      });
      expect(existsSync(keys)).toBe(false);
    });

    it('moves an older store’s booking key to its key file, and deletes it and the staff key from the store', async () => {
      const keys = join(newFolder(), 'keys');
      const place = await places[kind](true);
      const old = made[kind === 'sqlite' ? 'sqlite' : 'postgres'];
      const oldStaff = randomBytes(32).toString('hex');
      await place.exec(`INSERT INTO site_secrets (name, value) VALUES ('staff', '${oldStaff}')`);
      expect(await place.text()).toContain(old.booking);

      const store = await place.open();
      const moved = await signingKeys(keys, none, store);
      // The links prospects were sent keep working: they were signed with it.
      expect(moved).toMatchObject({ booking: old.booking, moved: true });
      expect(readFileSync(join(keys, 'booking.key'), 'utf8').trim()).toBe(old.booking);
      expect(mode(join(keys, 'booking.key'))).toBe('600');
      // Outstanding staff links (15 minutes) stop working: a new key signs them.
      expect(moved.staff).toMatch(hex64);
      expect(moved.staff).not.toBe(oldStaff);
      expect(await store.legacySecret('booking')).toBeUndefined();
      expect(await store.legacySecret('staff')).toBeUndefined();
      // The network keys' secret signs nobody in: it stays, and field data keeps its keys.
      expect(await store.vitalsSecret()).toBe(old.vitals);
      // As a running server holds it (SQLite: the file and its log, before a checkpoint on close).
      const held = await place.text();
      for (const key of [old.booking, oldStaff, moved.staff]) expect(held).not.toContain(key);
      expect(held).toContain(old.vitals);
      // The next start finds the key file.
      expect(await signingKeys(keys, none, await place.open())).toEqual({
        ...moved,
        moved: false,
      });
    });

    it('keeps an older store’s booking key in its file even while BOOKING_SECRET is set', async () => {
      const keys = join(newFolder(), 'keys');
      const place = await places[kind](true);
      const old = made[kind === 'sqlite' ? 'sqlite' : 'postgres'];
      const given = { staff: undefined, booking: 'b'.repeat(40) };
      const store = await place.open();
      expect(await signingKeys(keys, given, store)).toMatchObject({ booking: given.booking });
      expect(readFileSync(join(keys, 'booking.key'), 'utf8').trim()).toBe(old.booking);
      expect(await store.legacySecret('booking')).toBeUndefined();
    });
  },
);

describe('a folder made for the store, its keys, backups or drafts', () => {
  it('is made with its missing parents, 0700 whatever the umask; one there is left as it is', () => {
    const root = mkdtempSync(join(tmpdir(), 'folders-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const previous = process.umask(0);
    try {
      privateFolder(join(root, 'a', 'b', 'keys'));
    } finally {
      process.umask(previous);
    }
    for (const folder of ['a', 'a/b', 'a/b/keys'])
      expect(statSync(join(root, folder)).mode & 0o777).toBe(0o700);
    chmodSync(join(root, 'a'), 0o750);
    privateFolder(join(root, 'a'));
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o750);
  });

  // Node's `recursive: true` looped for ever there (a core at 100 %, SIGTERM unheard): a server
  // given KEYS_DIR or EDITING_DIR in /proc never answered. In a process of its own, with a limit.
  it.skipIf(!existsSync('/proc/self'))(
    'under a parent where mkdir answers ENOENT (/proc): fails at once, saying so',
    async () => {
      const script = `import('./src/server/private-files.ts').then(
        (files) => files.privateFolder('/proc/agency-site/keys'),
      ).catch((error) => { console.log(error.code); });`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
        timeout: 20_000,
      });
      expect(stdout.trim()).toBe('ENOENT');
    },
  );
});

describe('a key file', () => {
  it('is one key when several processes make it at once', async () => {
    const base = newFolder();
    const module = join(import.meta.dirname, '../../src/server/private-files.ts');
    // Each process makes the key of 100 new folders as fast as it can: many of them at the same
    // moment as another process.
    const script = `import { keyFile } from ${JSON.stringify(module)};
      const base = ${JSON.stringify(base)};
      const keys = [];
      for (let i = 0; i < 100; i++) keys.push(keyFile(base + '/' + i, 'staff'));
      process.stdout.write(JSON.stringify(keys));`;
    const outputs = await Promise.all(
      [1, 2, 3, 4].map(() => run(process.execPath, ['--input-type=module', '-e', script])),
    );
    const [first, ...others] = outputs.map(({ stdout }) => JSON.parse(stdout) as string[]);
    expect(new Set(first).size).toBe(100);
    for (const keys of others) expect(keys).toEqual(first);
    // Nothing left beside each key: no draft of a process that lost.
    for (let i = 0; i < 100; i++) expect(readdirSync(join(base, String(i)))).toEqual(['staff.key']);
  });

  it('cut short is refused, saying what to do', () => {
    const folder = newFolder();
    writeFileSync(join(folder, 'booking.key'), 'abc\n');
    expect(() => keyFile(folder, 'booking')).toThrow(KeyFileError);
    expect(() => keyFile(folder, 'booking')).toThrow(
      /booking\.key holds no key.*put back the copy/,
    );
  });
});

describe('the SQLite store and its backups, under umask 000', () => {
  it('are 0600 (the file, its -wal and -shm, a backup, the file a restore replaces) in folders 0700', async () => {
    const folder = newFolder();
    const path = join(folder, 'data', 'nested', 'enquiries.sqlite');
    await underUmask000(async () => {
      const store = new SqliteStore(path);
      await store.commit(enquiry(), []);
      for (const file of sqliteFiles(path)) expect([file, mode(file)]).toEqual([file, '600']);
      expect(mode(join(folder, 'data'))).toBe('700');
      expect(mode(join(folder, 'data', 'nested'))).toBe('700');

      const backup = join(folder, 'backups', 'enquiries-1.sqlite');
      await backupStore(path, backup);
      expect(mode(backup)).toBe('600');
      expect(mode(join(folder, 'backups'))).toBe('700');
      await store.close();

      const { replaced } = await restoreStore(backup, path, new Date('2026-11-28T04:00:00Z'));
      expect(mode(path)).toBe('600');
      expect(mode(replaced!)).toBe('600');
    });
  });

  it('keeps the file it replaces 0600 even when that one was open to others', async () => {
    const folder = newFolder();
    const path = join(folder, 'enquiries.sqlite');
    const store = new SqliteStore(path);
    await store.commit(enquiry(), []);
    await store.close();
    const backup = join(folder, 'backup.sqlite');
    await backupStore(path, backup);
    chmodSync(path, 0o644);
    const { replaced } = await restoreStore(backup, path);
    expect(mode(replaced!)).toBe('600');
    expect(mode(path)).toBe('600');
  });
});
