/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

// One project per test folder, by what its tests need: `vitest run --project unit` runs only that
// folder, and only the store project pays for a PostgreSQL server.
const project = (name: string, test: { globalSetup?: string[]; maxWorkers?: number } = {}) => ({
  extends: true,
  test: { name, include: [`tests/${name}/**/*.test.ts`], ...test },
});

export default getViteConfig({
  test: {
    testTimeout: 120_000,
    projects: [
      // Pure: rules, formats, schemas and content files; no server, no database, no build.
      project('unit'),
      // The store backends against SQLite and a real PostgreSQL (one server for the run; each test
      // makes a database of its own on it).
      project('store', { globalSetup: ['tests/support/postgres-setup.ts'], maxWorkers: 3 }),
      // Spawns `astro sync` and `astro build` on a copy of the project.
      project('build'),
      // Against the built server (`npm run build` first); postgres.test.ts starts its own PostgreSQL.
      // Its tests mostly wait on servers and sockets: two files at once, beside the browser tests.
      project('integration', { maxWorkers: 2 }),
    ],
  },
});
