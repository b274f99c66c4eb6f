/**
 * What /speed is to show of the field data (src/server/vitals/speed.ts), from a fixed fixture: the
 * p75 (nearest rank) per device class and metric over 28 days, the visits behind each, no figure
 * below 100 visits or 5 networks, no network more than 10% of a figure, however many it sent; and a
 * store read at most once a minute, on a clock the test moves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VitalRecord } from '../../src/server/store/types';
import { networkWeights, p75, weightedP75 } from '../../src/server/vitals/report';
import {
  MAX_NETWORK_SHARE,
  MIN_NETWORKS,
  SPEED_MAX_AGE_MS,
  SpeedFiguresCache,
  speedFigures,
} from '../../src/server/vitals/speed';
import { vitalRecord } from '../support/records';
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
            { metric: 'INP', visits: 150 },
            { metric: 'CLS', visits: 0 },
          ],
        },
        {
          device: 'desktop',
          figures: [
            { metric: 'LCP', visits: 100, p75: 1500, rating: 'good' },
            { metric: 'INP', visits: 500, p75: 168, rating: 'good' },
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

describe('one network’s say in a figure', () => {
  const phoneLcp = (value: number, network: string | null): VitalRecord =>
    vitalRecord({ day: TODAY, device: 'phone', metric: 'LCP', value, network });
  /** 20 honest networks, 6 visits each: LCP 700..1200 ms in each, p75 1060 ms as /speed saw it. */
  const honest = Array.from({ length: 120 }, (_, i) =>
    phoneLcp(700 + ((i * 37) % 120) * (500 / 119), `h${i % 20}`),
  );
  const lcp = (records: VitalRecord[]) => speedFigures(records, TODAY).devices[0]!.figures[0]!;

  it('is at most 10%: a flood of 500 beacons from one /24 leaves the p75 near the honest one', () => {
    const before = lcp(honest);
    expect(before.rating).toBe('good');
    const flood = Array.from({ length: 500 }, () => phoneLcp(3000, 'f100'));
    const after = lcp([...honest, ...flood]);
    expect(after.visits).toBe(620);
    expect(after.rating).toBe('good');
    // 10% of the weight at 3000 ms moves the p75 to the honest networks' 83rd percentile at most.
    expect(after.p75).toBeLessThan(1200);
    expect(after.p75! - before.p75!).toBeLessThan(100);
    // Unweighted, the flood's 3000 ms would have been the figure.
    expect(p75([...honest, ...flood].map((r) => r.value))).toBe(3000);
  });

  it('gives no figure with fewer than 5 networks, however many visits', () => {
    const from = (networks: number) =>
      lcp(Array.from({ length: 400 }, (_, i) => phoneLcp(1000 + i, `n${i % networks}`)));
    expect(from(MIN_NETWORKS - 1)).toEqual({ metric: 'LCP', visits: 400 });
    expect(from(MIN_NETWORKS)).toMatchObject({ metric: 'LCP', visits: 400, rating: 'good' });
    // Measurements stored before networks were kept: each a network of its own.
    expect(lcp(Array.from({ length: 100 }, (_, i) => phoneLcp(1000 + i, null))).p75).toBe(1074);
  });

  /** Some networks' counts of measurements, and each measurement's network. */
  const networks = fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 40 });
  const keysOf = (sizes: number[]) =>
    sizes.flatMap((count, n) => Array<string>(count).fill(`n${n}`));

  it('weighs no network over 10% of all (with fewer than 10, over an equal share), one under the cap 1 a measurement', () => {
    fc.assert(
      fc.property(networks, (sizes) => {
        const keys = keysOf(sizes);
        const weights = networkWeights(keys, MAX_NETWORK_SHARE);
        const total = weights.reduce((sum, w) => sum + w, 0);
        const share = Math.max(MAX_NETWORK_SHARE, 1 / sizes.length);
        const cap = Math.max(...weights.map((w, i) => w * sizes[Number(keys[i]!.slice(1))]!));
        for (let n = 0; n < sizes.length; n++) {
          const own = weights.filter((_, i) => keys[i] === `n${n}`);
          const weight = own.reduce((sum, w) => sum + w, 0);
          expect(weight).toBeLessThanOrEqual(share * total * (1 + 1e-9));
          // One measurement's weight in a network is the same for all of it, at most 1; a network
          // weighs its count until the cap, and the cap once over it.
          expect(new Set(own).size).toBe(1);
          expect(own[0]).toBeLessThanOrEqual(1);
          expect(weight).toBeCloseTo(Math.min(sizes[n]!, cap), 6);
        }
        // When no network holds more than its share as counted, every measurement weighs 1.
        if (Math.max(...sizes) <= share * keys.length)
          expect(weights.every((w) => w === 1)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('makes a proper weighted percentile: with weights 1 it is p75; values in order, weights where they were', () => {
    fc.assert(
      fc.property(networks, fc.integer(), (sizes, seed) => {
        const keys = keysOf(sizes);
        const values = keys.map((_, i) => ((i * 7919 + seed) % 1000) + 0.5);
        expect(
          weightedP75(
            values,
            values.map(() => 1),
          ),
        ).toBe(p75(values));
        const weights = networkWeights(keys, MAX_NETWORK_SHARE);
        const figure = weightedP75(values, weights)!;
        const total = weights.reduce((sum, w) => sum + w, 0);
        const weightWhere = (holds: (value: number) => boolean) =>
          weights.reduce((sum, w, i) => sum + (holds(values[i]!) ? w : 0), 0);
        // At least 75% of the weight at or under it; under 75% strictly under it.
        expect(weightWhere((v) => v <= figure)).toBeGreaterThanOrEqual(0.75 * total * (1 - 1e-9));
        expect(weightWhere((v) => v < figure)).toBeLessThan(0.75 * total);
      }),
      { numRuns: 300 },
    );
  });
});
