/**
 * The staff CLI (`npm run enquiries`, src/server/cli.ts) as staff call it, through npm: its CSV
 * export is a file with only the CSV in it, whatever npm prints around the command.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/server/store/sqlite';
import { enquiry } from '../support/records';

const run = promisify(execFile);
let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cli-'));
  const database = join(dir, 'e.sqlite');
  const store = new SqliteStore(database);
  await store.commit(enquiry({ email: 'ada@example.com' }), false);
  await store.close();
  // The store's variables only: no DATABASE_URL from the shell may send it elsewhere.
  env = { ...process.env, ENQUIRY_DB: database, DATABASE_URL: '' };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run enquiries', () => {
  it('writes the CSV alone to the file given with --out', async () => {
    const out = join(dir, 'enquiries.csv');
    const { stdout } = await run('npm', ['run', 'enquiries', '--', '--csv', '--out', out], { env });
    // npm's banner goes to stdout, and only there.
    expect(stdout).toContain('> ');
    const csv = readFileSync(out, 'utf8');
    expect(csv).toMatch(/^id,received,kind,name,email,/);
    const rows = csv.split('\r\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('ada@example.com');
    expect(rows[2]).toBe('');
  }, 30_000);

  it('writes the listing to the file given with --out', async () => {
    const out = join(dir, 'enquiries.txt');
    await run('npm', ['run', 'enquiries', '--', '--out', out], { env });
    expect(readFileSync(out, 'utf8')).toMatch(/ada@example\.com[^]*\n$/);
  }, 30_000);

  it('writes clean CSV to stdout when npm is silent', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'enquiries', '--', '--csv'], { env });
    expect(stdout).toMatch(/^id,received,kind,name,email,[^]*ada@example\.com[^]*\r\n$/);
  }, 30_000);
});
