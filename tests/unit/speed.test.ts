/**
 * What /speed is to show of the field data (src/server/vitals/speed.ts), from a fixed fixture: the
 * p75 (nearest rank) per device class and metric over 28 days, the visits behind each, no figure
 * below 100 visits; and a store read at most once a minute, on a clock the test moves.
 */
import { describe, expect, it } from 'vitest';
import type { MetricName } from '../../src/domain/vitals';
import type { VitalRecord } from '../../src/server/store/types';
import {
  MIN_VISITS,
  SPEED_MAX_AGE_MS,
  SpeedFiguresCache,
  speedFigures,
} from '../../src/server/vitals/speed';

const TODAY = '2026-11-26';

const record = (
  device: VitalRecord['device'],
  metric: MetricName,
  value: number,
  day = TODAY,
): VitalRecord => ({
  day,
  path: '/',
  metric,
  value,
  rating: 'good',
  navigation: 'navigate',
  connection: '4g',
  device,
  build: 'test',
  target: null,
  phases: null,
});

/** Values 1..n times `step`, shuffled, so that the order they are stored in does not matter. */
const series = (n: number, step: number) =>
  Array.from({ length: n }, (_, i) => (i + 1) * step).sort(
    (a, b) => ((a * 7919) % 13) - ((b * 7919) % 13),
  );

const fixture: VitalRecord[] = [
  // Phones: 120 visits; LCP 100..12000 ms, nearest-rank p75 = the 90th value, 9000 ms (poor).
  ...series(120, 100).map((v) => record('phone', 'LCP', v)),
  // INP 1..120 x 2 ms: p75 180 ms (good); CLS 0.001..0.120: p75 0.090 (good).
  ...series(120, 2).map((v) => record('phone', 'INP', v)),
  ...series(120, 0.001).map((v) => record('phone', 'CLS', Number(v.toFixed(3)))),
  // FCP and TTFB are not shown.
  ...series(120, 10).map((v) => record('phone', 'FCP', v)),
  // Outside the window (29 and more days ago): left out, however bad.
  ...Array.from({ length: 50 }, () => record('phone', 'LCP', 60_000, '2026-10-29')),
  // Tablets: 99 visits, one short of a figure.
  ...series(MIN_VISITS - 1, 100).map((v) => record('tablet', 'LCP', v)),
  // Desktops: exactly 100 LCP visits (p75 = the 75th value, 1500 ms: good), and 28 days ago is in.
  ...series(MIN_VISITS, 20).map((v) => record('desktop', 'LCP', v, '2026-10-30')),
];

describe('the figures /speed shows', () => {
  it('p75 per device class and metric over the last 28 days, with the visits behind each', () => {
    expect(speedFigures(fixture, TODAY)).toEqual({
      from: '2026-10-30',
      to: TODAY,
      devices: [
        {
          device: 'phone',
          figures: [
            { metric: 'LCP', visits: 120, p75: 9000, rating: 'poor' },
            { metric: 'INP', visits: 120, p75: 180, rating: 'good' },
            { metric: 'CLS', visits: 120, p75: 0.09, rating: 'good' },
          ],
        },
        {
          device: 'tablet',
          figures: [
            { metric: 'LCP', visits: 99 },
            { metric: 'INP', visits: 0 },
            { metric: 'CLS', visits: 0 },
          ],
        },
        {
          device: 'desktop',
          figures: [
            { metric: 'LCP', visits: 100, p75: 1500, rating: 'good' },
            { metric: 'INP', visits: 0 },
            { metric: 'CLS', visits: 0 },
          ],
        },
      ],
    });
  });

  it('reads the store at most once a minute, whatever the visits meanwhile', async () => {
    let now = Date.parse(`${TODAY}T12:00:00Z`);
    const reads: string[] = [];
    const cache = new SpeedFiguresCache(
      async (from) => {
        reads.push(from);
        return fixture;
      },
      { now: () => now },
    );
    const burst = await Promise.all(Array.from({ length: 20 }, () => cache.get()));
    expect(reads).toEqual(['2026-10-30']);
    expect(burst[0]!.devices[0]!.figures[0]!.p75).toBe(9000);
    now += SPEED_MAX_AGE_MS - 1;
    await cache.get();
    expect(reads).toHaveLength(1);
    now += 1;
    await cache.get();
    expect(reads).toHaveLength(2);
  });

  it('does not keep a failed read: the next visit reads again', async () => {
    let fail = true;
    let reads = 0;
    const cache = new SpeedFiguresCache(
      async () => {
        reads++;
        if (fail) throw new Error('the database is down');
        return fixture;
      },
      { now: () => 0 },
    );
    await expect(cache.get()).rejects.toThrow('the database is down');
    fail = false;
    await expect(cache.get()).resolves.toMatchObject({ from: '1969-12-05' });
    expect(reads).toBe(2);
  });
});
