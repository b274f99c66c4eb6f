/**
 * What /speed is to show of the field data (src/server/vitals/speed.ts), from a fixed fixture: the
 * p75 (nearest rank) per device class and metric over 28 days, the visits behind each, no figure
 * below 100 visits; and a store read at most once a minute, on a clock the test moves.
 */
import { describe, expect, it } from 'vitest';
import { SPEED_MAX_AGE_MS, SpeedFiguresCache, speedFigures } from '../../src/server/vitals/speed';
import { speedFixture } from '../support/speed-fixture';

const TODAY = '2026-11-26';
const fixture = speedFixture(TODAY);

describe('the figures /speed shows', () => {
  it('p75 per device class and metric over the last 28 days, with the visits behind each', () => {
    expect(speedFigures(fixture, TODAY)).toEqual({
      from: '2026-10-30',
      to: TODAY,
      intake: { received: 0, kept: 0, dropped: 0, sampledOut: 0, sampledDays: 0 },
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

  it('adds up what the window’s days received, kept, sampled out and dropped, its days only', () => {
    const day = (d: string, received: number, kept: number, dropped: number) => ({
      day: d,
      received,
      kept,
      dropped,
    });
    const { intake } = speedFigures(fixture, TODAY, [
      day('2026-10-29', 1000, 10, 0),
      day('2026-10-30', 60_000, 50_000, 4_000),
      day('2026-11-01', 300, 300, 0),
      day(TODAY, 20, 15, 5),
    ]);
    expect(intake).toEqual({
      received: 60_320,
      kept: 50_315,
      dropped: 4_005,
      sampledOut: 6_000,
      sampledDays: 1,
    });
  });

  it('reads the store at most once a minute, whatever the visits meanwhile', async () => {
    let now = Date.parse(`${TODAY}T12:00:00Z`);
    const reads: string[] = [];
    const cache = new SpeedFiguresCache(
      async (from) => {
        reads.push(from);
        return { records: fixture, days: [] };
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
        return { records: fixture, days: [] };
      },
      { now: () => 0 },
    );
    await expect(cache.get()).rejects.toThrow('the database is down');
    fail = false;
    await expect(cache.get()).resolves.toMatchObject({ from: '1969-12-05' });
    expect(reads).toBe(2);
  });
});
