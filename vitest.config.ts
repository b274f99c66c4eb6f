/// <reference types="vitest/config" />
import { resolve } from 'node:path';
import { getViteConfig } from 'astro/config';
import { configDefaults } from 'vitest/config';
import { VitestFileTimes } from './scripts/test-timings.mjs';
import { selectedStoreBackends } from './tests/support/store-selection.ts';

// `npm test` (scripts/test.mjs) asks each run for its files' times, written to this file beside
// the usual output.
const timesFile = process.env.TEST_JSON_REPORT;

// The workers, and the servers and CLIs the tests start, keep Node's compiled code here and start on
// it the next time (tests/support/server.ts sets the same folder for the servers it starts).
process.env.NODE_COMPILE_CACHE ??= resolve('node_modules/.cache/node-compile');

// One project per test folder, by what its tests need: `vitest run --project unit` runs only that
// folder, and only the store project pays for a PostgreSQL server.
const project = (
  name: string,
  test: {
    globalSetup?: string[];
    setupFiles?: string[];
    maxWorkers?: number;
    exclude?: string[];
    isolate?: boolean;
  } = {},
) => ({
  extends: true,
  test: { name, include: [`tests/${name}/**/*.test.ts`], ...test },
});

export default getViteConfig({
  test: {
    // Beside the other phases of `npm test` on a slow machine (2026-11-29), property tests and the
    // store's CLI took 64 to 92 s, whose work takes 2 to 5 s alone: within 120 s, but not by the
    // margin another machine's speed needs. A test that passes ends when it is done.
    testTimeout: 300_000,
    // Vitest's 10 s is short for a hook that copies the project or starts a server while the
    // other phases of `npm test` load the machine (CI failed on content-build's copy at 10 s).
    hookTimeout: 60_000,
    // A mail or a log line the tests wait for arrives in milliseconds on a quiet machine, but took
    // over vitest's 1 s while the other phases of `npm test` loaded CI's; a poll that succeeds ends
    // at once, so a longer limit costs nothing.
    expect: { poll: { timeout: 10_000 } },
    ...(timesFile && { reporters: [...configDefaults.reporters, new VitestFileTimes(timesFile)] }),
    projects: [
      // Pure: rules, formats, schemas and content files; no server, no database, no build. So its
      // files share their workers' modules (zod, the schemas) instead of each loading them anew:
      // two fifths less processor time.
      project('unit', { isolate: false, maxWorkers: 3 }),
      // The store backends against SQLite and a real PostgreSQL (one server for the run; each test
      // makes a database of its own on it). With STORE_BACKENDS=sqlite (`npm run test:quick`), no
      // PostgreSQL: no server, and its own files (*postgres*.test.ts) left out. Each store is a
      // file or a schema of its own and no file changes the environment, so the files share their
      // workers' modules too: a fifth less processor time (all in one worker, they pass as well).
      project(
        'store',
        selectedStoreBackends().includes('postgresql')
          ? { globalSetup: ['tests/support/postgres-setup.ts'], maxWorkers: 3, isolate: false }
          : { exclude: ['tests/store/**/*postgres*.test.ts'], maxWorkers: 3, isolate: false },
      ),
      // Spawns `astro sync` and `astro build` on a copy of the project, and a server over it. Its
      // databases go into a folder the file removes: vitest ends its workers without their 'exit'
      // event, so a folder removed then was left in the system's temporary folder by each run.
      project('build', { setupFiles: ['tests/support/test-databases.ts'] }),
      // Against the built server (`npm run build` first); postgres.test.ts starts its own PostgreSQL.
      // Its tests mostly wait on servers and sockets: two files at once, beside the browser tests.
      // Each file's databases are removed when it ends (tests/support/test-databases.ts).
      project('integration', {
        maxWorkers: 2,
        isolate: false,
        setupFiles: ['tests/support/test-databases.ts'],
      }),
      // A production install in a clean copy (install, build, prune): `npm run test:deploy`, not in
      // `npm test`, whose 300 s it would not fit (tests/deploy/production-install.test.ts says why).
      project('deploy'),
    ],
  },
});
