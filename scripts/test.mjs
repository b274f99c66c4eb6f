// `npm test`: every check of the project, the independent ones side by side. Each phase is one of
// package.json's scripts (so `npm run test:unit` etc. run alone exactly as here); a phase starts
// once the phases it needs have passed and a slot is free. A phase's output is shown whole when it
// ends (not interleaved); the first failure stops the others and fails the run. At the end, each
// phase's time and the slowest files of each test run (test-timings.mjs).
//
// Usage: npm test [-- --jobs 2]   (how many phases at once, light ones aside: 2 on 2 cores, where 3
//        made each test wait longer on the others', for a run as long: docs/test-runs.md)
//        npm test -- --skip test:editor --skip format:check   (leave phases out, to time the rest)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { failedTests, reportEnv, slowestFiles } from './test-timings.mjs';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: {
    jobs: { type: 'string', default: '2' },
    skip: { type: 'string', multiple: true, default: [] },
  },
});
const jobs = Number(values.jobs);
/** The niceness of the phases off the longest path (their processes and every one they start). */
const NICE = 5;

/**
 * Each phase: the npm script, and the phases that must pass first. Listed in the order they are
 * started when a slot is free: the longest paths first (`build` then the site's browser tests; the
 * editor's browser tests, which work in copies of the project of their own), the short rest
 * beside them. A `light` phase takes no slot: it starts at once and runs beside the others, since
 * it mostly waits (the store's tests, on their databases' disk writes) or is short; kept for the
 * end, they left the processor half idle for the last ten seconds or so. A `critical` phase is on
 * the longest path (the editor's tests, some 160 s alone; the build, which three phases wait for):
 * the others run at a lower priority (`NICE`), so that they take the processor the critical ones
 * leave, rather than stretching the longest path, which had ended the run some 40 s after
 * everything else.
 */
const allPhases = [
  { script: 'build', after: [], critical: true },
  { script: 'test:editor', after: [], critical: true },
  // The browser tests run longest: they start as soon as the build is there.
  { script: 'test:e2e', after: ['build'] },
  // Then the longest of the rest, so that the short ones fill the end of the run on both slots.
  { script: 'test:integration', after: ['build'] },
  // After the build: its copies of the project then start with the build's optimized images
  // (scripts/project-copy.mjs), which on a fresh clone they each made again (some 9 s of CPU).
  { script: 'test:build', after: ['build'] },
  { script: 'check', after: [] },
  // Last: its tests keep both cores busy to the end.
  { script: 'test:unit', after: [] },
  { script: 'test:store', after: [], light: true },
  { script: 'format:check', after: [], light: true },
  { script: 'check:architecture', after: [], light: true },
];
const unknown = values.skip.filter((script) => !allPhases.some((p) => p.script === script));
if (unknown.length) throw new Error(`No phase ${unknown.join(', ')} to skip`);
const phases = allPhases
  .filter((p) => !values.skip.includes(p.script))
  .map((p) => ({ ...p, after: p.after.filter((script) => !values.skip.includes(script)) }));

// Each test run writes a JSON report of its files' times here (test-timings.mjs), read at the end.
const reports = mkdtempSync(join(tmpdir(), 'npm-test-reports-'));
process.on('exit', () => rmSync(reports, { recursive: true, force: true }));

const compileCache = join(import.meta.dirname, '../node_modules/.cache/node-compile-cache');

const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const done = new Map(); // script -> ms
const startedAt = new Map(); // script -> ms since the start of the run
const running = new Map(); // script -> child
let failed = false;

function run(phase) {
  const begin = Date.now();
  startedAt.set(phase.script, begin - started);
  // detached: its own process group, so that a failure elsewhere can stop it with its children.
  const child = spawn('npm', ['run', '--silent', phase.script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // Colours only when the output is a terminal, as each tool does when run alone.
      ...(process.stdout.isTTY && { FORCE_COLOR: '1' }),
      ...reportEnv(reports, phase.script),
      // Node keeps the code it compiled here and reads it back: the run starts some 200 Node
      // processes (servers, builds, workers) over the same files, each a quarter quicker to start.
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? compileCache,
    },
    detached: true,
  });
  // At once, before npm starts anything: its processes inherit the niceness.
  if (!phase.critical) {
    try {
      setPriority(child.pid, NICE);
    } catch {}
  }
  running.set(phase.script, child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.on('close', (code, signal) => {
    running.delete(phase.script);
    if (failed) return; // stopped because another phase failed
    const took = Date.now() - begin;
    const ok = code === 0;
    process.stdout.write(
      `\n── ${phase.script}: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(took)}\n${output}`,
    );
    if (!ok) return fail(phase.script);
    done.set(phase.script, took);
    next();
  });
}

function fail(script) {
  failed = true;
  // SIGINT, as Ctrl-C: Playwright then stops the server it started (its own process group, which
  // SIGTERM to ours leaves running); SIGKILL for whatever is left after 30 s. Not sooner: on a busy
  // machine Playwright took more than 5 s to wind down, and killed before it had stopped its server,
  // left that server running (its own process group) on the e2e port after the run.
  for (const child of running.values()) {
    const signal = (name) => {
      try {
        process.kill(-child.pid, name);
      } catch {}
    };
    signal('SIGINT');
    setTimeout(() => signal('SIGKILL'), 30_000).unref();
  }
  console.error(`\nnpm test failed: ${script} (output above); stopped the phases still running.`);
  if (done.size) {
    console.error('\nThe phases that passed before:');
    printTimes();
  }
  const failures = failedTests(reports, script);
  if (failures) console.error(`\n${failures}`);
  process.exitCode = 1;
}

function printTimes() {
  for (const phase of phases) {
    if (!done.has(phase.script)) continue;
    const took = seconds(done.get(phase.script)).padStart(7);
    console.log(
      `  ${phase.script.padEnd(18)} ${took}  (from ${seconds(startedAt.get(phase.script))})`,
    );
  }
  const files = slowestFiles(
    reports,
    phases.map((p) => p.script).filter((script) => done.has(script)),
  );
  if (files) console.log(`\n${files}`);
}

/** A light phase takes no slot, but for `--jobs 1`: one phase at a time. */
const isLight = (phase) => Boolean(phase?.light) && jobs > 1;

function next() {
  if (failed) return;
  const waiting = phases.filter((p) => !done.has(p.script) && !running.has(p.script));
  const slotsTaken = () =>
    [...running.keys()].filter((script) => !isLight(phases.find((p) => p.script === script)))
      .length;
  for (const phase of waiting) {
    if (!phase.after.every((script) => done.has(script))) continue;
    if (isLight(phase)) run(phase);
    else if (slotsTaken() < jobs) run(phase);
  }
  if (done.size === phases.length) {
    const skipped = values.skip.length ? ` (skipped: ${values.skip.join(', ')})` : '';
    console.log(`\nAll passed in ${seconds(Date.now() - started)}${skipped}:`);
    printTimes();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => fail(`interrupted (${signal})`));
next();
