/**
 * A worker thread of ./read-aside.ts: one read of the SQLite file, on a read-only connection of
 * its own, its rows posted back. Node runs this file itself (type stripping).
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReadAsideJob } from './read-aside.ts';

const { path, sql, params } = workerData as ReadAsideJob;
const db = new DatabaseSync(path, { readOnly: true });
try {
  parentPort!.postMessage(db.prepare(sql).all(...params));
} finally {
  db.close();
}
