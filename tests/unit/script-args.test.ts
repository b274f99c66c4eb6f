/**
 * The project's own scripts (scripts/script-args.mjs): `--help` prints the script's header, and a
 * wrong call says what is wrong and the usage in a few lines (exit 2), with no stack trace.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const run = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [`scripts/${script}`, ...args], { encoding: 'utf8' });

describe("the scripts' options", () => {
  it('--help prints the header, usage included, and runs nothing', () => {
    const { status, stdout, stderr } = run('calibrate.mjs', '--help');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^How fast this machine is right now/);
    expect(stdout).toContain('Usage: node scripts/calibrate.mjs [--runs 3]');
    expect(stdout).not.toMatch(/calibration:/);
    expect(stderr).toBe('');
  });

  it('an unknown option is named, then the usage: exit 2, no stack trace', () => {
    const { status, stdout, stderr } = run('calibrate.mjs', '--nope');
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'There is no option --nope.\n' +
        "Usage: node scripts/calibrate.mjs [--runs 3]   (prints each run's seconds and their medians)\n",
    );
  });

  it('an option without its value, in `npm test` itself: the whole usage paragraph, nothing run', () => {
    const { status, stderr } = run('test.mjs', '--jobs');
    expect(status).toBe(2);
    const [problem, ...usage] = stderr.trimEnd().split('\n');
    expect(problem).toBe('--jobs needs a value.');
    expect(usage[0]).toMatch(/^Usage: npm test \[-- --jobs 2\]/);
    expect(usage.at(-1)).toMatch(/npm test -- --skip test:editor/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
