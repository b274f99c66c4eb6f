/**
 * The percentiles of field data: the plain nearest-rank p75 of the staff's report (./report.ts), and
 * the figure /speed shows (./speed.ts), where each network has one say. Pure.
 *
 * One network, one say: each network (an IPv4 /24, an IPv6 /48, by its key: the records'
 * `network`) is summed up by the p75 of its own measurements, however many it sent, and the figure
 * is the mean of the middle half of those networks' p75s (the quarter of networks with the highest
 * and the quarter with the lowest are left out). A network that floods weighs what a network with
 * one visit does; a few networks that send fakes are among those left out, or, if their p75s are
 * not extreme, push out honest networks' instead: 5 networks among 20 or more can only shift, by 5
 * places, which of the honest networks' p75s are averaged (tests/unit/speed.test.ts;
 * docs/field-data.md says what that is worth, and what it cannot be).
 */
import type { VitalsP75 } from '../store/types.ts';

/** The nearest-rank 75th percentile of some values (undefined for none): a value really seen. */
export function p75(values: readonly number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.75) - 1];
}

/** Fewer visits than this in a class: too few for a figure that means anything. */
export const MIN_VISITS = 100;
/** Visits from fewer networks than this: one or two networks' figure, not the site's. */
export const MIN_NETWORKS = 5;

/** A measurement as the figure sees it: its value and its network's key (null: unknown). */
export interface NetworkValue {
  value: number;
  network: string | null;
}

/** Each network's own p75; a measurement without a key (stored before keys were) is a network of its own. */
export function networkP75s(measurements: readonly NetworkValue[]): number[] {
  const networks = new Map<string | number, number[]>();
  measurements.forEach(({ value, network }, i) => {
    const key = network ?? i;
    const values = networks.get(key);
    if (values) values.push(value);
    else networks.set(key, [value]);
  });
  return [...networks.values()].map((values) => p75(values)!);
}

/** The mean of the middle half of some values: a quarter (rounded down) left out at each end. */
export function middleHalfMean(values: readonly number[]): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length / 4);
  const middle = sorted.slice(cut, sorted.length - cut);
  return middle.reduce((sum, v) => sum + v, 0) / middle.length;
}

/**
 * /speed's figure of some measurements (one class and metric): the middle half's mean of the
 * networks' own p75s; undefined below MIN_VISITS measurements or MIN_NETWORKS networks.
 */
export function networkFigure(measurements: readonly NetworkValue[]): number | undefined {
  if (measurements.length < MIN_VISITS) return undefined;
  return figureOfNetworks(networkP75s(measurements), measurements.length);
}

/**
 * The same figure from the networks' own p75s (`says`) and the measurements' count (`visits`), as
 * the store gives them (EnquiryStore.vitalsP75).
 */
export function figureOfNetworks(says: readonly number[], visits: number): number | undefined {
  if (visits < MIN_VISITS || says.length < MIN_NETWORKS) return undefined;
  return middleHalfMean(says);
}

/** The networks' own p75s of a class and metric, as the store gives them (EnquiryStore.vitalsP75). */
export type NetworkP75 = VitalsP75<'device' | 'metric' | 'network'>;

/** /speed's figure of each class and metric from its networks' p75s, with its measurements' count. */
export function classFigures(networks: readonly NetworkP75[]) {
  const classes = new Map<string, { says: number[]; visits: number }>();
  for (const { device, metric, p75: say, samples } of networks) {
    const found = classes.get(`${device} ${metric}`) ?? { says: [], visits: 0 };
    found.says.push(say);
    found.visits += samples;
    classes.set(`${device} ${metric}`, found);
  }
  return (device: string, metric: string) => {
    const { says, visits } = classes.get(`${device} ${metric}`) ?? { says: [], visits: 0 };
    return { visits, figure: figureOfNetworks(says, visits) };
  };
}
