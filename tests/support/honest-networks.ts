/**
 * Field data of honest networks, as /speed's tests model it (tests/unit/speed.test.ts,
 * tests/integration/speed.test.ts): the site's median LCP, each network's own median spread around
 * it (lognormal, `between`), each network's visits (3 to 60, or as many as `visits` says) spread
 * around its own median (lognormal, `within`); drawn from a seed, so that a test gets the same
 * networks every run.
 */
import type { NetworkValue } from '../../src/server/vitals/figure';

export interface HonestPopulation {
  networks: number;
  median: number;
  between: number;
  within: number;
  seed: number;
  /** The fewest and the most visits a network brings. */
  visits?: [number, number];
}

/** A seeded source of uniform (mulberry32) and normal (Box–Muller) draws. */
function draws(seed: number) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

/** The honest networks' visits, network `h0`, `h1` …; LCPs at most 60 s, as a beacon's. */
export function honestVisits({
  networks,
  median,
  between,
  within,
  seed,
  visits: [fewest, most] = [3, 60],
}: HonestPopulation): NetworkValue[] {
  const { uniform, normal } = draws(seed);
  return Array.from({ length: networks }, (_, n) => {
    const own = median * Math.exp(between * normal());
    const visits = fewest + Math.floor(uniform() * (most - fewest + 1));
    return Array.from({ length: visits }, () => ({
      value: Math.min(60_000, own * Math.exp(within * normal())),
      network: `h${n}`,
    }));
  }).flat();
}
