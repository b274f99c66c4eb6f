/**
 * What only the PostgreSQL store has, for servers that share it: migrations that several processes
 * may start at once, and a rate limit they count together. Its behaviour as a store is tested with
 * SQLite's in store.test.ts.
 */
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stepsOf } from '../../src/server/store/migrations';
import { PostgresStore } from '../../src/server/store/postgres/store';
import { expectUpgraded, newPostgresDatabase } from '../support/store-backends';
import { ahead, enquiry } from '../support/records';

const postgresMigrations = stepsOf('postgres');

const opened: PostgresStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
const open = async (url: string) => {
  const store = await PostgresStore.open(url);
  opened.push(store);
  return store;
};

async function query<T extends pg.QueryResultRow>(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('a transaction', () => {
  // pg queues a statement sent while another runs on the connection, with a deprecation warning;
  // pg 9 will refuse it. Repeats of stored enquiries, sent at once, were looked up side by side.
  it('sends its connection one statement at a time; repeats sent at once are each answered with the first', async () => {
    const store = await open(await newPostgresDatabase());
    const keys = Array.from({ length: 5 }, (_, i) => `key-${String(i + 1).padStart(16, '0')}`);
    const firsts = await Promise.all(
      keys.map((idempotencyKey) => store.commit(enquiry({ idempotencyKey }), [])),
    );
    const running = new Map<pg.Client, number>();
    let most = 0;
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const now = (running.get(this) ?? 0) + 1;
      running.set(this, now);
      most = Math.max(most, now);
      const done = () => running.set(this, running.get(this)! - 1);
      const result = (query as (...args: unknown[]) => unknown).apply(this, args);
      if (result instanceof Promise) result.then(done, done);
      else done();
      return result;
    } as typeof query);
    try {
      const repeats = await Promise.all(
        keys.map((idempotencyKey) =>
          store.commit(enquiry({ idempotencyKey, name: 'Someone Else' }), []),
        ),
      );
      expect(repeats.map((stored) => stored.id)).toEqual(firsts.map((stored) => stored.id));
    } finally {
      spy.mockRestore();
    }
    expect(most).toBe(1);
  });
});

describe('a connection lost mid-transaction', () => {
  // The database restarted while a transaction held its connection, between two statements: pg
  // tells its client with an 'error' event, which with no one listening ended the whole process
  // (a server under load, in CI). The transaction fails instead, and the store goes on.
  it('fails that transaction only; the next one gets a new connection', async () => {
    const url = await newPostgresDatabase();
    const store = await open(url);
    const gone = async () =>
      Number(
        (
          await query<{ n: string }>(
            url,
            `SELECT count(*) AS n FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()
               AND usename = current_user`,
          )
        )[0]!.n,
      ) === 0;
    await expect(
      store.transaction(async (tx) => {
        await tx.enquiry('none');
        await query(
          url,
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid()
             AND usename = current_user`,
        );
        // Time for the closed connection to reach its client, idle between two statements.
        await expect.poll(gone).toBe(true);
        await query(url, 'SELECT 1');
        return tx.enquiry('none');
      }),
    ).rejects.toThrow();
    const stored = await store.commit(enquiry(), []);
    expect(await store.transaction((tx) => tx.enquiry(stored.id))).toMatchObject({
      id: stored.id,
    });
  });
});

describe('migrations', () => {
  it('run once, in order, recorded in schema_migrations, when several processes start at once', async () => {
    const url = await newPostgresDatabase();
    const stores = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    expect(stores).toHaveLength(4);
    const applied = await query<{ version: number }>(
      url,
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(applied.map((row) => row.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
    // Opening again runs nothing.
    await open(url);
    expect(await query(url, 'SELECT version FROM schema_migrations')).toHaveLength(
      postgresMigrations.length,
    );
  });

  it('wait for another process’s, and run, however long they take: a statement’s time limit is not theirs', async () => {
    const url = await newPostgresDatabase();
    await open(url);
    // Another process migrating: it holds the lock for longer than a statement may take.
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock($1)', [7_110_214_771]);
      const opening = PostgresStore.open(url, { statementTimeoutMs: 300 });
      await new Promise((resolve) => setTimeout(resolve, 900));
      await other.query('COMMIT');
      const store = await opening;
      opened.push(store);
      expect(await store.all()).toEqual([]);
    } finally {
      await other.end();
    }
  });

  it('are not run by a read-only store (the staff CLI), which needs them run first', async () => {
    const url = await newPostgresDatabase();
    await expect(PostgresStore.open(url, { readOnly: true }).then((s) => s.all())).rejects.toThrow(
      /enquiries/,
    );
  });
});

describe('migration 2', () => {
  it('frees the times that spam held, keeps the outbox, and adds undeliverable mail and secrets', async () => {
    const url = await newPostgresDatabase();
    await query(
      url,
      `${postgresMigrations[0]};
       CREATE TABLE schema_migrations (
         version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now());
       INSERT INTO schema_migrations (version) VALUES (1);
       INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent, spam, call_start, call_end)
         VALUES ('spam-1', 'call', now(), 'Bot', 'bot@example.com', '{}', '127.0.0.1', 'test', true, '${ahead('2027-01-05T09:30:00Z')}', '${ahead('2027-01-05T10:00:00Z')}'),
                ('real-1', 'call', now(), 'Ada', 'ada@example.com', '{}', '127.0.0.1', 'test', false, '${ahead('2027-01-05T11:00:00Z')}', '${ahead('2027-01-05T11:30:00Z')}');
       INSERT INTO outbox (enquiry_id, mail, attempts, next_attempt_at) VALUES ('real-1', 'agency', 3, 0);`,
    );
    await expectUpgraded(await open(url));
  });
});

describe('the shared rate limit', () => {
  const minute = 60_000;
  const start = Date.parse(ahead('2027-01-01T12:00:00Z'));

  it('counts a client’s posts to every process together, and each client apart', async () => {
    const url = await newPostgresDatabase();
    const [a, b] = [
      (await open(url)).sharedRateLimit(3, minute)!,
      (await open(url)).sharedRateLimit(3, minute)!,
    ];
    expect(await a.hit('203.0.113.7', start)).toEqual({ allowed: true });
    expect(await b.hit('203.0.113.7', start + 1000)).toEqual({ allowed: true });
    expect(await a.hit('203.0.113.7', start + 2000)).toEqual({ allowed: true });
    expect(await b.hit('203.0.113.7', start + 3000)).toEqual({ allowed: false, retryAfter: 57 });
    expect(await a.hit('198.51.100.1', start + 3000)).toEqual({ allowed: true });
  });

  it('allows exactly the limit when many posts of one client arrive at once', async () => {
    const url = await newPostgresDatabase();
    const limits = [
      (await open(url)).sharedRateLimit(5, minute)!,
      (await open(url)).sharedRateLimit(5, minute)!,
    ];
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => limits[i % 2]!.hit('203.0.113.7', start + i)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
  });

  it('slides: the last window counts for the part of it still within a window of now', async () => {
    const url = await newPostgresDatabase();
    const limit = (await open(url)).sharedRateLimit(4, minute)!;
    for (let i = 0; i < 4; i++) expect((await limit.hit('c', start + i)).allowed).toBe(true);
    // A quarter into the next window, 3 of the 4 still count: one more is allowed, not two.
    expect((await limit.hit('c', start + minute * 1.25)).allowed).toBe(true);
    expect((await limit.hit('c', start + minute * 1.25 + 1)).allowed).toBe(false);
    // Two windows on, the first counts for nothing.
    expect((await limit.hit('c', start + minute * 2.9)).allowed).toBe(true);
  });
});
