// How fast this machine is right now, on one core: a fixed piece of work (hashing, arithmetic,
// sorting objects), timed. Figures of `npm test` taken on different days or machines are comparable
// only with it: the same code ran 207 s one day and 310 s another on "the same" 2-core machine.
// docs/benchmarks.md gives each dated figure with this time beside it.
//
// Usage: node scripts/calibrate.mjs [--runs 3]   (prints each run's seconds and their median)
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });

function work() {
  const started = performance.now();
  let hash = Buffer.alloc(32);
  for (let i = 0; i < 3_000_000; i++) hash = createHash('sha256').update(hash).digest();
  let sum = 0;
  for (let i = 0; i < 300_000_000; i++) sum = (sum + i * 7) % 1_000_003;
  const rows = Array.from({ length: 2_000_000 }, (_, i) => ({ i, key: String(i * 31) }));
  rows.sort((a, b) => (a.key < b.key ? -1 : 1));
  // The results are checked so that no part of the work can be optimised away.
  if (sum !== 838_144 || hash[0] !== 7 || rows[5].i !== 322_585) throw new Error('wrong result');
  return (performance.now() - started) / 1000;
}

const times = Array.from({ length: Number(values.runs) }, work);
const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
console.log(
  `calibration: ${times.map((t) => t.toFixed(2)).join(', ')} s; median ${median.toFixed(2)} s`,
);
