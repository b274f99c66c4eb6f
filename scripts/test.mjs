// `npm test`: every check of the project, the independent ones side by side. Each phase is one of
// package.json's scripts (so `npm run test:unit` etc. run alone exactly as here); a phase starts
// once the phases it needs have passed and a slot is free. A phase's output is shown whole when it
// ends (not interleaved); the first failure stops the others and fails the run. Times at the end.
//
// Usage: npm test [-- --jobs 3]   (how many phases at once; 3 suits 2 cores, most phases wait on I/O)
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { jobs: { type: 'string', default: '3' } } });
const jobs = Number(values.jobs);

/** Each phase: the npm script, and the phases that must pass first. */
const phases = [
  // The browser tests run longest: they start as soon as the build is there.
  { script: 'build', after: [] },
  { script: 'test:e2e', after: ['build'] },
  { script: 'test:integration', after: ['build'] },
  { script: 'format:check', after: [] },
  { script: 'test:unit', after: [] },
  { script: 'test:store', after: [] },
  { script: 'check', after: [] },
  { script: 'check:architecture', after: [] },
  { script: 'test:build', after: [] },
  // The visual editor against `astro dev`: it saves into src/content (and puts every file back), so
  // it waits for the phases that read src/content.
  { script: 'test:editor', after: ['build', 'test:unit', 'test:build', 'check'] },
];

const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const done = new Map(); // script -> ms
const running = new Map(); // script -> child
let failed = false;

function run(phase) {
  const begin = Date.now();
  // detached: its own process group, so that a failure elsewhere can stop it with its children.
  const child = spawn('npm', ['run', '--silent', phase.script], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Colours only when the output is a terminal, as each tool does when run alone.
    env: { ...process.env, ...(process.stdout.isTTY && { FORCE_COLOR: '1' }) },
    detached: true,
  });
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
  // SIGTERM to ours leaves running); SIGKILL for whatever is left after a few seconds.
  for (const child of running.values()) {
    const signal = (name) => {
      try {
        process.kill(-child.pid, name);
      } catch {}
    };
    signal('SIGINT');
    setTimeout(() => signal('SIGKILL'), 5_000).unref();
  }
  console.error(`\nnpm test failed: ${script} (output above); stopped the phases still running.`);
  process.exitCode = 1;
}

function next() {
  if (failed) return;
  const waiting = phases.filter((p) => !done.has(p.script) && !running.has(p.script));
  for (const phase of waiting) {
    if (running.size >= jobs) break;
    if (phase.after.every((script) => done.has(script))) run(phase);
  }
  if (done.size === phases.length) {
    console.log(`\nAll passed in ${seconds(Date.now() - started)}:`);
    for (const phase of phases)
      console.log(`  ${phase.script.padEnd(18)} ${seconds(done.get(phase.script))}`);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => fail(`interrupted (${signal})`));
next();
