// Free-times benchmark (not a test): the free times of the whole offered window, as /schedule and
// the booking dialog ask for them, for 5 hosts with 3 calendar feeds of 2,000 events each (weekly
// series, daily series with exceptions, single and all-day events) and 20 calls booked. Each
// request takes the hosts' busy times from the calendars as kept (src/server/calendars/service.ts)
// and lays out the free slots (src/server/booking/free-times.ts). Target: p95 <= 20 ms. Then what a
// booking adds to its request: the offered window's times, counted for the unconfirmed share.
//
// With --against REF (default: the commit before hosts, 760af56), the same request of that commit's
// code (its free times from the opening hours and the calls alone, from `git archive`) is measured in
// the same run, alternately, so that both see the same machine.
//
// Usage: npm run bench:slots [-- --against REF] [-- --requests 400]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'js-yaml';
import { busyCalendar } from './calendar-feeds.mjs';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: {
    against: { type: 'string', default: '760af56' },
    requests: { type: 'string', default: '400' },
  },
});
const root = resolve(import.meta.dirname, '..');
const requests = Number(values.requests);

const { availabilitySchema } = await import(
  pathToFileURL(join(root, 'src/domain/booking.ts')).href
);
const { freeSlots, offeredTimes } = await import(
  pathToFileURL(join(root, 'src/server/booking/free-times.ts')).href
);
const { CalendarService } = await import(
  pathToFileURL(join(root, 'src/server/calendars/service.ts')).href
);

const file = load(readFileSync(join(root, 'src/content/data/availability.yaml'), 'utf8'));
const { id: _id, ...calls } = file.entries.find((entry) => entry.id === 'calls');
const hostIds = ['anna', 'ben', 'carla', 'dev', 'eli'];
const availability = availabilitySchema.parse({
  ...calls,
  hosts: hostIds.map((id) => ({ id, name: id, email: `${id}@agency.example` })),
});

// A fixed "now" on a Monday morning, and the same events every run.
const now = Date.parse('2026-11-30T08:00:00Z');
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const day = 86_400_000;
const feed = (host, index) => busyCalendar({ events: 2000, now, random, uid: `${host}-${index}` });

// The calendars as a server holds them: every feed read once (into a store kept in memory).
const feeds = hostIds.flatMap((host) => [0, 1, 2].map((index) => ({ host, index })));
const texts = new Map(
  feeds.map(({ host, index }) => [`https://cal.example/${host}/${index}.ics`, feed(host, index)]),
);
const rows = new Map();
const copies = {
  async claimRead(feedId, host) {
    rows.set(feedId, { ...(rows.get(feedId) ?? { version: 0 }), feedId, host });
    return { etag: null, lastModified: null };
  },
  async saveRead(feedId, read, at) {
    const row = rows.get(feedId);
    Object.assign(row, {
      body: read.body,
      version: row.version + 1,
      fetchedAt: at,
      checkedAt: at,
      error: null,
    });
  },
  async saveFailure() {},
  async states() {
    return [...rows.values()].map(({ body: _body, ...state }) => state);
  },
  async body(feedId) {
    return rows.get(feedId)?.body;
  },
};
const service = new CalendarService({
  config: {
    feeds: [...texts.keys()].map((href) => ({ host: href.split('/')[3], url: new URL(href) })),
    problems: [],
    refusedHosts: [],
    refreshMs: 300_000,
    maxStaleMs: 3_600_000,
    timeoutMs: 10_000,
    maxBytes: 5 * 1024 * 1024,
  },
  copies,
  // As the server gives them (from availability.yaml): each feed is read once, for its host's zone.
  timeZones: new Map(hostIds.map((id) => [id, availability.timeZone])),
  now: () => now,
  fetch: async (url) => ({
    status: 'modified',
    body: texts.get(url.href),
    etag: undefined,
    lastModified: undefined,
  }),
  log: () => {},
});
// Each feed read in a worker (the service's), for its host's zone.
let started = performance.now();
await service.tick();
await service.ready(availability, now);
const readMs = performance.now() - started;
const busyIntervals = [...service.busy(availability, now).values()].reduce(
  (n, busy) => n + busy.length,
  0,
);

const booked = Array.from({ length: 20 }, (_, i) => {
  const start = now + (2 + i) * day + 10 * 3_600_000;
  return {
    start: new Date(start).toISOString().replace('.000', ''),
    end: new Date(start + 1_800_000).toISOString().replace('.000', ''),
    host: hostIds[i % 5],
  };
});

// The offered window's times (the base of BOOKING_UNCONFIRMED_SHARE), as each booking counts them:
// the first of a day lays the window out (before any request here has laid out a day), the rest
// count the starts past the notice.
started = performance.now();
const windowTimes = offeredTimes(availability, now);
const windowFirstMs = performance.now() - started;
const windowTimings = [];
for (let i = 0; i < requests; i++) {
  started = performance.now();
  offeredTimes(availability, now + i * 1000);
  windowTimings.push(performance.now() - started);
}

// The commit to compare with: its own free times, from its tree.
const dir = mkdtempSync(join(tmpdir(), 'bench-slots-'));
execFileSync('sh', ['-c', `git archive ${values.against} src | tar -x -C ${dir}`], { cwd: root });
symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
const before = await import(pathToFileURL(join(dir, 'src/server/booking/free-times.ts')).href);

const timings = { now: [], before: [] };
let offered = 0;
for (let i = 0; i < requests; i++) {
  for (const which of i % 2 ? ['now', 'before'] : ['before', 'now']) {
    started = performance.now();
    if (which === 'now')
      offered = freeSlots(availability, booked, now, {}, service.busy(availability, now)).length;
    else before.freeSlots(availability, booked, now);
    timings[which].push(performance.now() - started);
  }
}
rmSync(dir, { recursive: true, force: true });
await service.stop();

const quantile = (list, q) =>
  [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(q * list.length))];
const line = (name, list) =>
  `${name.padEnd(28)} p50 ${quantile(list, 0.5).toFixed(2).padStart(7)} ms   p95 ${quantile(list, 0.95).toFixed(2).padStart(7)} ms   p99 ${quantile(list, 0.99).toFixed(2).padStart(7)} ms`;
console.log(
  `Free times of the whole window (${availability.daysAhead + 1} days), ${requests} requests each:`,
);
console.log(
  `  5 hosts, 15 feeds of 2,000 events (${busyIntervals} busy intervals in the window), 20 calls: ${offered} times offered`,
);
console.log(`  ${line('this tree', timings.now)}`);
console.log(`  ${line(`${values.against} (hours and calls)`, timings.before)}`);
console.log(
  `  reading the 15 feeds once (at start, and when one changes): ${readMs.toFixed(0)} ms`,
);
console.log(
  `The offered window's times (${windowTimes}, of 5 hosts), as a booking counts them: the first of a day ${windowFirstMs.toFixed(2)} ms, then`,
);
console.log(`  ${line('each booking', windowTimings)}`);
const p95 = quantile(timings.now, 0.95);
console.log(
  p95 <= 20
    ? `p95 ${p95.toFixed(2)} ms: within the 20 ms target.`
    : `p95 ${p95.toFixed(2)} ms: OVER the 20 ms target.`,
);
process.exitCode = p95 <= 20 ? 0 : 1;
