/**
 * A vitest setup file: the databases a test file's servers make (newDatabasePath) go into one
 * folder of the file's own, removed once its tests are done. (Without it, one folder per process,
 * removed as the process exits: the browser tests' workers; vitest ends its workers without that
 * event, so each vitest project that starts servers names this file.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const folder = mkdtempSync(join(tmpdir(), 'enquiries-'));
process.env.TEST_DATABASES = folder;
afterAll(() => rmSync(folder, { recursive: true, force: true }));
