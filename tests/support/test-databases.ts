/**
 * A vitest setup file: the databases a test file's servers make (newDatabasePath) go into one
 * folder of the file's own, removed once its tests are done, and a server the file left running is
 * killed then. (Without it, both wait for the process's exit: the browser tests' workers; vitest
 * ends its workers without that event, so each vitest project that starts servers names this file.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { killRunningServers } from './server';

const folder = mkdtempSync(join(tmpdir(), 'enquiries-'));
process.env.TEST_DATABASES = folder;
afterAll(() => {
  killRunningServers();
  rmSync(folder, { recursive: true, force: true });
});
