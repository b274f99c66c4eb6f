// `npm run test:quick`: the checks worth running on every save, side by side, in well under 30 s on
// 2 cores: the unit tests and the store tests against SQLite (one vitest run; STORE_BACKENDS=sqlite,
// so no PostgreSQL server: tests/support/store-selection.ts), and the type check (`astro check`, as
// `npm test` runs it: .astro files too). Each one's output is shown whole when it ends; the times at
// the end. `npm test` runs all of these and the rest.
import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';

const bin = join(import.meta.dirname, '..', 'node_modules', '.bin');
const checks = [
  {
    name: 'unit and store (SQLite)',
    command: ['vitest', 'run', '--project', 'unit', '--project', 'store'],
    env: { STORE_BACKENDS: 'sqlite' },
  },
  { name: 'types (astro check)', command: ['astro', 'check'], env: {} },
];

// As in `npm test` (test.mjs): Node keeps the code it compiled here, and a second run starts its
// processes a quarter quicker.
const compileCache = join(import.meta.dirname, '../node_modules/.cache/node-compile-cache');

const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function run({ name, command: [program, ...args], env }) {
  const begin = Date.now();
  const child = spawn(program, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // The project's Node and tools first, also when this file is not run through npm.
      PATH: `${bin}${delimiter}${process.env.PATH}`,
      ...(process.stdout.isTTY && { FORCE_COLOR: '1' }),
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? compileCache,
      ...env,
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ name, ok: false, took: 0, output: String(error) }));
    child.on('close', (code, signal) => {
      const took = Date.now() - begin;
      const ok = code === 0;
      process.stdout.write(
        `\n── ${name}: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(took)}\n${output}`,
      );
      resolve({ name, ok, took });
    });
  });
}

const results = await Promise.all(checks.map(run));
const failed = results.filter((r) => !r.ok);
console.log(
  `\n${failed.length ? `test:quick FAILED: ${failed.map((r) => r.name).join(', ')}` : 'All passed'} in ${seconds(Date.now() - started)}:`,
);
for (const { name, took } of results) console.log(`  ${name.padEnd(24)} ${seconds(took)}`);
if (failed.length) process.exitCode = 1;
