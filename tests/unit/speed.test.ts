/**
 * What /speed is to show of the field data (src/server/vitals/speed.ts), from a fixed fixture: per
 * device class and metric over 28 days, each network's own p75 (nearest rank), then the mean of the
 * middle half of those, with the visits behind each; no figure below 100 visits or 5 networks; a
 * store read at most once a minute, on a clock the test moves. Then what a few networks can do to a
 * figure, over realistic populations of honest networks (fast-check), and that the staff's report
 * gives the same figure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { VitalRecord } from '../../src/server/store/types';
import {
  middleHalfMean,
  MIN_NETWORKS,
  networkFigure,
  networkP75s,
  p75,
  type NetworkValue,
} from '../../src/server/vitals/figure';
import { formatTables, reportTables } from '../../src/server/vitals/report';
import { FiguresCache, SPEED_MAX_AGE_MS, speedFigures } from '../../src/server/vitals/speed';
import { honestVisits, type HonestPopulation } from '../support/honest-networks';
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
            // The mean of the middle 10 of the 20 networks' own p75s (each network's 5th of 6).
            { metric: 'LCP', visits: 120, p75: 9060, rating: 'poor' },
            { metric: 'INP', visits: 120, p75: 181, rating: 'good' },
            { metric: 'CLS', visits: 120, p75: expect.closeTo(0.0884, 10), rating: 'good' },
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
            // 21 networks, the flood's one of the 5 left out at the top: the middle 11's mean.
            { metric: 'INP', visits: 500, p75: expect.closeTo(1548 / 11, 10), rating: 'good' },
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
    const cache = new FiguresCache(
      async (from, today) => {
        reads.push(from);
        return speedFigures(fixture, today);
      },
      { now: () => now },
    );
    const burst = await Promise.all(Array.from({ length: 20 }, () => cache.get()));
    expect(reads).toEqual(['2026-10-30']);
    expect(burst[0]!.devices[0]!.figures[0]!.p75).toBe(9060);
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
    const cache = new FiguresCache(
      async (from) => {
        reads++;
        if (fail) throw new Error('the database is down');
        return from;
      },
      { now: () => 0 },
    );
    await expect(cache.get()).rejects.toThrow('the database is down');
    fail = false;
    await expect(cache.get()).resolves.toBe('1969-12-05');
    expect(reads).toBe(2);
  });
});

describe('one network, one say', () => {
  const phoneLcp = (value: number, network: string | null): VitalRecord =>
    vitalRecord({ day: TODAY, device: 'phone', metric: 'LCP', value, network });
  /** 20 honest networks, 6 visits each: LCP 700..1200 ms. */
  const honest = Array.from({ length: 120 }, (_, i) =>
    phoneLcp(700 + ((i * 37) % 120) * (500 / 119), `h${i % 20}`),
  );
  const lcp = (records: VitalRecord[]) => speedFigures(records, TODAY).devices[0]!.figures[0]!;

  it('counts a flood of 500 beacons from one /24 as one network: the figure hardly moves', () => {
    const before = lcp(honest);
    expect(before.rating).toBe('good');
    const flood = Array.from({ length: 500 }, () => phoneLcp(3000, 'f100'));
    const after = lcp([...honest, ...flood]);
    expect(after.visits).toBe(620);
    expect(after.rating).toBe('good');
    expect(Math.abs(after.p75! / before.p75! - 1)).toBeLessThan(0.05);
    // Counted visit by visit, the flood's 3000 ms would have been the figure.
    expect(p75([...honest, ...flood].map((r) => r.value))).toBe(3000);
  });

  it('gives no figure with fewer than 5 networks, however many visits', () => {
    const from = (networks: number) =>
      lcp(Array.from({ length: 400 }, (_, i) => phoneLcp(1000 + i, `n${i % networks}`)));
    expect(from(MIN_NETWORKS - 1)).toEqual({ metric: 'LCP', visits: 400 });
    expect(from(MIN_NETWORKS)).toMatchObject({ metric: 'LCP', visits: 400, rating: 'good' });
    // Measurements stored before networks were kept: each a network of its own, so the figure is
    // the mean of the middle 50 of 1000..1099.
    expect(lcp(Array.from({ length: 100 }, (_, i) => phoneLcp(1000 + i, null))).p75).toBe(1049.5);
  });

  it('is the mean of the middle half of the networks’ own p75s', () => {
    expect(middleHalfMean([])).toBeUndefined();
    expect(middleHalfMean([5])).toBe(5);
    // 7 networks: one left out at each end.
    expect(middleHalfMean([70, 1, 3, 2, 4, 6, 5])).toBe(4);
    const visits = (network: string, values: number[]) =>
      values.map((value) => ({ value, network }));
    expect(
      networkP75s([...visits('a', [1, 2, 3, 4]), ...visits('b', [10]), ...visits('a', [100])]),
    ).toEqual([4, 10]);
  });
});

/** Honest networks (../support/honest-networks.ts), as fast-check draws them. */
const honestPopulation: fc.Arbitrary<HonestPopulation> = fc.record({
  networks: fc.integer({ min: 15, max: 145 }),
  median: fc.double({ min: 800, max: 4000, noNaN: true }),
  between: fc.double({ min: 0.1, max: 0.3, noNaN: true }),
  within: fc.double({ min: 0.3, max: 0.6, noNaN: true }),
  seed: fc.integer(),
});

/** 5 hostile networks: any LCPs a beacon may carry (0 to 60 s), any number of them. */
const hostileNetworks = fc.array(
  fc.array(fc.double({ min: 0, max: 60_000, noNaN: true }), { minLength: 1, maxLength: 300 }),
  { minLength: 5, maxLength: 5 },
);
const asNetworks = (networks: number[][]): NetworkValue[] =>
  networks.flatMap((values, n) => values.map((value) => ({ value, network: `x${n}` })));
/** The hostile networks' strongest pushes, up and down: all at the largest value, or all at 0. */
const extremes = [60_000, 0].map((value) => asNetworks(Array.from({ length: 5 }, () => [value])));

const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / values.length;

describe('what 5 hostile networks can do to a figure', () => {
  it('among 20 to 150 networks: no more than shift, by 5 places, which honest networks’ p75s are averaged', () => {
    fc.assert(
      fc.property(honestPopulation, hostileNetworks, (population, hostile) => {
        const honest = honestVisits(population);
        const own = networkP75s(honest).sort((a, b) => a - b);
        const all = population.networks + 5;
        const cut = Math.floor(all / 4);
        // The kept says are the ranks cut+1..all-cut; 5 hostile ones shift each by 5 at most.
        const lowest = mean(own.slice(cut - 5, all - cut - 5));
        const highest = mean(own.slice(cut, all - cut));
        for (const fakes of [asNetworks(hostile), ...extremes]) {
          const figure = networkFigure([...honest, ...fakes])!;
          expect(figure).toBeGreaterThanOrEqual(lowest * (1 - 1e-9));
          expect(figure).toBeLessThanOrEqual(highest * (1 + 1e-9));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('among 60 to 150 networks: move it by 10% at most', () => {
    const population = honestPopulation.filter((p) => p.networks + 5 >= 60);
    fc.assert(
      fc.property(population, hostileNetworks, (population, hostile) => {
        const honest = honestVisits(population);
        const figure = networkFigure(honest)!;
        for (const fakes of [asNetworks(hostile), ...extremes]) {
          const moved = networkFigure([...honest, ...fakes])! / figure - 1;
          expect(Math.abs(moved)).toBeLessThanOrEqual(0.1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('3 networks of 40 beacons at 60 s among 120 honest ones leave the phones’ LCP good and within 10%', () => {
    const honest = honestVisits({
      networks: 120,
      median: 1500,
      between: 0.25,
      within: 0.5,
      seed: 53,
    }).map(({ value, network }) => vitalRecord({ day: TODAY, value, network }));
    const hostile = [0, 1, 2].flatMap((n) =>
      Array.from({ length: 40 }, () =>
        vitalRecord({ day: TODAY, value: 60_000, network: `x${n}` }),
      ),
    );
    const before = speedFigures(honest, TODAY).devices[0]!.figures[0]!;
    const after = speedFigures([...honest, ...hostile], TODAY).devices[0]!.figures[0]!;
    expect(after).toMatchObject({ rating: 'good', visits: honest.length + 120 });
    expect(Math.abs(after.p75! / before.p75! - 1)).toBeLessThan(0.1);
  });
});

describe('the staff’s report', () => {
  it('gives /speed’s figure beside the plain one, by device class, over the same window', () => {
    const inWindow = fixture.filter((r) => r.day >= '2026-10-30');
    const report = formatTables(reportTables(inWindow), '2026-10-30', TODAY);
    const phones = speedFigures(fixture, TODAY).devices[0]!.figures;
    for (const { metric, p75: figure } of phones) {
      const row = report
        .split('\n')
        .find((line) => new RegExp(`^\\s+phone\\s+${metric}\\s`).test(line))!;
      expect(
        row.trimEnd().endsWith(metric === 'CLS' ? figure!.toFixed(3) : `${Math.round(figure!)} ms`),
      ).toBe(true);
    }
    // Too few networks for /speed: '-'.
    expect(report).toMatch(/\n\s+tablet\s+INP\s+\S+ ms\s+good\s+150\s+-\n/);
  });
});
