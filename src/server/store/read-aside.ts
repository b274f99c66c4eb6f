/**
 * A long read of the SQLite file (field data's percentiles over weeks of measurements) on a
 * connection of its own, in a worker thread: node:sqlite answers on the thread that asks, and
 * a read of a few hundred thousand rows held every visitor's request for as long. WAL mode lets
 * it read beside the server's own connection, which goes on writing.
 */
import { Worker } from 'node:worker_threads';
import type { SQLInputValue } from 'node:sqlite';
import { processWide } from '../process-wide.ts';

/** What the worker is handed. */
export interface ReadAsideJob {
  path: string;
  sql: string;
  params: SQLInputValue[];
}

/**
 * The worker's file. The build (dist/server/) holds its own copy of the server's modules, with no
 * worker beside it: the source copy of this module, which ../main.ts loads before the build (and
 * Vite in `astro dev`, the tests and the CLIs), names it for both.
 */
const workerFile = processWide(
  'read-aside-worker',
  () => new URL('./read-aside-worker.ts', import.meta.url),
);

/** The rows of `sql` read from the file at `path` by a worker of its own. */
export function readAside(
  path: string,
  sql: string,
  params: readonly unknown[] = [],
): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const job: ReadAsideJob = { path, sql, params: params as SQLInputValue[] };
    const worker = new Worker(workerFile, { workerData: job });
    worker.once('message', (rows: Record<string, unknown>[]) => resolve(rows));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The read's worker stopped (${code}).`)));
  });
}
