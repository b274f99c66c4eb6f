/**
 * What the operator's commands say to a mistyped or incomplete option (src/server/command-args.ts):
 * the option's name and what is wrong with it, from Node's own parseArgs errors, and never a value
 * given on the command line, which may hold a password.
 */
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { argumentsProblem, writeOutput } from '../../src/server/command-args';

const options: ParseArgsConfig['options'] = {
  csv: { type: 'boolean' },
  out: { type: 'string' },
  to: { type: 'string' },
};

/** What is said of these arguments, as parseArgs fails on them. */
function problemOf(args: string[], allowPositionals = false) {
  try {
    parseArgs({ args, options, allowPositionals });
  } catch (error) {
    return argumentsProblem(error);
  }
  throw new Error(`parseArgs took ${args.join(' ')}`);
}

describe('argumentsProblem', () => {
  it("names the option and what is wrong with it, in the operator's words", () => {
    expect(problemOf(['--bogus'])).toBe('There is no option --bogus.');
    expect(problemOf(['-x'])).toBe('There is no option -x.');
    expect(problemOf(['--out'])).toBe('--out needs a value.');
    expect(problemOf(['--csv=yes'])).toBe('--csv takes no value.');
    expect(problemOf(['--out', '-3'])).toBe(
      '--out needs a value; one that starts with a dash is written --out=VALUE.',
    );
    expect(problemOf(['extra'])).toBe('This command takes nothing but its options.');
  });

  it('repeats no value given, which may be a password', () => {
    const secret = 'postgres://site:s3cret-pw@db.internal:5432/agency';
    for (const args of [
      [`--tp=${secret}`],
      [secret],
      [`--csv=${secret}`],
      ['--to', secret, '--x'],
      ['--to', `-${secret}`],
    ])
      expect(problemOf(args)).not.toMatch(/s3cret|db\.internal|postgres:/);
  });

  it('leaves any other error to its caller', () => {
    expect(argumentsProblem(new Error('disk full'))).toBeUndefined();
    expect(argumentsProblem(undefined)).toBeUndefined();
  });
});

describe('writeOutput, the file of an export (a CSV of every prospect)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'write-output-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a link left at its name rather than writing through it', () => {
    const theirs = join(dir, 'victim.conf');
    writeFileSync(theirs, 'kept\n');
    symlinkSync(theirs, join(dir, 'link.csv'));
    writeOutput(join(dir, 'link.csv'), 'name,email\n');
    expect(readFileSync(theirs, 'utf8')).toBe('kept\n');
    expect(lstatSync(join(dir, 'link.csv')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'link.csv'), 'utf8')).toBe('name,email\n');
  });

  it('replaces a file left there open to all, so that whoever holds it open reads nothing', () => {
    const path = join(dir, 'open.csv');
    writeFileSync(path, '');
    chmodSync(path, 0o666);
    const held = openSync(path, 'r');
    writeOutput(path, 'name,email\n');
    const seen = Buffer.alloc(64);
    expect(readSync(held, seen)).toBe(0);
    closeSync(held);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe('name,email\n');
    // Nothing of the write is left under another name.
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('writes into a device or a pipe as it is (/dev/null stays /dev/null)', () => {
    writeOutput('/dev/null', 'name,email\n');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });
});
