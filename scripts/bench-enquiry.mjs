// Benchmark (not a test): enquiries per second that the built server stores, on loopback.
// Starts `src/server/main.ts` with a fresh store and the rate limit off, runs autocannon for a
// bounded time, then checks that every acknowledged enquiry (a 2xx answer with its id) is stored.
// Every post carries an idempotency key of its own, as the site's forms send.
// Targets: >= 1,500 stored enquiries/s in total, p99 < 50 ms.
//
// Usage: npm run bench:enquiry [-- --seconds 10 --connections 16]
//   --postgres          the store on PostgreSQL (an embedded server, as in the tests), not SQLite
//   --processes 2       that many server processes on the one database, the load spread across them
//   --kill              kill -9 one process halfway through (its connections' posts then fail)
//   --smtp              e-mail on, to an SMTP server here; counts that each enquiry is mailed once
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import autocannon from 'autocannon';
import { enquiryFormBody as body, freePort, serveBuild } from './local.mjs';
import { startPostgres } from './postgres.mjs';
import { startSmtp } from './smtp.ts';
import { openStore } from '../src/server/store/index.ts';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    postgres: { type: 'boolean', default: false },
    processes: { type: 'string', default: '1' },
    kill: { type: 'boolean', default: false },
    smtp: { type: 'boolean', default: false },
  },
});
if (!existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const processes = Number(values.processes);
if (processes > 1 && !values.postgres) {
  console.error('More than one process needs the shared store: add --postgres.');
  process.exit(1);
}

const postgres = values.postgres ? await startPostgres() : undefined;
const databaseUrl = await postgres?.createDatabase('bench');
const smtpPort = await freePort();
const smtp = values.smtp ? await startSmtp(smtpPort) : undefined;
const env = {
  RATE_LIMIT: 'off',
  ...(databaseUrl && { DATABASE_URL: databaseUrl }),
  ...(smtp && {
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}?ignoreTLS=true`,
    ENQUIRY_TO: 'sales@agency.example',
    ENQUIRY_FROM: 'website@agency.example',
    JOBS_POLL_MS: '200',
    // Mail claimed by the process killed with --kill is taken over after this.
    JOBS_LEASE_MS: '10000',
  }),
};
const servers = [];
for (let i = 0; i < processes; i++) servers.push(await serveBuild(env));

/** The ids of the enquiries the servers acknowledged. */
const acknowledged = [];
// Each process gets its share of the connections, as a load balancer would spread them.
const runs = servers.map((server) =>
  autocannon({
    url: `${server.url}/php/email.php`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body,
    requests: [
      {
        // A new submission each time: its own key, as a visitor's device makes one per enquiry.
        setupRequest: (request) => ({
          ...request,
          body: `${body}&idempotency_key=${randomUUID()}`,
        }),
        onResponse: (status, response) => {
          if (status >= 200 && status < 300) acknowledged.push(JSON.parse(response).id);
        },
      },
    ],
    connections: Math.max(1, Math.round(connections / processes)),
    duration: seconds,
  }),
);
if (values.kill) {
  setTimeout(
    () => {
      console.log(`kill -9 of the process at ${servers[0].url}, ${seconds / 2} s in`);
      void servers[0].kill9();
    },
    (seconds * 1000) / 2,
  );
}
const results = await Promise.all(runs);

const store = await openStore(
  databaseUrl ? { databaseUrl, databasePath: '' } : { databasePath: servers[0].database },
  { readOnly: true },
);
const storedIds = new Set((await store.all()).map((e) => e.id));
const lost = acknowledged.filter((id) => !storedIds.has(id));

let mailed;
if (smtp) {
  // Every stored enquiry's e-mail, once: wait for the queue of jobs (of the processes still running).
  const deadline = Date.now() + 180_000;
  while (smtp.received.length < storedIds.size && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const ids = smtp.received.map((m) => /^Message-ID: <([^@]+)@/m.exec(m.raw)?.[1]);
  mailed = { messages: ids.length, distinct: new Set(ids).size };
}
await store.close();
for (const server of servers) await server.stop();
await smtp?.close();
await postgres?.stop();

const sum = (key) => results.reduce((total, r) => total + r[key], 0);
const ok = sum('2xx');
const worst = (pick) => Math.max(...results.map(pick));
const rows = [
  ['stored enquiries/s', (ok / seconds).toFixed(0), '>= 1500'],
  ['latency p50', `${worst((r) => r.latency.p50)} ms`, ''],
  ['latency p99', `${worst((r) => r.latency.p99)} ms`, '< 50 ms'],
  ['2xx answers', String(ok), ''],
  ['non-2xx answers', String(sum('non2xx')), '0'],
  ['errors / timeouts', `${sum('errors')} / ${sum('timeouts')}`, values.kill ? '' : '0 / 0'],
  ['rows stored', String(storedIds.size), `>= 2xx (${ok})`],
  ['acknowledged, lost', String(lost.length), '0'],
  ...(mailed
    ? [
        [
          'e-mails (distinct)',
          `${mailed.messages} (${mailed.distinct})`,
          `${storedIds.size} (${storedIds.size})`,
        ],
      ]
    : []),
];
console.log(
  `\nPOST /php/email.php, ${connections} connections for ${seconds} s on loopback, ` +
    `${processes} process${processes > 1 ? 'es' : ''} on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}\n`,
);
for (const [name, value, target] of rows)
  console.log(`${name.padEnd(20)} ${value.padStart(12)}   ${target}`);
const failed =
  lost.length > 0 ||
  (mailed && (mailed.messages !== storedIds.size || mailed.distinct !== mailed.messages));
console.log(
  failed
    ? '\nMISMATCH: an acknowledged enquiry is missing, or the e-mails do not match the stored enquiries.'
    : '\nEvery acknowledged enquiry is stored' +
        (mailed ? ', and each stored one was mailed once.' : '.'),
);
process.exitCode = failed ? 1 : 0;
