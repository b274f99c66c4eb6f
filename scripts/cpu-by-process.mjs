// Runs a command and says where its processor time and page faults went, by kind of process
// (Chromium's renderers, Playwright, `astro`, the production servers, PostgreSQL ...): the figures of
// docs/benchmarks.md and docs/testing.md. Linux only: it reads /proc every 50 ms, so a process that
// lives less than that can be missed, or counted under its parent's kind when seen only between its
// fork and its exec (a full `npm test` lists some 90 "node vitest": some 15 runners and workers, and
// the tests' git and shell children, each of nearly no CPU); the system's totals over the run are
// printed beside, to compare.
// It counts the command's own processes (its descendants, each seen while its parent was one, so
// that Chromium's renderers, which outlive the browser that started them, still count), not the
// rest of a busy machine's; `--all` counts every process started meanwhile. `--top N` lists the N
// processes that took the most, with their command lines.
//
// Usage: node scripts/cpu-by-process.mjs [--all] [--top N] -- npm run test:e2e
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { basename } from 'node:path';

const command = process.argv.slice(process.argv.indexOf('--') + 1);
const options = process.argv.slice(2, process.argv.indexOf('--'));
const all = options.includes('--all');
const top = options.includes('--top') ? Number(options[options.indexOf('--top') + 1]) : 0;
if (!process.argv.includes('--') || command.length === 0) {
  console.error('Usage: node scripts/cpu-by-process.mjs -- <command> [arguments]');
  process.exit(2);
}

const ticks = 100; // USER_HZ: /proc's times are in hundredths of a second on Linux
const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** What a process is, from its command line (Chromium rewrites its own into one string). */
function kindOf(pid) {
  const raw = read(`/proc/${pid}/cmdline`);
  if (!raw) return undefined;
  let args = raw.split('\0').filter(Boolean);
  if (args.length === 1) args = args[0].split(' ');
  const program = basename(args[0] ?? '');
  if (/chrom/.test(program)) {
    const type = args.find((arg) => arg.startsWith('--type='));
    return `chromium ${type ? type.slice('--type='.length) : 'browser'}`;
  }
  if (program === 'node') {
    if (args.some((arg) => ['-e', '--eval', '-p', '--print'].includes(arg))) return 'node -e';
    const script = args.slice(1).find((arg) => !arg.startsWith('-')) ?? '';
    const known = ['playwright', 'vitest', 'astro', 'prettier', 'npm', 'src/server/main.ts'];
    const found = known.find((name) => script.includes(name));
    return `node ${found === 'src/server/main.ts' ? 'server' : (found ?? basename(script))}`;
  }
  return program;
}

/** A process's parent, from /proc/PID/stat (after the command name, which may hold spaces). */
function parentOf(pid) {
  const stat = read(`/proc/${pid}/stat`);
  return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] : undefined;
}

/** A process's faults and CPU so far: /proc/PID/stat, after the command name (which may hold spaces). */
function counters(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    minor: Number(fields[7]),
    major: Number(fields[9]),
    user: Number(fields[11]) / ticks,
    system: Number(fields[12]) / ticks,
  };
}

const system = () => {
  const [, user, nice, kernel] = read('/proc/stat').split('\n')[0].split(/\s+/).map(Number);
  const faults = Number(/^pgfault (\d+)$/m.exec(read('/proc/vmstat'))[1]);
  return { user: (user + nice) / ticks, system: kernel / ticks, faults };
};

const before = new Set(readdirSync('/proc').filter((name) => /^\d+$/.test(name)));
const seen = new Map(); // pid -> { kind, command, minor, major, user, system }
/** The command's processes: its own, and every process whose parent was one when first seen. */
const ours = new Set();
const commandLine = (pid) => (read(`/proc/${pid}/cmdline`) ?? '').replaceAll('\0', ' ').trim();
function sample() {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || before.has(pid)) continue;
    if (!all && !ours.has(pid) && !ours.has(parentOf(pid))) continue;
    ours.add(pid);
    const now = counters(pid);
    if (!now) continue;
    // Read each time: a shell or npm that execs its command becomes that command, and a child
    // first seen between its fork and its exec has its parent's command line.
    const kind = kindOf(pid) ?? seen.get(pid)?.kind;
    if (kind) seen.set(pid, { kind, command: commandLine(pid) || seen.get(pid)?.command, ...now });
  }
}

const start = system();
const started = Date.now();
const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
ours.add(String(child.pid));
const timer = setInterval(sample, 50);
const [code] = await new Promise((resolve) => child.on('exit', (...args) => resolve(args)));
clearInterval(timer);
const end = system();

const kinds = new Map();
for (const { kind, minor, major, user, system: kernel } of seen.values()) {
  const row = kinds.get(kind) ?? { processes: 0, minor: 0, major: 0, user: 0, kernel: 0 };
  Object.assign(row, {
    processes: row.processes + 1,
    minor: row.minor + minor,
    major: row.major + major,
    user: row.user + user,
    kernel: row.kernel + kernel,
  });
  kinds.set(kind, row);
}
const seconds = (n) => n.toFixed(1).padStart(7);
console.log(
  `\n${command.join(' ')}: exit ${code}, ${((Date.now() - started) / 1000).toFixed(1)} s; the system's CPU ` +
    `${(end.user - start.user + end.system - start.system).toFixed(1)} s (kernel ` +
    `${(end.system - start.system).toFixed(1)} s), ${end.faults - start.faults} page faults; ` +
    `${all ? 'the processes started meanwhile' : 'its own processes'} ` +
    `${[...seen.values()].reduce((sum, row) => sum + row.user + row.system, 0).toFixed(1)} s\n`,
);
console.log(`${'process'.padEnd(26)} count    user  kernel  faults`);
for (const [kind, row] of [...kinds].sort(([, a], [, b]) => b.user + b.kernel - a.user - a.kernel))
  console.log(
    `${kind.padEnd(26)} ${String(row.processes).padStart(5)} ${seconds(row.user)} ${seconds(row.kernel)}  ${row.minor + row.major}`,
  );
process.exitCode = code ?? 1;

if (top) {
  console.log(`\nThe ${top} processes that took the most:`);
  const cost = (row) => row.user + row.system;
  for (const row of [...seen.values()].sort((a, b) => cost(b) - cost(a)).slice(0, top))
    console.log(`${seconds(cost(row))}  ${row.kind.padEnd(22)} ${row.command.slice(0, 140)}`);
}
