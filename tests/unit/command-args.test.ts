/**
 * What the operator's commands say to a mistyped or incomplete option (src/server/command-args.ts):
 * the option's name and what is wrong with it, from Node's own parseArgs errors, and never a value
 * given on the command line, which may hold a password.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describe, expect, it } from 'vitest';
import { argumentsProblem } from '../../src/server/command-args';

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
