/**
 * Field data, as both the phone and the server see it: the Core Web Vitals a page measures
 * (src/client/field-vitals.ts), the beacon it sends them in, the schema the server holds a beacon to
 * (src/server/vitals/), and the thresholds the staff's report rates them by. Nothing in it names a
 * visitor: a page path, the metrics, and coarse facts about the connection and the device.
 */
import { z } from 'astro/zod';

export const metricNames = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type MetricName = (typeof metricNames)[number];

/**
 * Good up to the first value, poor above the second: Google's Core Web Vitals thresholds (web.dev,
 * and web-vitals' own LCPThresholds etc.; tests/unit/vitals.test.ts checks they agree). Times in
 * ms; CLS has no unit.
 */
export const thresholds: Record<MetricName, readonly [number, number]> = {
  LCP: [2500, 4000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  FCP: [1800, 3000],
  TTFB: [800, 1800],
};

/**
 * The largest value believed, per metric: a minute for a time (a page slower than that is a broken
 * measurement, not a visit), 10 for CLS (a page whose every element jumps its full height ten times).
 */
export const maxValue: Record<MetricName, number> = {
  LCP: 60_000,
  INP: 60_000,
  CLS: 10,
  FCP: 60_000,
  TTFB: 60_000,
};

export const ratings = ['good', 'needs-improvement', 'poor'] as const;
export type Rating = (typeof ratings)[number];

export const rate = (metric: MetricName, value: number): Rating => {
  const [good, poor] = thresholds[metric];
  return value <= good ? 'good' : value <= poor ? 'needs-improvement' : 'poor';
};

/** A value as people read it: ms rounded, CLS to three places. */
export const formatValue = (metric: MetricName, value: number) =>
  metric === 'CLS' ? value.toFixed(3) : `${Math.round(value)} ms`;

/** A rating as people read it. */
export const ratingLabel: Record<Rating, string> = {
  good: 'good',
  'needs-improvement': 'needs improvement',
  poor: 'poor',
};

/** Fewer visits than this for a page's metric: its p75 says too little to be rated. */
export const MIN_RATED_VISITS = 5;

/** A p75's rating as the staff read it: 'too few visits' below MIN_RATED_VISITS, else its rating. */
export const ratingWords = (rating: Rating, visits: number) =>
  visits < MIN_RATED_VISITS ? 'too few visits' : ratingLabel[rating];

/** The Core Web Vitals /speed shows (src/pages/speed.astro, src/server/vitals/speed.ts). */
export const SPEED_METRICS = ['LCP', 'INP', 'CLS'] as const;
export type SpeedMetric = (typeof SPEED_METRICS)[number];

/** One figure of /speed: a metric's p75 over the window for a device class, and its visits. */
export interface SpeedFigure {
  metric: SpeedMetric;
  /** The visits behind the figure (one measurement of the metric each). */
  visits: number;
  /** Absent below the visits a figure needs. */
  p75?: number;
  rating?: Rating;
}

/**
 * What a window's measurements came to: received, kept (what its figures come from), left out of
 * busy days' samples (on `sampledDays` days), and dropped (a network over its share, and the like).
 */
export interface MeasurementIntake {
  received: number;
  kept: number;
  dropped: number;
  sampledOut: number;
  sampledDays: number;
}

/** How the page view began, as web-vitals names it (`Metric['navigationType']`). */
export const navigationTypes = [
  'navigate',
  'reload',
  'back-forward',
  'back-forward-cache',
  'prerender',
  'restore',
  'soft-navigation',
] as const;

/** `navigator.connection.effectiveType`, where the browser tells it (Chromium); else 'unknown'. */
export const connectionTypes = ['slow-2g', '2g', '3g', '4g', 'unknown'] as const;
export type ConnectionType = (typeof connectionTypes)[number];

/**
 * A coarse device class: a touch screen whose short side is under 600 CSS px is a phone, a larger
 * touch screen a tablet, anything else (a mouse) a desktop.
 */
export const deviceClasses = ['phone', 'tablet', 'desktop'] as const;
export type DeviceClass = (typeof deviceClasses)[number];

/** Where the paths the build does not know are counted together. */
export const OTHER_PATH = '(other)';

/** Largest beacon the server reads: one page view's five metrics take about 500 bytes. */
export const BEACON_LIMIT = 2048;

/** A short CSS selector (the LCP element, the INP target): at most this long, and printable. */
const SELECTOR_MAX = 100;
const selector = z
  .string()
  .max(SELECTOR_MAX)
  .regex(/^[\x20-\x7e]*$/, 'printable ASCII only');

/** A time of the INP phase split, in ms. */
const phase = z.number().min(0).max(maxValue.INP);

const measurement = z
  .object({
    name: z.enum(metricNames),
    value: z.number().min(0),
    /** The LCP element, or the element of the interaction INP is made of, as a short selector. */
    target: selector.optional(),
    /** INP only: input delay, processing duration and presentation delay. */
    phases: z.tuple([phase, phase, phase]).optional(),
  })
  .strict()
  .refine((m) => m.value <= maxValue[m.name], {
    message: 'value out of range',
    path: ['value'],
  })
  .refine((m) => !m.phases || m.name === 'INP', {
    message: 'phases are for INP only',
    path: ['phases'],
  });

/** What a page sends when it is hidden: one page view's metrics, each at most once. */
export const beaconSchema = z
  .object({
    path: z.string().min(1).max(200).startsWith('/'),
    navigation: z.enum(navigationTypes),
    connection: z.enum(connectionTypes),
    device: z.enum(deviceClasses),
    metrics: z
      .array(measurement)
      .min(1)
      .max(metricNames.length)
      .refine((list) => new Set(list.map((m) => m.name)).size === list.length, {
        message: 'a metric sent twice',
      }),
  })
  .strict();

export type Beacon = z.output<typeof beaconSchema>;
export type Measurement = Beacon['metrics'][number];
