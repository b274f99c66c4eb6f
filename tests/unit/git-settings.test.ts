/**
 * A folder of the content that is a repository of its own (a `.git` sent to Keystatic's API, which
 * the editor now refuses): git, as the site runs it (src/shared/git-settings.ts), never runs that
 * repository's settings, here a `core.fsmonitor` command, when it reads, adds or resets the draft.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git } from '../../src/server/releases/git';

const root = mkdtempSync(join(tmpdir(), 'git-settings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const plainGit = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    stdio: 'pipe',
  });

/** A draft holding a repository whose settings would leave `ran` behind when git descends into it. */
function draftWithNestedRepository(name: string) {
  const draft = join(root, name);
  const nested = join(draft, 'src/content/services/zz');
  mkdirSync(nested, { recursive: true });
  writeFileSync(join(draft, 'a.txt'), 'a\n');
  plainGit(draft, 'init', '-q');
  plainGit(nested, 'init', '-q');
  writeFileSync(join(nested, 'b.txt'), 'b\n');
  plainGit(nested, 'add', '-A');
  plainGit(nested, 'commit', '-qm', 'nested');
  const ran = join(root, `${name}-ran`);
  plainGit(nested, 'config', 'core.fsmonitor', `touch ${ran}; false`);
  // As the publish commits it: the folder becomes a link to that repository.
  plainGit(draft, 'add', '-A');
  plainGit(draft, 'commit', '-qm', 'draft');
  writeFileSync(join(nested, 'b.txt'), 'changed\n');
  return { draft, ran };
}

describe('git as the site runs it, over a draft holding a repository of its own', () => {
  it("runs none of that repository's settings", async () => {
    const { draft, ran } = draftWithNestedRepository('site');
    await git(['status', '--porcelain'], { cwd: draft });
    await git(['add', '-A'], { cwd: draft });
    await git(['diff', 'HEAD'], { cwd: draft });
    expect(existsSync(ran)).toBe(false);
  });

  it('(the same draft, read by git without those settings, runs it: the test can fail)', () => {
    const { draft, ran } = draftWithNestedRepository('plain');
    plainGit(draft, 'status', '--porcelain');
    expect(existsSync(ran)).toBe(true);
  });
});
