/**
 * Field data in the store, against both implementations: measurements written in one batch come
 * back as they went in, by day, and pruning deletes the days before the retention window only; a
 * day over its cap keeps a uniform sample of all its measurements, and each day's counts add up;
 * the network keys' secret is one for every process.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EnquiryStore, VitalRecord } from '../../src/server/store/types';
import { SPEED_METRICS } from '../../src/domain/vitals';
import {
  dailyP75Of,
  reportTables,
  reportTablesOf,
  summarise,
  summaryOf,
} from '../../src/server/vitals/report';
import { speedFigures, speedFiguresOf } from '../../src/server/vitals/speed';
import { vitalRecord } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

const record = (overrides: Partial<VitalRecord> = {}): VitalRecord =>
  vitalRecord({
    path: '/iphone',
    value: 812.5,
    build: 'abc123def456',
    target: 'main>h1.hero__title',
    ...overrides,
  });

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'field data in the %s store',
  (kind) => {
    let backend: Backend;
    let store: EnquiryStore;
    beforeEach(async () => {
      backend = await backends[kind]();
      store = backend.store;
    });
    afterEach(() => backend.cleanup());

    it('keeps a batch as it was sent, oldest day first, and reads from a day on', async () => {
      const inp = record({
        day: '2026-11-21',
        metric: 'INP',
        value: 264,
        rating: 'needs-improvement',
        target: 'button.menu-toggle',
        phases: [12.5, 200, 51.5],
      });
      const cls = record({ day: '2026-11-19', metric: 'CLS', value: 0.0125, target: null });
      // A measurement stored before network keys were kept has none.
      const keyed = { ...inp, network: '3fa9' };
      await store.addVitals([record(), inp, cls, keyed]);
      await store.addVitals([]);
      expect(await store.vitalsSince('2026-11-01')).toEqual([cls, record(), inp, keyed]);
      expect(await store.vitalsSince('2026-11-21')).toEqual([inp, keyed]);
      // The CSV's pages: the window's measurements in the order stored, each once.
      const pages = async (from: string, to: string, size: number) => {
        const read = [];
        for await (const page of store.vitalsPages(from, to, size)) read.push(page);
        return read;
      };
      expect(await pages('2026-11-01', '2026-11-30', 2)).toEqual([
        [record(), inp],
        [cls, keyed],
      ]);
      expect(await pages('2026-11-01', '2026-11-30', 3)).toEqual([[record(), inp, cls], [keyed]]);
      expect(await pages('2026-11-20', '2026-11-20', 1)).toEqual([[record()]]);
      expect(await pages('2026-12-01', '2026-12-31', 2)).toEqual([]);
    });

    it('works out the same p75s as the pure rules: the desk’s, /speed’s per network, the report’s', async () => {
      // Every count of a group from 1 to 9 (the nearest rank's edges), ties, networks without a key.
      let seed = 7;
      const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
      const records = Array.from({ length: 3000 }, (_, i) =>
        record({
          day: `2026-11-${String(10 + (i % 20)).padStart(2, '0')}`,
          path: `/page-${i % 13}`,
          metric: (['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const)[i % 5]!,
          device: (['phone', 'tablet', 'desktop'] as const)[i % 3]!,
          connection: (['4g', '3g', 'unknown', '2g'] as const)[i % 4]!,
          value: Math.round(random() * 40) * 25,
          network: i % 11 === 0 ? null : `n${Math.floor(random() * (i % 7 === 0 ? 3 : 60))}`,
        }),
      );
      await store.addVitals(records);
      const from = '2026-11-15';
      const kept = records.filter((r) => r.day >= from);
      const byPage = summaryOf(await store.vitalsP75(from, ['path', 'metric']), 'path');
      expect(byPage).toEqual(summarise(kept, (r) => r.path));
      const today = '2026-12-05';
      const networks = await store.vitalsP75(from, ['device', 'metric', 'network'], {
        metrics: SPEED_METRICS,
      });
      const figures = speedFiguresOf(networks, today);
      expect(figures).toEqual(speedFigures(kept, today));
      // The window has figures to compare, not only counts.
      expect(figures.devices.flatMap((d) => d.figures).filter((f) => 'p75' in f)).not.toEqual([]);
      // `npm run vitals`'s tables, of a window that ends before the last day stored.
      const to = '2026-11-25';
      const tables = await reportTablesOf(store, from, to);
      expect(tables).toEqual(reportTables(kept.filter((r) => r.day <= to)));
      expect(tables.byDevice.filter((row) => row.perNetwork !== null)).not.toEqual([]);
      expect(tables.byConnection).not.toEqual([]);
      // And the HTML report's charts: each metric's p75 by day.
      const daily = await dailyP75Of(store, from, to);
      expect(daily).toEqual(
        summarise(
          kept.filter((r) => r.day <= to),
          (r) => r.day,
        ),
      );
      expect(new Set(daily.map((row) => row.group)).size).toBe(11);
    });

    it('works the percentiles and the days’ counts out off the thread that answers the visitors', async () => {
      await store.addVitals([record()], {
        counts: [{ day: '2026-11-20', received: 1, dropped: 0 }],
      });
      // node:sqlite answers on the thread that asks, before any turn of the event loop: a read
      // made there resolves before the loop turns once. Made aside, the loop turns meanwhile.
      const turnsWhile = async <T>(read: () => Promise<T>) => {
        let turns = 0;
        let turning = true;
        const turn = () => {
          turns++;
          if (turning) setImmediate(turn);
        };
        setImmediate(turn);
        turns = 0;
        const answer = await read();
        turning = false;
        return { answer, turns };
      };
      const p75s = await turnsWhile(() => store.vitalsP75('2026-01-01', ['path', 'metric']));
      expect(p75s.answer).toEqual([{ path: '/iphone', metric: 'LCP', p75: 812.5, samples: 1 }]);
      expect(p75s.turns).toBeGreaterThan(0);
      const days = await turnsWhile(() => store.vitalsDaysSince('2026-01-01'));
      expect(days.answer).toEqual([{ day: '2026-11-20', received: 1, dropped: 0, kept: 1 }]);
      expect(days.turns).toBeGreaterThan(0);
    });

    it('keeps one secret for the network keys, made once, the same for every process', async () => {
      const other = await backend.open();
      const secrets = await Promise.all([store.vitalsSecret(), other.vitalsSecret()]);
      expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(secrets[1]).toBe(secrets[0]);
      await other.close();
      await store.close();
      expect(await (await backend.open()).vitalsSecret()).toBe(secrets[0]);
    });

    it('prunes the days before the one given, and says how many went', async () => {
      await store.addVitals([
        record({ day: '2026-08-25' }),
        record({ day: '2026-08-26' }),
        record({ day: '2026-08-27' }),
      ]);
      expect(await store.pruneVitals('2026-08-27')).toBe(2);
      expect((await store.vitalsSince('2000-01-01')).map((r) => r.day)).toEqual(['2026-08-27']);
    });

    it('keeps a day over its cap to the measurements of smallest sample key, and says where the edge is', async () => {
      const day = (sample: number, value: number) => ({ ...record({ value }), sample });
      // A flood first, with keys 0.5 and up; then later measurements with keys all over [0, 1).
      const flood = Array.from({ length: 100 }, (_, i) => day(0.5 + i / 200, 9000));
      expect(await store.addVitals(flood, { dailyCap: 100 })).toEqual(new Map([['2026-11-20', 1]]));
      const later = Array.from({ length: 100 }, (_, i) => day(i / 100, i));
      const edges = await store.addVitals(later, { dailyCap: 100 });
      const kept = await store.vitalsSince('2026-11-20');
      expect(kept).toHaveLength(100);
      // The 100 of smallest key of all 200: the later ones as well as the flood's.
      const edge = [...flood, ...later].map((r) => r.sample).sort((a, b) => a - b)[99]!;
      expect(kept.filter((r) => r.value !== 9000)).toHaveLength(
        later.filter((r) => r.sample <= edge).length,
      );
      expect(kept.filter((r) => r.value !== 9000).length).toBeGreaterThan(60);
      expect(edges.get('2026-11-20')).toBe(edge);
      // Another day is its own.
      expect(await store.addVitals([record({ day: '2026-11-21' })], { dailyCap: 100 })).toEqual(
        new Map([['2026-11-21', 1]]),
      );
    });

    it('adds up each day’s counts across writes, with the measurements it keeps', async () => {
      await store.addVitals([record(), record()], {
        counts: [{ day: '2026-11-20', received: 5, dropped: 1 }],
      });
      await store.addVitals([], {
        counts: [
          { day: '2026-11-20', received: 4, dropped: 2 },
          { day: '2026-11-21', received: 3, dropped: 3 },
        ],
      });
      expect(await store.vitalsDaysSince('2026-11-01')).toEqual([
        { day: '2026-11-20', received: 9, dropped: 3, kept: 2 },
        { day: '2026-11-21', received: 3, dropped: 3, kept: 0 },
      ]);
      expect(await store.vitalsDaysSince('2026-11-21')).toHaveLength(1);
      await store.pruneVitals('2026-11-21');
      expect((await store.vitalsDaysSince('2000-01-01')).map((d) => d.day)).toEqual(['2026-11-21']);
    });

    it('writes a thousand measurements in one batch', async () => {
      const many = Array.from({ length: 1000 }, (_, i) => record({ value: i }));
      await store.addVitals(many);
      expect((await store.vitalsSince('2026-11-20')).length).toBe(1000);
    });
  },
);
