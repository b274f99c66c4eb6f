// Calendar benchmark (not a test): how long the built server takes to answer /healthz while it
// reads hosts' feeds, hostile and large (each parsed in a worker thread, src/server/calendars/):
// an event of every second since 2020 with a COUNT of a billion, a daily one since 1900, and a
// legal feed of --events events (some years of a busy calendar). /healthz is asked every
// --every ms from when the feeds are answered until both hosts' calendars are read, --rounds
// times (a new server each). Target: p99 < 50 ms.
//
// Usage: npm run bench:feeds [-- --events 20000 --every 10 --rounds 3]
import { existsSync } from 'node:fs';
import {
  asWaited,
  busyCalendar,
  dailySince1900,
  everySecondSince2020,
  percentile,
  serveFeeds,
  watchHealth,
} from './calendar-feeds.mjs';
import { serveBuild } from './local.mjs';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: {
    events: { type: 'string', default: '20000' },
    every: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
  },
});
if (!existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const busy = busyCalendar({ events: Number(values.events) });
console.log(
  `Feeds: every second since 2020 (${everySecondSince2020.length} bytes), daily since 1900, ` +
    `${values.events} events (${(busy.length / 1024 / 1024).toFixed(1)} MB).`,
);
const all = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const feeds = await serveFeeds({
    '/every-second.ics': everySecondSince2020,
    '/since-1900.ics': dailySince1900,
    '/busy.ics': busy,
  });
  const server = await serveBuild({
    CALENDAR_FEEDS: `anna=${feeds.url}/every-second.ics anna=${feeds.url}/busy.ics ben=${feeds.url}/since-1900.ics`,
  });
  let releasedAt = Infinity;
  const { samples, done } = await watchHealth(server.url, {
    everyMs: Number(values.every),
    onStart: () => {
      releasedAt = performance.now();
      feeds.release();
    },
    until: (body) =>
      body.calendars?.length === 2 && body.calendars.every((c) => c.fresh && !c.error),
  });
  await server.stop();
  await feeds.close();
  const answers = samples.filter((sample) => sample.at > releasedAt).map(({ ms }) => ms);
  // As a client asking every --every ms would have waited (a slow answer holds back the asks due
  // meanwhile).
  const reading = asWaited(answers, Number(values.every));
  all.push(...reading);
  const ms = (value) => `${value.toFixed(1)} ms`;
  console.log(
    `Round ${round}: ${done ? 'read' : 'NOT read'} in ${ms(samples.at(-1).at - releasedAt)}; ` +
      `/healthz ${answers.length} times meanwhile: p50 ${ms(percentile(reading, 50))}, ` +
      `p95 ${ms(percentile(reading, 95))}, p99 ${ms(percentile(reading, 99))}, max ${ms(Math.max(...reading))}`,
  );
}
console.log(
  `All rounds: p50 ${percentile(all, 50).toFixed(1)} ms, p99 ${percentile(all, 99).toFixed(1)} ms (target: p99 < 50 ms)`,
);
