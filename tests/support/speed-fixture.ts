/**
 * Field data for /speed's tests (tests/unit/speed.test.ts, tests/integration/speed.test.ts): a fixed
 * set of measurements in the 28 days to `today`, and what /speed must make of them.
 */
import type { MetricName } from '../../src/domain/vitals';
import type { VitalRecord } from '../../src/server/store/types';
import { MIN_VISITS } from '../../src/server/vitals/speed';
import { vitalRecord } from './records';

const daysBefore = (today: string, days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

const record = (
  device: VitalRecord['device'],
  metric: MetricName,
  value: number,
  day: string,
): VitalRecord => vitalRecord({ device, metric, value, day });

/** Values 1..n times `step`, shuffled, so that the order they are stored in does not matter. */
const series = (n: number, step: number) =>
  Array.from({ length: n }, (_, i) => Number(((i + 1) * step).toFixed(3))).sort(
    (a, b) => ((a * 7919) % 13) - ((b * 7919) % 13),
  );

/**
 * Phones: 120 visits, LCP 100..12000 ms (nearest-rank p75: the 90th value, 9000 ms, poor), INP
 * 2..240 ms (180 ms, good), CLS 0.001..0.120 (0.090, good), and FCP (not shown). 50 very slow phone
 * visits 28 days before `today`, outside the window. Tablets: 99 LCP visits, one short of a figure.
 * Desktops: exactly 100 LCP visits, 27 days before `today` (in the window): 20..2000 ms, p75 1500 ms.
 */
export function speedFixture(today: string): VitalRecord[] {
  return [
    ...series(120, 100).map((v) => record('phone', 'LCP', v, today)),
    ...series(120, 2).map((v) => record('phone', 'INP', v, today)),
    ...series(120, 0.001).map((v) => record('phone', 'CLS', v, today)),
    ...series(120, 10).map((v) => record('phone', 'FCP', v, today)),
    ...Array.from({ length: 50 }, () => record('phone', 'LCP', 60_000, daysBefore(today, 28))),
    ...series(MIN_VISITS - 1, 100).map((v) => record('tablet', 'LCP', v, daysBefore(today, 1))),
    ...series(MIN_VISITS, 20).map((v) => record('desktop', 'LCP', v, daysBefore(today, 27))),
  ];
}
