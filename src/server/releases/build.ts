/**
 * The site's build, the one way to run it: `astro build` (or PUBLISH_BUILD_COMMAND) of a folder
 * holding the project, for a publish (a checkout of its commit, ./publish-job.ts) and for the
 * draft's preview (../staff/preview.ts), at the lowest priority the machine offers (`nice -n 19`,
 * and `ionice -c3` where it exists), so that visitors' requests keep their CPU and disk. Its output
 * lines give the progress (a line per page made); a failure is told in the editor's words. What a
 * build read is hashed (`buildInputs`): a publish uses the preview's finished build of the same
 * inputs rather than build them again.
 */
import { spawn } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { cp, lstat, readFile, readdir, readlink, rename, rm } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import type { BuildPriority } from '../config.ts';
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
  /** `low` unless given: the machine's lowest CPU and I/O priority (PUBLISH_BUILD_PRIORITY). */
  priority?: BuildPriority;
  /** How long it may run (PUBLISH_BUILD_MINUTES): past it, it is stopped and fails. */
  timeLimitMs?: number;
}

/** What a publish runs: a command, or a stand-in (the tests' quick build). */
export type Builder = (run: BuildRun) => Promise<void>;

export const BuildFailed = processWide(
  'BuildFailed',
  () =>
    class BuildFailed extends Error {
      /** The build's last lines (the preview's failure page shows them). */
      readonly lines: readonly string[];
      constructor(message: string, lines: readonly string[] = []) {
        super(message);
        this.lines = lines;
      }
    },
);
export type BuildFailed = InstanceType<typeof BuildFailed>;

const onPath = (name: string) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));

/** The command line with the lowest CPU and I/O priority this machine has. */
export function lowPriority(command: readonly string[]): string[] {
  // -t: where the system call is refused (a seccomp filter), the build runs all the same.
  const io = onPath('ionice') ? ['ionice', '-c3', '-t'] : [];
  return onPath('nice') ? ['nice', '-n', '19', ...io, ...command] : [...io, ...command];
}

/** What of the project a build reads, besides its packages: its code, configuration, files, content. */
export const BUILD_PARTS = [
  'astro.config.mjs',
  'keystatic.config.ts',
  'package.json',
  'tsconfig.json',
  'public',
  'src',
] as const;

/** The environment's settings a build reads (astro.config.mjs); nothing else of the server's reaches it. */
const BUILD_SETTINGS = ['RECAPTCHA_SITE_KEY', 'VITALS'];
const KEPT = ['PATH', 'HOME', 'LANG', 'TZ', ...BUILD_SETTINGS];

/**
 * The build's environment: the drafts' MDX runs in the build, so the server's secrets stay out of
 * it; the same for every build, so that two builds of the same inputs make the same site.
 */
function buildEnvironment(cacheDir: string | undefined) {
  const env: NodeJS.ProcessEnv = { ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' };
  for (const name of KEPT) if (process.env[name] !== undefined) env[name] = process.env[name];
  if (cacheDir) env.ASTRO_CACHE_DIR = cacheDir;
  return env;
}

/**
 * A hash of what a build of `dir` reads: every byte of BUILD_PARTS, the packages (`modules`: its
 * real path, and npm's record of what is installed there), the command line and the build's
 * settings. Equal hashes, the same site; a file the commit lacks (ignored by git, or not committed)
 * but the preview copied makes them differ.
 */
export async function buildInputs(
  dir: string,
  modules: string,
  command: readonly string[] | undefined,
): Promise<string> {
  const real = existsSync(modules) ? realpathSync(modules) : '';
  const settings = BUILD_SETTINGS.map((name) => process.env[name] ?? null);
  const hash = createHash('sha256').update(JSON.stringify([real, command ?? null, settings]));
  if (real) await hashTree(hash, real, '.package-lock.json');
  for (const part of BUILD_PARTS) await hashTree(hash, dir, part);
  return hash.digest('hex').slice(0, 40);
}

/** Adds `path` (under `root`) to `hash`: a file's name and bytes, a link's target, a folder's files in order. */
async function hashTree(hash: Hash, root: string, path: string): Promise<void> {
  const full = join(root, path);
  const stat = await lstat(full).catch(() => undefined);
  if (!stat) return;
  if (stat.isSymbolicLink()) hash.update(`L\0${path}\0${await readlink(full)}\0`);
  else if (stat.isFile()) hash.update(`F\0${path}\0${stat.size}\0`).update(await readFile(full));
  else if (stat.isDirectory())
    for (const name of (await readdir(full)).sort()) await hashTree(hash, root, `${path}/${name}`);
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

/**
 * A build's cache of optimised images (`<cacheDir>/assets`), when it has none yet, started as a copy
 * of the one the site's own `npm run build` left beside the packages `dir` builds with
 * (`node_modules/.astro/assets`): an image depends only on its picture and how it is drawn, so the
 * first preview after a restart, or the first publish after an install, draws only the pictures new
 * since (a cold cache drew them all: some 10 s more of the build on a 2-core machine). Copied
 * aside, then renamed into place: a copy cut short leaves no half-written image to be served.
 */
async function seedImageCache(cacheDir: string, dir: string) {
  const images = join(cacheDir, 'assets');
  if (existsSync(images)) return;
  let made: string;
  try {
    made = join(dirname(realpathSync(join(dir, 'node_modules', 'astro'))), '.astro', 'assets');
  } catch {
    return; // no packages there: the build says so itself
  }
  if (!existsSync(made)) return;
  const aside = `${images}.${process.pid}`;
  try {
    await cp(made, aside, { recursive: true });
    await rename(aside, images);
  } catch {
    // Not copied (a disk full, a permission): the build makes its images, as with no copy.
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}

/** A build stopped at its time limit, in the editor's words. */
const overranWords = (ms: number) => {
  const [count, unit] =
    ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.ceil(ms / 1000), 'second'];
  const within = count === 1 ? `a ${unit}` : `${count} ${unit}s`;
  return `The build did not finish within ${within}, so it was stopped (PUBLISH_BUILD_MINUTES). Nothing on the site changed; try again, and if it stops again, a developer should look at the build.`;
};

/** Runs the build as a program; resolves when it succeeded, else BuildFailed in words. */
export const commandBuilder: Builder = async (run) => {
  if (run.cacheDir) await seedImageCache(run.cacheDir, run.dir);
  return buildCommand(run);
};

const buildCommand: Builder = ({ dir, command, onLine, signal, cacheDir, priority, timeLimitMs }) =>
  new Promise((resolve, reject) => {
    const line = command ?? [process.execPath, 'node_modules/astro/bin/astro.mjs', 'build'];
    const [program, ...args] = priority === 'normal' ? line : lowPriority(line);
    const child = spawn(program!, args, {
      cwd: dir,
      env: buildEnvironment(cacheDir),
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
    let overran = false;
    const limit =
      timeLimitMs === undefined
        ? undefined
        : setTimeout(() => {
            overran = true;
            child.kill('SIGKILL');
          }, timeLimitMs);
    limit?.unref();
    child.once('error', (error) =>
      reject(
        signal?.aborted ? error : new BuildFailed(failureWords([error.message]), [error.message]),
      ),
    );
    child.once('close', (code) => {
      clearTimeout(limit);
      if (partial) last.push(partial);
      if (overran) reject(new BuildFailed(overranWords(timeLimitMs!), last));
      else if (code === 0) resolve();
      else if (!signal?.aborted) reject(new BuildFailed(failureWords(last), last));
    });
  });
