// How fast this machine is right now, on one core: two fixed pieces of work, timed. The first is the
// program's own (hashing, arithmetic, sorting objects); the second the kernel's (starting processes,
// and memory touched for the first time), where `npm test` spends about a quarter of its processor
// time (its browsers' and servers' processes, their pipes and page faults) and where this machine was
// found slower one day while the first figure read the same (docs/benchmarks.md). Figures of `npm
// test` taken on different days or machines are comparable only with both beside them: the same code
// ran 207 s one day and 310 s another on "the same" 2-core machine.
//
// Usage: node scripts/calibrate.mjs [--runs 3]   (prints each run's seconds and their medians)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: { runs: { type: 'string', default: '3' } },
});

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

function kernelWork() {
  const started = performance.now();
  for (let i = 0; i < 40; i++) {
    const { status } = spawnSync(process.execPath, ['-e', '0']);
    if (status !== 0) throw new Error('node -e 0 failed');
  }
  // 1 GB of fresh memory, a byte written in each page: a page fault each.
  for (let i = 0; i < 8; i++) {
    const block = new Uint8Array(128 * 1024 * 1024);
    for (let j = 0; j < block.length; j += 4096) block[j] = 1;
  }
  return (performance.now() - started) / 1000;
}

const runs = Array.from({ length: Number(values.runs) }, () => [work(), kernelWork()]);
const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
const line = (times) =>
  `${times.map((t) => t.toFixed(2)).join(', ')} s; median ${median(times).toFixed(2)} s`;
console.log(`calibration: ${line(runs.map(([own]) => own))}`);
console.log(`kernel:      ${line(runs.map(([, kernel]) => kernel))}`);
