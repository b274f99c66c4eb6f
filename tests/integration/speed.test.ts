/**
 * /speed on the built production server, from a store seeded with a fixed fixture
 * (tests/support/speed-fixture.ts): the figures exactly, per device class; one store read a minute,
 * so measurements stored meanwhile wait; and with field data off (VITALS=off), a 404.
 */
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/index';
import { windowStart } from '../../src/server/vitals/report';
import { SPEED_WINDOW_DAYS } from '../../src/server/vitals/speed';
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
          'Largest Contentful Paint (LCP) good up to 2500 ms, poor over 4000 ms|9000 ms|poor|120',
          'Interaction to Next Paint (INP) good up to 200 ms, poor over 500 ms|180 ms|good|120',
          'Cumulative Layout Shift (CLS) good up to 0.100, poor over 0.250|0.090|good|120',
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
          // 400 of the 500 from one network, which weighs a tenth: the honest networks' figure.
          'Interaction to Next Paint (INP) good up to 200 ms, poor over 500 ms|168 ms|good|500',
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

  it('with field data off, answers 404 and says there is nothing to show', async () => {
    const server = await start({ VITALS: 'off' });
    const response = await fetch(`${server.url}/speed`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(
      'This site does not measure its visits at the moment, so there is nothing to show here.',
    );
  });
});
