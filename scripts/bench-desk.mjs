// The staff desk at 100,000 enquiries (not a test): seeds 100,000 enquiries, 10,000 of them booked
// calls (past and ahead, some waiting for confirmation, some cancelled, a third handled), on each
// engine (a SQLite file, and an embedded PostgreSQL as the tests start it), with bulk SQL; then
// times the desk's pages as /staff reads them: through the store's StaffQueries and the desk's
// render model (deskPage of src/server/staff/desk-page.ts: a page of a list, its notes, its items).
// Cases: the first page, a later page, each list, a filter by host and dates, and a search by
// name, by e-mail and by reference, each a name that only one enquiry has. Target: p95 <= 100 ms.
//
// Usage: npm run bench:desk [-- --runs 40] [-- --engines sqlite,postgres]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { startPostgres } from './postgres.mjs';
import { openStore } from '../src/server/store/index.ts';
import { deskPage } from '../src/server/staff/desk-page.ts';
import { deskFilters } from '../src/server/staff/desk-view.ts';
import { SEARCH_WORDS_OF_ALL } from '../src/server/store/migrations.ts';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: {
    runs: { type: 'string', default: '40' },
    engines: { type: 'string', default: 'sqlite,postgres' },
  },
});
const runs = Number(values.runs);
const ENQUIRIES = 100_000;
/** Every 10th enquiry books a call: 10,000 calls, an hour apart, half past and half ahead. */
const CALL_EVERY = 10;
const now = Date.parse('2027-06-01T12:00:00Z');
const hour = 3_600_000;
const zone = 'Europe/London';
const hosts = [
  { id: 'anna', name: 'Anna Reid' },
  { id: 'ben', name: 'Ben Okafor' },
];

/**
 * The seed's columns for row `i` (1..ENQUIRIES), as SQL of each engine over a series `i`: arrival
 * 10 minutes apart back from `now`; every CALL_EVERY-th a call (its start an hour apart around
 * `now`, the host by turns, 1 in 7 waiting for confirmation, 1 in 13 cancelled); a third handled.
 */
const seedSql = {
  sqlite: (
    at,
  ) => `WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${ENQUIRIES})
    INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip, user_agent, spam,
      call_start, call_end, call_host, call_confirmed_at, call_cancelled_at, handled_at, handled_by)
    SELECT printf('%08x-0000-4000-8000-%012x', i, i),
      CASE WHEN i % ${CALL_EVERY} = 0 THEN 'call' ELSE 'enquiry' END,
      strftime('%Y-%m-%dT%H:%M:%fZ', ${at / 1000} - i * 600, 'unixepoch'),
      'Prospect ' || i, 'p' || i || '@company' || (i % 100) || '.example',
      '{"message":"We would like a quote for an app."}', '127.0.0.1', 'bench', 0,
      ${call('sqlite')}
    FROM s`,
  postgres: (at) => `INSERT INTO enquiries (id, kind, created_at, name, email, data, client_ip,
      user_agent, spam, call_start, call_end, call_host, call_confirmed_at, call_cancelled_at,
      handled_at, handled_by)
    SELECT lpad(to_hex(i), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(i), 12, '0'),
      CASE WHEN i % ${CALL_EVERY} = 0 THEN 'call' ELSE 'enquiry' END,
      to_timestamp(${at / 1000} - i * 600),
      'Prospect ' || i, 'p' || i || '@company' || (i % 100) || '.example',
      '{"message":"We would like a quote for an app."}'::jsonb, '127.0.0.1', 'bench', false,
      ${call('postgres')}
    FROM generate_series(1, ${ENQUIRIES}) AS s(i)`,
};

/** A call's columns for row i: SQL of `engine`. */
function call(engine) {
  const instant =
    engine === 'sqlite'
      ? (seconds) => `strftime('%Y-%m-%dT%H:%M:%SZ', ${seconds}, 'unixepoch')`
      : (seconds) => `to_timestamp(${seconds})`;
  const start = `${now / 1000} + (i / ${CALL_EVERY} - ${ENQUIRIES / CALL_EVERY / 2}) * 3600`;
  const isCall = `i % ${CALL_EVERY} = 0`;
  return `CASE WHEN ${isCall} THEN ${instant(start)} END,
      CASE WHEN ${isCall} THEN ${instant(`${start} + 1800`)} END,
      CASE WHEN ${isCall} THEN CASE WHEN i % 20 = 0 THEN 'anna' ELSE 'ben' END END,
      CASE WHEN ${isCall} AND i % 7 <> 0 THEN ${instant(`${now / 1000} - 86400 * 30`)} END,
      CASE WHEN ${isCall} AND i % 13 = 0 THEN ${instant(`${now / 1000} - 86400`)} END,
      CASE WHEN i % 3 = 0 THEN ${now - hour} END,
      CASE WHEN i % 3 = 0 THEN 'anna@northgate-digital.example' END`;
}

/** The desk's cases: each an address of /staff, as a member would open it. */
const cases = [
  ['first page (calls ahead)', '/staff'],
  ['a later page (all, page 40)', '/staff?state=all&page=40'],
  ['waiting for confirmation', '/staff?state=unconfirmed'],
  ['past', '/staff?state=past'],
  ['cancelled', '/staff?state=cancelled'],
  ['all enquiries', '/staff?state=all'],
  ['new', '/staff?state=new'],
  ['handled', '/staff?state=handled'],
  ['filter: host, past, dates', '/staff?state=past&host=anna&from=2027-03-01&to=2027-03-31'],
  ['search by name', '/staff?q=Prospect+54321'],
  ['search by e-mail', '/staff?q=p77777%40company77'],
  ['search by reference', '/staff?q=0000d431'],
  ['search, no match', '/staff?q=nobody+at+all'],
  ['search, a word in every name', '/staff?q=prospect'],
  ['search, a word and a number', '/staff?q=prospect+54321'],
  ['search, a common word, cancelled', '/staff?state=cancelled&q=prospect'],
  // Each word begins 11,000 addresses' domains, and no enquiry has both: no word is rare.
  ['search, two common words, none both', '/staff?q=company1+company2'],
  ['search, two common words, often both', '/staff?q=prospect+company1'],
  ['the last page (all, page 4000)', '/staff?state=all&page=4000'],
];

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/** Times each case `runs` times (after 3 unmeasured), through deskPage as /staff calls it. */
async function measure(store) {
  const desk = { store, members: new Map(), where: () => undefined };
  const results = [];
  for (const [name, path] of cases) {
    const filters = deskFilters(new URL(path, 'http://desk'), new Set(hosts.map((h) => h.id)));
    const times = [];
    let shown = 0;
    for (let run = -3; run < runs; run++) {
      const started = performance.now();
      const { items } = await deskPage(desk, filters, zone, hosts, now);
      if (run >= 0) times.push(performance.now() - started);
      shown = items.length;
    }
    times.sort((a, b) => a - b);
    results.push({ name, shown, p50: percentile(times, 0.5), p95: percentile(times, 0.95) });
  }
  return results;
}

async function sqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-desk-'));
  const path = join(dir, 'enquiries.sqlite');
  try {
    (await openStore({ databasePath: path })).close();
    const started = performance.now();
    const db = new DatabaseSync(path);
    db.exec(seedSql.sqlite(now));
    // The search words, as the migration that made their table makes them for every enquiry.
    db.exec(SEARCH_WORDS_OF_ALL.sqlite);
    db.close();
    const seeded = performance.now() - started;
    const store = await openStore({ databasePath: path });
    try {
      return { seeded, results: await measure(store) };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres() {
  const server = await startPostgres();
  try {
    const databaseUrl = await server.createDatabase('bench');
    (await openStore({ databaseUrl, databasePath: '' })).close();
    const started = performance.now();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(seedSql.postgres(now));
    await client.query(SEARCH_WORDS_OF_ALL.postgres);
    await client.query('ANALYZE enquiries, enquiry_words');
    await client.end();
    const seeded = performance.now() - started;
    const store = await openStore({ databaseUrl, databasePath: '' });
    try {
      return { seeded, results: await measure(store) };
    } finally {
      await store.close();
    }
  } finally {
    await server.stop();
  }
}

const engines = { sqlite, postgres };
let over = false;
for (const engine of values.engines.split(',')) {
  const { seeded, results } = await engines[engine]();
  console.log(
    `\n${engine}: ${ENQUIRIES.toLocaleString('en')} enquiries, ${(ENQUIRIES / CALL_EVERY).toLocaleString('en')} calls, seeded in ${(seeded / 1000).toFixed(1)} s; ${runs} runs a case`,
  );
  for (const { name, shown, p50, p95 } of results) {
    over ||= p95 > 100;
    console.log(
      `  ${name.padEnd(34)} ${String(shown).padStart(3)} shown  p50 ${p50.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms${p95 > 100 ? '  over 100 ms' : ''}`,
    );
  }
}
console.log(over ? '\nSome p95 over 100 ms.' : '\nEvery p95 within 100 ms.');
