// `npm run test:at -- "2027-03-26 10:00"`: the vitest projects as if the suite ran at another time,
// to find the tests that pass only on some days or hours (a call booked on a fixed date that has
// since passed, a span of free times assumed to fit in one day). Every process the tests start (the
// servers, PostgreSQL, the CLIs) reads the same shifted clock: Debian's libfaketime (`apt-get install
// faketime`), set to an offset from the real time, so that the clocks of processes started minutes
// apart agree. Monotonic clocks are left alone (timeouts keep their length).
//
// Usage: npm run test:at -- TIME [--project unit --project store ...] [FILES]
//   TIME: a date and time in UTC (`2027-03-26 10:00`, `2027-03-28T00:30Z`).
//   Without --project: unit, store (SQLite only, as `npm run test:quick`) and integration (after
//   `npm run build`). What a fake clock cannot show: a file's modification time is the real one, so
//   tests that age files by it (tests/unit/editor-pending.test.ts) fail under it, and so does the
//   port bookkeeping of tests/unit/free-port.test.ts; and Caddy, a Go program, keeps the real clock,
//   so its certificates of 12 hours look expired to tests/integration/caddy.test.ts. Chromium under
//   it spins and never loads the editor: tests/integration/live-editor.test.ts is left out.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const [time, ...rest] = process.argv.slice(2);
const at = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(time ?? '') ? time : `${time}Z`);
if (!time || !Number.isFinite(at)) {
  console.error('Usage: npm run test:at -- "2027-03-26 10:00" [vitest arguments]');
  process.exit(2);
}
const library = ['x86_64-linux-gnu', 'aarch64-linux-gnu']
  .map((arch) => `/usr/lib/${arch}/faketime/libfaketime.so.1`)
  .find(existsSync);
if (!library) {
  console.error('libfaketime is missing: apt-get install faketime');
  process.exit(2);
}
const offset = Math.round((at - Date.now()) / 1000);
// Vitest cannot run projects of different worker counts in one run: one after the other.
const runs = rest.some((arg) => arg.startsWith('--project'))
  ? [rest]
  : ['unit', 'store', 'integration'].map((project) => ['--project', project, ...rest]);
console.log(
  `The tests' clock: ${new Date(at).toISOString()} (${offset >= 0 ? '+' : ''}${offset} s)`,
);
let failed = 0;
for (const args of runs) {
  const run = spawnSync(
    'vitest',
    ['run', '--passWithNoTests', ...args, '--exclude', 'tests/integration/live-editor.test.ts'],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        LD_PRELOAD: [library, process.env.LD_PRELOAD].filter(Boolean).join(':'),
        FAKETIME: `${offset >= 0 ? '+' : ''}${offset}s`,
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
        STORE_BACKENDS: process.env.STORE_BACKENDS ?? 'sqlite',
      },
    },
  );
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
