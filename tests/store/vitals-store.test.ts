/**
 * Field data in the store, against both implementations: measurements written in one batch come
 * back as they went in, by day, and pruning deletes the days before the retention window only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EnquiryStore, VitalRecord } from '../../src/server/store/types';
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
      await store.addVitals([record(), inp, cls]);
      await store.addVitals([]);
      expect(await store.vitalsSince('2026-11-01')).toEqual([cls, record(), inp]);
      expect(await store.vitalsSince('2026-11-21')).toEqual([inp]);
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

    it('writes a thousand measurements in one batch', async () => {
      const many = Array.from({ length: 1000 }, (_, i) => record({ value: i }));
      await store.addVitals(many);
      expect((await store.vitalsSince('2026-11-20')).length).toBe(1000);
    });
  },
);
