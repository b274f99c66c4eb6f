/**
 * The store project's global setup (vitest.config.ts): one PostgreSQL server for the run
 * (scripts/postgres.mjs), whose admin URL the tests read with inject('postgresUrl'); each test
 * makes a database of its own on it.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../scripts/postgres.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const postgres = await startPostgres({ durable: false });
  project.provide('postgresUrl', postgres.url());
  return () => postgres.stop();
}
