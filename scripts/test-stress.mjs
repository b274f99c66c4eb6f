// `npm run test:stress`: `npm test` several times in a row on a busy machine, to find the tests that
// fail now and then: two CPU burners run beside every run (busy loops, one per core of a 2-core
// machine), and each run's pass or failure and time are reported, with the phase that failed. Each
// run's output goes to a log file (its path is printed); the burners are stopped at the end, on
// Ctrl-C, and if this script dies (each burner ends once its parent is gone).
//
// Usage: npm run test:stress [-- --runs 5 --burners 2 --script test [-- ARGS]]
//   --script: the npm script to run instead of `test` (`--script check:architecture` tries this
//   script's own logic in seconds); ARGS after a second `--` go to it (`--script test -- --jobs 2`).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, createWriteStream, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptArgs } from './script-args.mjs';

const { values, positionals: argsOfScript } = scriptArgs(import.meta.url, {
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    burners: { type: 'string', default: '2' },
    script: { type: 'string', default: 'test' },
  },
});
const runs = Number(values.runs);
const burnerCount = Number(values.burners);
if (!(runs >= 1) || !(burnerCount >= 0))
  throw new Error('--runs must be 1 or more, --burners 0 or more');

/** What follows the script's name on npm's command line: the ARGS, after `--`. */
const passed = argsOfScript.length ? ['--', ...argsOfScript] : [];
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const logs = mkdtempSync(join(tmpdir(), 'test-stress-'));

// A burner: a busy loop that looks up every second whether the process that started it is still
// there (a process whose parent died is handed to another), and ends if not.
const burnerCode = `
  const parent = process.ppid;
  for (;;) {
    const until = Date.now() + 1000;
    while (Date.now() < until);
    if (process.ppid !== parent) process.exit(0);
  }
`;
const burners = [];
function startBurners() {
  for (let i = 0; i < burnerCount; i++) {
    burners.push(spawn(process.execPath, ['-e', burnerCode], { stdio: 'ignore' }));
  }
}
function stopBurners() {
  for (const burner of burners.splice(0)) {
    if (burner.exitCode === null && burner.signalCode === null) burner.kill('SIGKILL');
  }
}
process.on('exit', stopBurners);

let current; // the run going on: its child (its own process group)
let interrupted = false;
const results = [];

/** One run of the npm script, its output into `log`; resolves with its result. */
async function runOnce(n) {
  const log = join(logs, `run-${n}.log`);
  const out = createWriteStream(log);
  const begin = Date.now();
  // Its own process group, so that Ctrl-C here stops it and everything it started.
  const child = spawn('npm', ['run', '--silent', values.script, ...passed], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  current = child;
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  const [code, signal] = await once(child, 'close');
  current = undefined;
  await new Promise((resolve) => out.end(resolve));
  const text = readFileSync(log, 'utf8');
  // scripts/test.mjs names the phase that failed.
  const phase = /npm test failed: (.+?) \(output above\)/.exec(text)?.[1];
  // The browser tests' evidence of a failure (error-context.md, screenshots), which the next run
  // would empty: kept beside the log.
  if (code !== 0 && existsSync('test-results'))
    cpSync('test-results', join(logs, `run-${n}-test-results`), { recursive: true });
  return { n, ok: code === 0, took: Date.now() - begin, code, signal, phase, log };
}

function report() {
  if (!results.length) return;
  const passed = results.filter((r) => r.ok).length;
  console.log(
    `\n${values.script}: ${passed} of ${results.length} runs passed, ${burnerCount} CPU burner${burnerCount === 1 ? '' : 's'} beside them:`,
  );
  for (const r of results) {
    const outcome = r.ok
      ? 'passed'
      : `FAILED${r.phase ? ` in ${r.phase}` : ''} (${r.signal ?? `exit ${r.code}`}), ${r.log}`;
    console.log(`  run ${String(r.n).padStart(2)}  ${seconds(r.took).padStart(8)}  ${outcome}`);
  }
  const times = results.map((r) => r.took).sort((a, b) => a - b);
  console.log(`  fastest ${seconds(times[0])}, slowest ${seconds(times.at(-1))}; logs in ${logs}`);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n${signal}: stopping the run going on and the burners.`);
    stopBurners();
    if (current) {
      const group = -current.pid;
      const send = (name) => {
        try {
          process.kill(group, name);
        } catch {}
      };
      // SIGINT, as Ctrl-C: npm test stops its phases (and Playwright its servers); then SIGKILL.
      send('SIGINT');
      setTimeout(() => send('SIGKILL'), 10_000).unref();
    }
  });
}

console.log(
  `${runs} runs of \`npm run ${[values.script, ...passed].join(' ')}\` in a row, ${burnerCount} CPU burner${burnerCount === 1 ? '' : 's'} beside them; logs in ${logs}`,
);
startBurners();
try {
  for (let n = 1; n <= runs && !interrupted; n++) {
    const result = await runOnce(n);
    if (interrupted) {
      console.log(`  run ${n} stopped after ${seconds(result.took)}`);
      break;
    }
    results.push(result);
    console.log(
      `  run ${n}: ${result.ok ? 'passed' : `FAILED${result.phase ? ` in ${result.phase}` : ''}`} in ${seconds(result.took)}`,
    );
  }
} finally {
  stopBurners();
}
report();
process.exitCode = interrupted ? 130 : results.every((r) => r.ok) ? 0 : 1;
