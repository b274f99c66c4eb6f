// Calendar feeds for the benchmarks and tests that have a server read them: a busy calendar of
// some years' use, the hostile ones a security probe sent (an event of every second since 2020 with
// a COUNT of a billion, a daily one since 1900), a server of feeds on loopback whose answers wait
// for a go, and /healthz asked every few milliseconds meanwhile.

const stamp = (/** @type {number} */ ms) =>
  new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
const day = 86_400_000;
/** Numbers in [0, 1), the same every run from the same seed. @param {number} seed */
const seeded = (seed) => () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const calendar = (/** @type {string[]} */ events) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n${events.join('\r\n')}\r\nEND:VCALENDAR\r\n`;

/**
 * A calendar of `events` events over three years around `now` (two behind, one ahead): one in
 * twenty a weekly series of 60, one a daily series of 20 with an EXDATE, one all-day, one free;
 * the same every run for the same `random`.
 */
export function busyCalendar({
  events = 2_000,
  now = Date.parse('2026-11-30T08:00:00Z'),
  random = seeded(42),
  uid = 'bench',
} = {}) {
  const lines = [];
  for (let i = 0; i < events; i++) {
    const start = now - 730 * day + Math.floor(random() * 1095 * 96) * 900_000;
    const length = (1 + Math.floor(random() * 4)) * 900_000;
    const kind = i % 20;
    const event = [
      `UID:${uid}-${i}@bench`,
      `DTSTART:${stamp(start)}`,
      `DTEND:${stamp(start + length)}`,
    ];
    if (kind === 0) event.push('RRULE:FREQ=WEEKLY;COUNT=60');
    else if (kind === 1)
      event.push('RRULE:FREQ=DAILY;COUNT=20', `EXDATE:${stamp(start + 2 * day)}`);
    else if (kind === 2)
      ((event[1] = `DTSTART;VALUE=DATE:${stamp(start).slice(0, 8)}`),
        (event[2] = `DTEND;VALUE=DATE:${stamp(start + day).slice(0, 8)}`));
    else if (kind === 3) event.push('TRANSP:TRANSPARENT');
    lines.push(`BEGIN:VEVENT\r\n${event.join('\r\n')}\r\nEND:VEVENT`);
  }
  return calendar(lines);
}

/**
 * The security probe's event, some 200 bytes, that once cost 13-15 s of the main thread at every
 * read: every second from 2020 to 2051.
 */
export const everySecondSince2020 = calendar([
  'BEGIN:VEVENT\r\nUID:every-second\r\nDTSTART:20200101T000000Z\r\nDURATION:PT1S\r\nRRULE:FREQ=SECONDLY;COUNT=1000000000\r\nEND:VEVENT',
]);

/** A meeting every day since 1900, 10:00 to 11:00 in London. */
export const dailySince1900 = calendar([
  'BEGIN:VEVENT\r\nUID:since-1900\r\nDTSTART;TZID=Europe/London:19000101T100000\r\nDTEND;TZID=Europe/London:19000101T110000\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT',
]);

/**
 * Serves `feeds` (path to text) on loopback; each answer waits for `release()`, so that whoever
 * watches the server is watching when it reads them.
 */
export async function serveFeeds(/** @type {Record<string, string>} */ feeds) {
  const { createServer } = await import('node:http');
  /** @type {() => void} */
  let release = () => {};
  const released = new Promise((resolve) => (release = () => resolve(undefined)));
  const server = createServer(async (req, res) => {
    const text = feeds[req.url ?? ''];
    if (text === undefined) return res.writeHead(404).end();
    await released;
    res.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' }).end(text);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`,
    release,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Asks `url`/healthz every `everyMs` (one request at a time, the next due from the last's start)
 * until `until(body)` holds or `timeoutMs` passes: each answer, and how long it took in ms.
 * `onStart` runs once the first has been answered.
 */
export async function watchHealth(
  /** @type {string} */ url,
  /** @type {{ everyMs?: number, timeoutMs?: number, until?: (body: any) => boolean, onStart?: () => unknown }} */ {
    everyMs = 15,
    timeoutMs = 30_000,
    until,
    onStart,
  } = {},
) {
  /** @type {{ at: number, ms: number, body: any }[]} */
  const samples = [];
  const began = performance.now();
  let done = false;
  for (let due = performance.now(); !done && performance.now() - began < timeoutMs;) {
    const sent = performance.now();
    const response = await fetch(`${url}/healthz`);
    const body = await response.json();
    const at = performance.now();
    samples.push({ at, ms: at - sent, body });
    if (samples.length === 1) await onStart?.();
    done = until?.(body) ?? false;
    due = Math.max(due + everyMs, performance.now());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  return { samples, done };
}

/**
 * Answer times as a client asking every `everyMs` would have waited: an answer of 300 ms held back
 * the asks due meanwhile too (290, 280, … 10 ms late), which a watch that waits for each answer
 * never sends (HdrHistogram's correction for coordinated omission). Without it, a server that
 * stalls for seconds now and then shows one slow answer a stall, and a fine 99th percentile.
 */
export function asWaited(/** @type {number[]} */ times, /** @type {number} */ everyMs) {
  const all = [];
  for (const ms of times) {
    all.push(ms);
    for (let late = ms - everyMs; late >= everyMs; late -= everyMs) all.push(late);
  }
  return all;
}

/** The `p`th percentile of some numbers (nearest rank). */
export function percentile(/** @type {number[]} */ values, /** @type {number} */ p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
