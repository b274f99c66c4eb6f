/**
 * A publish's build: `astro build` of a checkout of the publish's commit, at the lowest priority
 * the machine offers (`nice -n 19`, and `ionice -c3` where it exists), so that visitors' requests
 * keep their CPU and disk. Its output lines give the progress (a line per page made); a failure is
 * told in the editor's words.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { processWide } from '../process-wide.ts';

export interface BuildRun {
  /** The checkout to build in; the build writes its `dist/`. */
  dir: string;
  /** The command line; `astro build` with this Node unless given. */
  command?: readonly string[] | undefined;
  /** Each line the build writes. */
  onLine?: (line: string) => void;
  /** Stops the build (the process is stopping: the job is run again after the restart). */
  signal?: AbortSignal;
  /** Astro's and Vite's cache (ASTRO_CACHE_DIR): kept between publishes, writable. */
  cacheDir?: string;
}

/** What a publish runs: a command, or a stand-in (the tests' quick build). */
export type Builder = (run: BuildRun) => Promise<void>;

export const BuildFailed = processWide('BuildFailed', () => class BuildFailed extends Error {});
export type BuildFailed = InstanceType<typeof BuildFailed>;

const onPath = (name: string) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));

/** The command line with the lowest CPU and I/O priority this machine has. */
export function lowPriority(command: readonly string[]): string[] {
  // -t: where the system call is refused (a seccomp filter), the build runs all the same.
  const io = onPath('ionice') ? ['ionice', '-c3', '-t'] : [];
  return onPath('nice') ? ['nice', '-n', '19', ...io, ...command] : [...io, ...command];
}

const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * Why a build failed, in the editor's words, from its last lines: a content mistake names its file
 * and field (the content schema's message), anything else its first error line.
 */
export function failureWords(lines: readonly string[]): string {
  const clean = lines.map((line) => line.replace(ANSI, '').trim()).filter(Boolean);
  const error =
    clean.find((line) => /InvalidContentEntry|does not match|is required|must be/i.test(line)) ??
    clean.find((line) => /error/i.test(line)) ??
    clean.at(-1) ??
    'the build stopped without saying why';
  return `The site could not be built, so nothing changed on the live site. What the build said: ${error.slice(0, 400)}`;
}

/** Runs the build as a program; resolves when it succeeded, else BuildFailed in words. */
export const commandBuilder: Builder = ({ dir, command, onLine, signal, cacheDir }) =>
  new Promise((resolve, reject) => {
    const line = command ?? [process.execPath, 'node_modules/astro/bin/astro.mjs', 'build'];
    const [program, ...args] = lowPriority(line);
    const child = spawn(program!, args, {
      cwd: dir,
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: '1',
        NODE_ENV: 'production',
        ...(cacheDir && { ASTRO_CACHE_DIR: cacheDir }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
    });
    const last: string[] = [];
    let partial = '';
    const take = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const text of lines) {
        last.push(text);
        if (last.length > 60) last.shift();
        onLine?.(text);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.once('error', (error) =>
      reject(signal?.aborted ? error : new BuildFailed(failureWords([error.message]))),
    );
    child.once('close', (code) => {
      if (partial) last.push(partial);
      if (code === 0) resolve();
      else if (!signal?.aborted) reject(new BuildFailed(failureWords(last)));
    });
  });
