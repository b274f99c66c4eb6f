// Benchmark (not a test): enquiries per second that the built server stores, on loopback.
// Starts `src/server/main.ts` with a fresh store and the rate limit off, runs autocannon for a
// bounded time, then checks that stored rows equal 2xx answers. Every post carries an idempotency
// key of its own, as the site's forms send. Targets: >= 1,500/s, p99 < 50 ms.
//
// Usage: npm run bench:enquiry [-- --seconds 10 --connections 16]
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { serveBuild } from './local.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
  },
});
if (!existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}

const server = await serveBuild({ RATE_LIMIT: 'off' });
const url = server.url;

const body = new URLSearchParams({
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  contact: '+44 20 7946 0958',
  service: 'Web Development,Technical Consultancy',
  project: 'A booking platform for 12 clinics, with online payments and reminders by text message.',
}).toString();

const result = await autocannon({
  url: `${url}/php/email.php`,
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  body,
  // A new submission each time: its own key, as a visitor's device makes one per enquiry.
  requests: [
    {
      setupRequest: (request) => ({ ...request, body: `${body}&idempotency_key=${randomUUID()}` }),
    },
  ],
  connections: Number(values.connections),
  duration: Number(values.seconds),
});

const ok = result['2xx'];
const stored = new DatabaseSync(server.database, { readOnly: true })
  .prepare('SELECT count(*) AS n FROM enquiries')
  .get().n;
await server.stop();

const perSecond = ok / Number(values.seconds);
const rows = [
  ['stored enquiries/s', perSecond.toFixed(0), '>= 1500'],
  ['requests/s (mean)', result.requests.average.toFixed(0), ''],
  ['latency p50', `${result.latency.p50} ms`, ''],
  ['latency p99', `${result.latency.p99} ms`, '< 50 ms'],
  ['2xx answers', String(ok), ''],
  ['non-2xx answers', String(result.non2xx), '0'],
  ['errors / timeouts', `${result.errors} / ${result.timeouts}`, '0 / 0'],
  ['rows stored', String(stored), `>= 2xx (${ok})`],
];
console.log(
  `\nPOST /php/email.php, ${values.connections} connections for ${values.seconds} s on loopback\n`,
);
for (const [name, value, target] of rows)
  console.log(`${name.padEnd(20)} ${value.padStart(10)}   ${target}`);
// Requests still in flight when the run ends are stored but their answers are not counted,
// so up to one row per connection may exceed the 2xx count; fewer rows than 2xx would be loss.
const lost = stored < ok || stored - ok > Number(values.connections);
console.log(
  lost
    ? '\nMISMATCH: stored rows do not match the 2xx answers.'
    : `\nEvery 2xx answer is a stored row (${stored - ok} more were stored as the run was cut off).`,
);
process.exitCode = lost ? 1 : 0;
