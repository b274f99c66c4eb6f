/**
 * git, the CLI, for the draft and the publishes' commits: one command at a time of a folder's
 * repository, its output as text, and its complaint as the error's message when it fails.
 */
import { execFile } from 'node:child_process';
import { GIT_SETTINGS } from '../../shared/git-settings.ts';

/** git's complaint; `stdout`, what it wrote before it (a merge's conflicted paths). */
export class GitError extends Error {
  readonly stdout: string;
  constructor(message: string, stdout = '') {
    super(message);
    this.stdout = stdout;
  }
}

export interface GitOptions {
  cwd: string;
  /** More of the environment (an index file of its own, an author). */
  env?: Record<string, string>;
  input?: string;
  /** The output as git wrote it, not trimmed (a status's leading blank is a column). */
  raw?: boolean;
}

/** Runs `git args` in `cwd`; its output, trimmed. */
export function git(
  args: readonly string[],
  { cwd, env, input, raw = false }: GitOptions,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      {
        cwd,
        env: { ...process.env, ...env, ...GIT_SETTINGS, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new GitError(
              `git ${args[0]}: ${String(stderr || stdout || error.message).trim()}`,
              String(stdout),
            ),
          );
        else resolve(raw ? String(stdout) : String(stdout).trim());
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Whether `git args` succeeds (a test: is-ancestor, a ref that may not exist). */
export const gitSucceeds = (args: readonly string[], options: GitOptions) =>
  git(args, options).then(
    () => true,
    () => false,
  );
