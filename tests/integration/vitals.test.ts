/**
 * The field data endpoint on the built production server: a page's beacon is stored (its path only
 * if the build has it, stamped with the build), and whatever else a stranger sends (out-of-range
 * values, unknown metrics, extra fields, oversized, cross-site, not JSON) is refused with a 4xx and
 * not stored; nothing naming the visitor is kept; its rate limit is its own; VITALS=off is a 404.
 */
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/index';
import type { VitalRecord } from '../../src/server/store/types';
import { postForm, validEnquiry, type RunningServer } from '../support/server';
import { stoppedAfterEach } from './stopped-after-each';

const { start } = stoppedAfterEach({ VITALS_FLUSH_MS: '20' });

const beacon = (overrides: Record<string, unknown> = {}) => ({
  path: '/iphone',
  navigation: 'navigate',
  connection: '4g',
  device: 'phone',
  metrics: [
    { name: 'LCP', value: 812.5, target: 'main>h1' },
    { name: 'INP', value: 64, target: 'button.menu-toggle', phases: [8, 20, 36] },
    { name: 'CLS', value: 0.01 },
  ],
  ...overrides,
});

const send = (
  server: RunningServer,
  body: string | Uint8Array,
  headers: Record<string, string> = { 'Content-Type': 'text/plain;charset=UTF-8' },
) =>
  fetch(`${server.url}/vitals`, {
    method: 'POST',
    body: body as BodyInit,
    headers: { Origin: server.url, 'User-Agent': 'Mozilla/5.0 (Secret Phone 1)', ...headers },
  });

async function read(server: RunningServer): Promise<VitalRecord[]> {
  const store = await openStore({ databasePath: server.database }, { readOnly: true });
  try {
    return await store.vitalsSince('2000-01-01');
  } finally {
    await store.close();
  }
}

/**
 * The stored measurements: once there are `count` (the recorder writes its batches every 20 ms
 * here, later on a busy machine), or as they are now.
 */
async function stored(server: RunningServer, count = 0): Promise<VitalRecord[]> {
  await expect.poll(async () => (await read(server)).length).toBeGreaterThanOrEqual(count);
  return read(server);
}

describe('field data', () => {
  it("stores a page's beacon, its path without a query, and an unknown path as (other)", async () => {
    const server = await start();
    expect((await send(server, JSON.stringify(beacon()))).status).toBe(204);
    const json = { 'Content-Type': 'application/json' };
    const other = beacon({ path: '/wp-login.php', metrics: [{ name: 'TTFB', value: 90 }] });
    expect((await send(server, JSON.stringify(other), json)).status).toBe(204);
    const query = beacon({ path: '/about/', metrics: [{ name: 'FCP', value: 700 }] });
    expect((await send(server, JSON.stringify(query), json)).status).toBe(204);
    const rows = await stored(server, 5);
    const build = JSON.parse(readFileSync('dist/build.json', 'utf8')).id;
    expect(rows.map((r) => [r.path, r.metric, r.value, r.rating, r.build])).toEqual([
      ['/iphone', 'LCP', 812.5, 'good', build],
      ['/iphone', 'INP', 64, 'good', build],
      ['/iphone', 'CLS', 0.01, 'good', build],
      ['(other)', 'TTFB', 90, 'good', build],
      ['/about', 'FCP', 700, 'good', build],
    ]);
    expect(rows[1]).toMatchObject({ target: 'button.menu-toggle', phases: [8, 20, 36] });
  });

  it('keeps no address, user agent or time of day', async () => {
    const server = await start();
    await send(server, JSON.stringify(beacon()));
    await stored(server, 3);
    const db = new DatabaseSync(server.database, { readOnly: true });
    try {
      const columns = (db.prepare('PRAGMA table_info(vitals)').all() as { name: string }[]).map(
        (c) => c.name,
      );
      expect(columns).toEqual([
        'day',
        'path',
        'metric',
        'value',
        'rating',
        'navigation',
        'connection',
        'device',
        'build',
        'target',
        'phases',
        // A random number drawn as it came in, to keep a uniform sample of a busy day.
        'sample',
        // 4 hex digits of a keyed hash of the network: /speed's cap per network; it names none.
        'network',
      ]);
      const keys = db.prepare('SELECT DISTINCT network FROM vitals').all() as { network: string }[];
      expect(keys).toEqual([{ network: expect.stringMatching(/^[0-9a-f]{4}$/) }]);
      const dayColumns = db.prepare('PRAGMA table_info(vitals_days)').all() as { name: string }[];
      expect(dayColumns.map((c) => c.name)).toEqual(['day', 'received', 'dropped']);
      const dump = JSON.stringify(db.prepare('SELECT * FROM vitals').all());
      expect(dump).not.toMatch(/127\.0\.0\.1|Secret Phone|Mozilla|T\d\d:/);
    } finally {
      db.close();
    }
  });

  const refused: [string, number, string, Record<string, string>?][] = [
    [
      'an out-of-range value',
      400,
      JSON.stringify(beacon({ metrics: [{ name: 'LCP', value: 1e9 }] })),
    ],
    ['an unknown metric', 400, JSON.stringify(beacon({ metrics: [{ name: 'FID', value: 8 }] }))],
    ['an extra field', 400, JSON.stringify(beacon({ ip: '10.0.0.1' }))],
    ['a body that is not JSON', 400, '{"path":'],
    ['invalid UTF-8', 400, ''],
    ['a form', 415, 'path=%2F', { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ['no content type', 415, JSON.stringify(beacon()), {}],
    [
      'a beacon over 2 KB',
      413,
      JSON.stringify(beacon({ pad: 'x'.repeat(2100) })),
      { 'Content-Type': 'text/plain' },
    ],
    [
      'a cross-site beacon',
      403,
      JSON.stringify(beacon()),
      { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
    ],
    [
      'a beacon from another site by Sec-Fetch-Site',
      403,
      JSON.stringify(beacon()),
      { 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'cross-site' },
    ],
  ];
  it('refuses, and stores nothing of, what is not a beacon of this site', async () => {
    const server = await start();
    for (const [what, status, body, headers] of refused) {
      // Bytes, not a string, so that fetch adds no content type of its own.
      const bytes =
        what === 'invalid UTF-8'
          ? new Uint8Array([0x7b, 0xff, 0x7d])
          : new TextEncoder().encode(body);
      const response = await send(server, bytes, headers);
      expect(response.status, what).toBe(status);
      expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
    }
    // And the server still takes a real one: its three measurements alone are stored (the recorder
    // writes what it took in order, so a refused beacon taken before would be there by now).
    expect((await send(server, JSON.stringify(beacon()))).status).toBe(204);
    expect(await stored(server, 3)).toHaveLength(3);
  });

  it("limits beacons per client with a limit of their own, which leaves the forms' alone", async () => {
    const server = await start({
      RATE_LIMIT: 'on',
      RATE_LIMIT_MAX: '1',
      VITALS_PER_CLIENT_PER_MINUTE: '3',
    });
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await send(server, JSON.stringify(beacon()))).status);
    expect(statuses).toEqual([204, 204, 204, 429]);
    expect(await stored(server, 9)).toHaveLength(9);
    const enquiry = await postForm(`${server.url}/php/email.php`, validEnquiry);
    expect(enquiry.status).toBe(200);
  });

  it('refuses a flood of bad beacons before they wait their turn, so that a real one sent among them still gets one', async () => {
    // Four turns a second, a second's wait at most: a real beacon has a turn only if the refused
    // ones took none (before they waited for one, this one was refused 503).
    const server = await start({
      RATE_LIMIT: 'on',
      VITALS_PER_CLIENT_PER_MINUTE: '2',
      VITALS_PER_SECOND: '4',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    const from = (client: string, body: string, headers: Record<string, string> = {}) =>
      send(server, body, {
        'Content-Type': 'text/plain;charset=UTF-8',
        'X-Forwarded-For': client,
        ...headers,
      }).then((response) => response.status);
    const real = JSON.stringify(beacon());
    const statuses = await Promise.all([
      ...Array.from({ length: 20 }, () =>
        from('203.0.113.5', real, { Origin: 'https://evil.example' }),
      ),
      ...Array.from({ length: 20 }, () => from('203.0.113.6', 'x'.repeat(70_000))),
      // One /64, twenty addresses: one client, over its limit after two.
      ...Array.from({ length: 20 }, (_, i) => from(`2001:db8:7:7::${i + 1}`, real)),
      from('198.51.100.9', real),
    ]);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(403));
    expect(statuses.slice(20, 40)).toEqual(Array(20).fill(413));
    expect(statuses.slice(40, 60).sort()).toEqual([204, 204, ...Array(18).fill(429)]);
    expect(statuses[60]).toBe(204);
    expect(await stored(server, 9)).toHaveLength(9);
  });

  it('a flood from many /64s of one network stores its share; once the day is full, later beacons still get into its sample', async () => {
    const server = await start({
      VITALS_PER_NETWORK_PER_DAY: '15',
      VITALS_DAILY_CAP: '20',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    const from = (client: string, path: string) =>
      send(server, JSON.stringify(beacon({ path })), {
        'Content-Type': 'text/plain;charset=UTF-8',
        'X-Forwarded-For': client,
      }).then((response) => response.status);
    // Three networks flood first, each from ten /64s of its /48 (three measurements a beacon):
    // fifteen of each count, the other fifteen are dropped.
    for (const network of [1, 2, 3])
      for (let i = 0; i < 10; i++) expect(await from(`2001:db8:${network}:${i}::1`, '/')).toBe(204);
    await expect.poll(async () => (await read(server)).length).toBe(20);
    // Then the day's real visits, each from its own network: they replace their share of the day.
    for (let i = 0; i < 15; i++) expect(await from(`198.51.${i}.7`, '/about')).toBe(204);
    await server.stop();
    const kept = await read(server);
    expect(kept).toHaveLength(20);
    const real = kept.filter((r) => r.path === '/about').length;
    // 45 flood and 45 real measurements for 20 places: about 10 real, never none (1 in 10^7).
    expect(real).toBeGreaterThan(0);
    const store = await openStore({ databasePath: server.database }, { readOnly: true });
    try {
      const [today] = await store.vitalsDaysSince('2000-01-01');
      expect(today).toMatchObject({ received: 90 + 45, dropped: 45, kept: 20 });
    } finally {
      await store.close();
    }
  });

  it('is off with VITALS=off: 404, nothing stored', async () => {
    const server = await start({ VITALS: 'off' });
    expect((await send(server, JSON.stringify(beacon()))).status).toBe(404);
    expect(await stored(server)).toEqual([]);
  });

  it('writes what is queued when the server stops, rather than losing it', async () => {
    // Batches written once a minute here: only the stop can write this one.
    const server = await start({ VITALS_FLUSH_MS: '60000' });
    expect((await send(server, JSON.stringify(beacon()))).status).toBe(204);
    await server.stop();
    expect((await read(server)).map((row) => row.metric)).toEqual(['LCP', 'INP', 'CLS']);
  });
});
