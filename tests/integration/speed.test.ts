/**
 * /speed on the built production server, from a store seeded with a fixed fixture
 * (tests/support/speed-fixture.ts): the figures exactly, per device class; one store read a minute,
 * so measurements stored meanwhile wait; 3 hostile networks' beacons among 120 honest networks'
 * visits leave the phones' figure as it was, near enough; and with field data off (VITALS=off), a 404.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/index';
import { windowStart } from '../../src/server/vitals/report';
import { SPEED_WINDOW_DAYS, speedFigures } from '../../src/server/vitals/speed';
import { honestVisits } from '../support/honest-networks';
import { vitalRecord } from '../support/records';
import { newDatabasePath } from '../support/server';
import { speedFixture } from '../support/speed-fixture';
import { stoppedAfterEach } from './stopped-after-each';

const { start } = stoppedAfterEach();

async function seeded() {
  const databasePath = newDatabasePath();
  const store = await openStore({ databasePath });
  const today = new Date().toISOString().slice(0, 10);
  const fixture = speedFixture(today);
  const from = windowStart(today, SPEED_WINDOW_DAYS);
  // Each day's counts: all it received was kept, but today, a busy day: 5,000 more came than it
  // keeps, 1,200 of them dropped (a network over its share).
  const perDay = Map.groupBy(fixture, (r) => r.day);
  const counts = [...perDay].map(([day, records]) => ({
    day,
    received: records.length + (day === today ? 5000 : 0),
    dropped: day === today ? 1200 : 0,
  }));
  await store.addVitals(fixture, { counts });
  return { databasePath, store, kept: fixture.filter((r) => r.day >= from).length };
}

/** Each table row of the page as its cells' text, '|' between them, under its section's heading. */
function rows(html: string) {
  const text = (cell: string) =>
    cell
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  return [...html.matchAll(/<section class="speed-figures[^"]*"[^>]*>([\s\S]*?)<\/section>/g)].map(
    ([, section]) => ({
      heading: text(/<h2[^>]*>([\s\S]*?)<\/h2>/.exec(section!)![1]!),
      rows: [...section!.matchAll(/<tbody[^>]*>([\s\S]*?)<\/tbody>/g)]
        .flatMap(([, body]) => [...body!.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)])
        .map(([, row]) =>
          [...row!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)]
            .map(([, cell]) => text(cell!))
            .join('|'),
        ),
    }),
  );
}

const tooFew =
  'Fewer than 100 visits in these 28 days, or visits from fewer than 5 networks: too few for a figure that means anything.';

describe('/speed', () => {
  it('shows the p75 of real visits per device class, exactly, and the visits behind each', async () => {
    const { databasePath, store, kept } = await seeded();
    const server = await start({ ENQUIRY_DB: databasePath });
    const response = await fetch(`${server.url}/speed`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const html = await response.text();
    expect(html).toMatch(/<h1[^>]*>How fast is this site\?<\/h1>/);
    expect(rows(html)).toEqual([
      {
        heading: 'On phones',
        rows: [
          'Largest Contentful Paint (LCP) good up to 2500 ms, poor over 4000 ms|9060 ms|poor|120',
          'Interaction to Next Paint (INP) good up to 200 ms, poor over 500 ms|181 ms|good|120',
          'Cumulative Layout Shift (CLS) good up to 0.100, poor over 0.250|0.088|good|120',
        ],
      },
      {
        heading: 'On tablets',
        rows: [
          `Largest Contentful Paint (LCP) good up to 2500 ms, poor over 4000 ms|${tooFew}|99`,
          `Interaction to Next Paint (INP) good up to 200 ms, poor over 500 ms|${tooFew}|150`,
          `Cumulative Layout Shift (CLS) good up to 0.100, poor over 0.250|${tooFew}|0`,
        ],
      },
      {
        heading: 'On desktops',
        rows: [
          'Largest Contentful Paint (LCP) good up to 2500 ms, poor over 4000 ms|1500 ms|good|100',
          // 400 of the 500 from one network, one say, left out at the top: the honest networks' figure.
          'Interaction to Next Paint (INP) good up to 200 ms, poor over 500 ms|141 ms|good|500',
          `Cumulative Layout Shift (CLS) good up to 0.100, poor over 0.250|${tooFew}|0`,
        ],
      },
    ]);
    // What the figures come from: kept of received, a sample kept, some set aside.
    const said = (html.match(/<div class="speed-intake[^"]*">([\s\S]*?)<\/div>/)?.[1] ?? '')
      .replace(/<[^>]+>/g, '\n')
      .split('\n')
      .map((line) => line.replace(/&#39;/g, "'").replace(/\s+/g, ' ').trim())
      .filter(Boolean);
    const n = (value: number) => value.toLocaleString('en-GB');
    expect(said).toEqual([
      `These figures come from ${n(kept)} measurements, of the ${n(kept + 5000)} our visitors' browsers sent in these 28 days.`,
      "On a day busier than we keep, a random sample of the day's measurements is kept, so every hour of it counts alike.",
      "1,200 were set aside: one network sent far more than a day's share, so that no one can set these figures by sending fakes.",
    ]);
    expect((await fetch(`${server.url}/speed`, { method: 'HEAD' })).status).toBe(200);

    // Stored meanwhile: not read again within the minute (src/server/vitals/speed.ts's own test
    // moves the clock past it).
    await store.addVitals(
      speedFixture(new Date().toISOString().slice(0, 10)).filter((r) => r.device === 'desktop'),
    );
    await store.close();
    expect(rows(await (await fetch(`${server.url}/speed`)).text())[2]!.rows[0]).toBe(
      'Largest Contentful Paint (LCP) good up to 2500 ms, poor over 4000 ms|1500 ms|good|100',
    );
  });

  it('3 hostile networks of 40 beacons each among 120 honest networks leave the phones’ LCP good, within 10%', async () => {
    const today = new Date().toISOString().slice(0, 10);
    // As a security probe found it: 120 honest networks, one phone visit each, LCP around 1.5 s.
    const honest = honestVisits({
      networks: 120,
      median: 1500,
      between: 0.25,
      within: 0.5,
      seed: 53,
      visits: [1, 1],
    }).map(({ value, network }) => vitalRecord({ day: today, value, network }));
    const databasePath = newDatabasePath();
    const store = await openStore({ databasePath });
    await store.addVitals(honest);
    await store.close();
    const server = await start({
      ENQUIRY_DB: databasePath,
      TRUSTED_PROXIES: '127.0.0.1',
      VITALS_FLUSH_MS: '20',
    });
    // Through the beacon endpoint, as a stranger sends them: 40 beacons from each of three /24s,
    // each from an address of its own, every one a phone's LCP of 60 s.
    const fake = JSON.stringify({
      path: '/',
      navigation: 'navigate',
      connection: '4g',
      device: 'phone',
      metrics: [{ name: 'LCP', value: 60_000 }],
    });
    for (const network of ['203.0.113', '198.51.100', '192.0.2'])
      for (let i = 1; i <= 40; i++) {
        const response = await fetch(`${server.url}/vitals`, {
          method: 'POST',
          body: fake,
          headers: {
            Origin: server.url,
            'Content-Type': 'text/plain;charset=UTF-8',
            'X-Forwarded-For': `${network}.${i}`,
          },
        });
        expect(response.status).toBe(204);
      }
    const stored = async () => {
      const reader = await openStore({ databasePath }, { readOnly: true });
      try {
        return await reader.vitalsSince(windowStart(today, SPEED_WINDOW_DAYS));
      } finally {
        await reader.close();
      }
    };
    await expect.poll(async () => (await stored()).length).toBe(honest.length + 120);
    // Stored as three networks (a network's key each): weighed down to a tenth of the figure each,
    // as before, they held 30% of it, and the figure was theirs: 60000 ms, poor.
    const fakes = (await stored()).filter((r) => r.value === 60_000);
    expect(fakes).toHaveLength(120);
    expect(new Set(fakes.map((r) => r.network)).size).toBe(3);
    const honestFigure = speedFigures(honest, today).devices[0]!.figures[0]!;
    expect(honestFigure.rating).toBe('good');
    const [phoneLcp] = rows(await (await fetch(`${server.url}/speed`)).text())[0]!.rows;
    const [, shown, rating, visits] = phoneLcp!.split('|');
    expect([rating, visits]).toEqual(['good', String(honest.length + 120)]);
    expect(Math.abs(Number.parseInt(shown!, 10) / honestFigure.p75! - 1)).toBeLessThan(0.1);
  });

  it('with field data off, answers 404 and says there is nothing to show', async () => {
    const server = await start({ VITALS: 'off' });
    const response = await fetch(`${server.url}/speed`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(
      'This site does not measure its visits at the moment, so there is nothing to show here.',
    );
  });
});
