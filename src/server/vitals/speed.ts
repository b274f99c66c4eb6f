/**
 * What the /speed page is to show of the field data ("How fast is this site?"): the 75th percentile
 * of LCP, INP and CLS over the last 28 days, per device class, with the visits behind each figure and
 * Google's rating; a class with fewer than 100 visits, or with visits from fewer than 5 networks,
 * gets no figure, only its count. Each network has one say (./figure.ts networkFigure: its own
 * p75, then the middle half of the networks' mean), so that neither one network's flood of beacons
 * nor a few networks' fakes can set a figure. Pure, and a cache in front of the store: a burst of
 * visits to the page reads the store at most once a minute per process. Nothing in it names a
 * visitor (the records hold none).
 */
import {
  deviceClasses,
  rate,
  SPEED_METRICS,
  type DeviceClass,
  type MeasurementIntake,
  type SpeedFigure,
  type SpeedMetric,
} from '../../domain/vitals.ts';
import type { VitalRecord, VitalsDay } from '../store/types.ts';
import { classFigures, p75, type NetworkP75 } from './figure.ts';
import { dayTotals, windowStart } from './report.ts';

export const SPEED_WINDOW_DAYS = 28;
/** How long one working out of the figures is shown for (/speed's and the desk's). */
export const SPEED_MAX_AGE_MS = 60_000;

export interface SpeedFigures {
  /** The window, 'YYYY-MM-DD' (UTC), both days included. */
  from: string;
  to: string;
  devices: { device: DeviceClass; figures: SpeedFigure[] }[];
  /**
   * The window's measurements: received, kept (the figures' own), sampled out (days with more than
   * a day keeps, which keep a random sample) and dropped (a network over its share, and the like).
   */
  intake: MeasurementIntake;
}

const isSpeedMetric = (metric: string): metric is SpeedMetric =>
  (SPEED_METRICS as readonly string[]).includes(metric);

/** The figures of the window ending `today` ('YYYY-MM-DD'), every class and metric in order. */
export function speedFigures(
  records: readonly VitalRecord[],
  today: string,
  days: readonly VitalsDay[] = [],
): SpeedFigures {
  const from = windowStart(today, SPEED_WINDOW_DAYS);
  const inWindow = records.filter(
    (record) => record.day >= from && record.day <= today && isSpeedMetric(record.metric),
  );
  // A measurement without a network key is a network of its own.
  const networks = Map.groupBy(
    inWindow,
    (record, i) => `${record.device} ${record.metric} ${record.network ?? `#${i}`}`,
  );
  const rows = [...networks.values()].map((list): NetworkP75 => ({
    device: list[0]!.device,
    metric: list[0]!.metric,
    network: list[0]!.network ?? '',
    p75: p75(list.map((r) => r.value))!,
    samples: list.length,
  }));
  return speedFiguresOf(rows, today, days);
}

/** The same figures from the window's networks' p75s (the store's, or speedFigures'). */
export function speedFiguresOf(
  networks: readonly NetworkP75[],
  today: string,
  days: readonly VitalsDay[] = [],
): SpeedFigures {
  const from = windowStart(today, SPEED_WINDOW_DAYS);
  const of = classFigures(networks);
  return {
    from,
    to: today,
    intake: dayTotals(days.filter((d) => d.day >= from && d.day <= today)),
    devices: deviceClasses.map((device) => ({
      device,
      figures: SPEED_METRICS.map((metric) => {
        const { visits, figure: value } = of(device, metric);
        if (value === undefined) return { metric, visits };
        return { metric, visits, p75: value, rating: rate(metric, value) };
      }),
    })),
  };
}

/**
 * Figures worked out at most once per SPEED_MAX_AGE_MS: asks meanwhile share the work under way or
 * the last one. `now` is the clock (the tests' own); `make` is given the window's first day and today.
 */
export class FiguresCache<T> {
  readonly #make: (from: string, today: string) => Promise<T>;
  readonly #now: () => number;
  #kept: { at: number; figures: Promise<T> } | undefined;

  constructor(
    make: (from: string, today: string) => Promise<T>,
    { now = Date.now }: { now?: () => number } = {},
  ) {
    this.#make = make;
    this.#now = now;
  }

  get(): Promise<T> {
    const at = this.#now();
    if (this.#kept && at - this.#kept.at < SPEED_MAX_AGE_MS) return this.#kept.figures;
    const today = new Date(at).toISOString().slice(0, 10);
    const figures = this.#make(windowStart(today, SPEED_WINDOW_DAYS), today);
    this.#kept = { at, figures };
    // A failed read is not kept: the next visit tries again.
    figures.catch(() => {
      if (this.#kept?.figures === figures) this.#kept = undefined;
    });
    return figures;
  }
}
