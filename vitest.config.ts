/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

export default getViteConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    testTimeout: 120_000,
    // A real PostgreSQL server for the store's tests against its second backend.
    globalSetup: ['tests/postgres-setup.ts'],
  },
});
