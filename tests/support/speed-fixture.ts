/**
 * Field data for /speed's tests (tests/unit/speed.test.ts, tests/integration/speed.test.ts): a fixed
 * set of measurements in the 28 days to `today`, and what /speed must make of them.
 */
import type { MetricName } from '../../src/domain/vitals';
import type { VitalRecord } from '../../src/server/store/types';
import { MIN_NETWORKS, MIN_VISITS } from '../../src/server/vitals/figure';
import { vitalRecord } from './records';

const daysBefore = (today: string, days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

const record = (
  device: VitalRecord['device'],
  metric: MetricName,
  value: number,
  day: string,
  network: string | null,
): VitalRecord => vitalRecord({ device, metric, value, day, network });

/** Values 1..n times `step`, shuffled, so that the order they are stored in does not matter. */
const series = (n: number, step: number) =>
  Array.from({ length: n }, (_, i) => Number(((i + 1) * step).toFixed(3))).sort(
    (a, b) => ((a * 7919) % 13) - ((b * 7919) % 13),
  );

/** The i-th of `count` networks' keys, taken in turn: each network gets an equal part. */
const inTurn = (count: number) => (i: number) => (i % count).toString(16).padStart(4, '0');

/**
 * Phones: 120 visits from 20 networks, 6 each, LCP 100..12000 ms (the mean of the middle 10 of the
 * networks' own p75s: 9060 ms, poor), INP 2..240 ms (181 ms, good), CLS 0.001..0.120 (0.0884, good),
 * and FCP (not shown). 50 very slow phone visits 28 days before `today`, outside the window.
 * Tablets: 99 LCP visits, one short of a figure; 150 INP visits from 4 networks, one network short
 * of one. Desktops: exactly 100 LCP visits from 20 networks, 27 days before `today` (in the
 * window): 20..2000 ms, 1500 ms; and 100 INP visits from 20 networks, 2..200 ms (139.6 ms), with a
 * flood of 400 at 1000 ms from one network, which is one network's say, left out with the four
 * next highest: 140.7 ms (1548 / 11), good, where the plain p75 of all 500 would be 1000 ms, poor.
 */
export function speedFixture(today: string): VitalRecord[] {
  const twenty = inTurn(20);
  return [
    ...series(120, 100).map((v, i) => record('phone', 'LCP', v, today, twenty(i))),
    ...series(120, 2).map((v, i) => record('phone', 'INP', v, today, twenty(i))),
    ...series(120, 0.001).map((v, i) => record('phone', 'CLS', v, today, twenty(i))),
    ...series(120, 10).map((v, i) => record('phone', 'FCP', v, today, twenty(i))),
    ...Array.from({ length: 50 }, () =>
      record('phone', 'LCP', 60_000, daysBefore(today, 28), 'ffff'),
    ),
    ...series(MIN_VISITS - 1, 100).map((v, i) =>
      record('tablet', 'LCP', v, daysBefore(today, 1), twenty(i)),
    ),
    ...series(150, 1).map((v, i) =>
      record('tablet', 'INP', v, daysBefore(today, 2), inTurn(MIN_NETWORKS - 1)(i)),
    ),
    ...series(MIN_VISITS, 20).map((v, i) =>
      record('desktop', 'LCP', v, daysBefore(today, 27), twenty(i)),
    ),
    ...series(100, 2).map((v, i) => record('desktop', 'INP', v, today, twenty(i))),
    ...Array.from({ length: 400 }, () => record('desktop', 'INP', 1000, today, 'f100')),
  ];
}
