// Benchmark (not a test): field data beacons at full speed against the built production server on
// loopback, and what they do to enquiries. Three runs on one server (SQLite, the rate limits on,
// clients told apart by X-Forwarded-For from a trusted proxy, each request from an address of its
// own, as many visitors are):
//   1. enquiries alone, as `npm run bench:enquiry` sends them: as fast as the server answers, on
//      16 connections (or at a steady --enquiry-rate per second), for their latency;
//   2. beacons alone, as fast as the server answers them (--connections), each a page view's five
//      measurements;
//   3. both at once: the same enquiries while beacons run at full speed.
// Then checks the store: every measurement of every acknowledged beacon, and every enquiry, stored.
// Targets: >= 2,000 stored measurements/s with beacon p99 < 50 ms; enquiry latency (p50 and p99)
// during the beacons within 20% of run 1's.
//
// Usage: npm run bench:vitals [-- --seconds 10 --connections 16 --enquiry-connections 16]
//        [--enquiry-rate 20] [--per-second 500]
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import autocannon from 'autocannon';
import { enquiryFormBody as enquiryBody, serveBuild } from './local.mjs';
import { openStore } from '../src/server/store/index.ts';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'enquiry-connections': { type: 'string', default: '16' },
    'enquiry-rate': { type: 'string' },
    // The server's pace for beacons (VITALS_PER_SECOND; its default unless given).
    'per-second': { type: 'string' },
  },
});
if (!existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const enquiryConnections = Number(values['enquiry-connections']);
const enquiryRate = values['enquiry-rate'] ? Number(values['enquiry-rate']) : undefined;

const server = await serveBuild({
  TRUSTED_PROXIES: '127.0.0.1',
  // The speed of taking beacons in, not the day's cap (whose sampling would leave some out).
  VITALS_DAILY_CAP: '100000000',
  ...(values['per-second'] && { VITALS_PER_SECOND: values['per-second'] }),
});

let clients = 0;
/**
 * A new client for each request, each in a network (/24) of its own: no client, and no network,
 * comes near its limit (a network's share of a day's field data included).
 */
const nextClient = () => {
  clients += 1;
  return `${11 + ((clients >> 16) & 127)}.${(clients >> 8) & 255}.${clients & 255}.1`;
};

const paths = ['/', '/iphone', '/android', '/about', '/portfolio', '/contact', '/laravel'];
const beaconOf = (n) =>
  JSON.stringify({
    path: paths[n % paths.length],
    navigation: 'navigate',
    connection: n % 3 ? '4g' : '3g',
    device: n % 4 ? 'phone' : 'desktop',
    metrics: [
      { name: 'LCP', value: 600 + (n % 2000), target: 'main>h1.hero__title' },
      { name: 'INP', value: 40 + (n % 300), target: 'button.menu-toggle', phases: [4, 30, 16] },
      { name: 'CLS', value: (n % 20) / 100 },
      { name: 'FCP', value: 400 + (n % 1500) },
      { name: 'TTFB', value: 20 + (n % 400) },
    ],
  });

let beaconsAcknowledged = 0;
function beacons() {
  let n = 0;
  return autocannon({
    url: `${server.url}/vitals`,
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: server.url },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'x-forwarded-for': nextClient() },
          body: beaconOf(n++),
        }),
        onResponse: (status) => {
          if (status === 204) beaconsAcknowledged += 1;
        },
      },
    ],
    connections,
    duration: seconds,
  });
}

let enquiriesAcknowledged = 0;
function enquiries() {
  return autocannon({
    url: `${server.url}/php/email.php`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'x-forwarded-for': nextClient() },
          body: `${enquiryBody}&idempotency_key=${randomUUID()}`,
        }),
        onResponse: (status) => {
          if (status >= 200 && status < 300) enquiriesAcknowledged += 1;
        },
      },
    ],
    connections: enquiryConnections,
    ...(enquiryRate && { overallRate: enquiryRate }),
    duration: seconds,
  });
}

const alone = await enquiries();
const flood = await beacons();
const [together, floodTogether] = await Promise.all([enquiries(), beacons()]);
// The recorder writes every second: let it write the last beacons.
await new Promise((r) => setTimeout(r, 1500));

const store = await openStore({ databasePath: server.database }, { readOnly: true });
const measurements = (await store.vitalsSince('2000-01-01')).length;
const enquiriesStored = await store.count();
await store.close();
await server.stop();

const within = (during, before) => during <= before * 1.2;
const rows = [
  ['beacons alone: stored measurements/s', (flood['2xx'] * 5) / seconds, '>= 2000'],
  ['beacons alone: latency p50 (ms)', flood.latency.p50, ''],
  ['beacons alone: latency p99 (ms)', flood.latency.p99, '< 50'],
  ['beacons alone: non-2xx / errors', `${flood.non2xx} / ${flood.errors}`, '0 / 0'],
  ['with enquiries: measurements/s', (floodTogether['2xx'] * 5) / seconds, ''],
  ['enquiries alone: latency p50 (ms)', alone.latency.p50, ''],
  ['enquiries alone: latency p99 (ms)', alone.latency.p99, ''],
  [
    'enquiries during beacons: p50 (ms)',
    together.latency.p50,
    `<= ${(alone.latency.p50 * 1.2).toFixed(1)}`,
  ],
  [
    'enquiries during beacons: p99 (ms)',
    together.latency.p99,
    `<= ${(alone.latency.p99 * 1.2).toFixed(1)}`,
  ],
  ['enquiries: non-2xx', alone.non2xx + together.non2xx, '0'],
  ['enquiries alone: enquiries/s', alone['2xx'] / seconds, ''],
  ['enquiries during beacons: enquiries/s', together['2xx'] / seconds, ''],
  // Answers still on their way when a run ends are stored but not counted by autocannon.
  ['measurements stored', measurements, `>= 5 x ${beaconsAcknowledged} acknowledged`],
  ['enquiries stored', enquiriesStored, `>= ${enquiriesAcknowledged} acknowledged`],
];
console.log(
  `\nPOST /vitals at full speed (${connections} connections) and POST /php/email.php ${enquiryRate ? `at ${enquiryRate}/s` : 'at full speed'} (${enquiryConnections} connections), ${seconds} s per run, SQLite\n`,
);
for (const [name, value, target] of rows) {
  const shown = typeof value === 'number' ? value.toFixed(value < 100 ? 1 : 0) : value;
  console.log(`${name.padEnd(40)} ${shown.padStart(10)}   ${target}`);
}
const met =
  (flood['2xx'] * 5) / seconds >= 2000 &&
  flood.latency.p99 < 50 &&
  within(together.latency.p50, alone.latency.p50) &&
  within(together.latency.p99, alone.latency.p99) &&
  measurements >= beaconsAcknowledged * 5 &&
  enquiriesStored >= enquiriesAcknowledged;
console.log(met ? '\nEvery target met.' : '\nA target is not met (see above).');
process.exitCode = met ? 0 : 1;
