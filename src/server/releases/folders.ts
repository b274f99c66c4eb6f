/**
 * The releases on this machine's disk, as Capistrano and Ghost keep them: each in a folder
 * `<editingDir>/releases/<id>/` (the build's `client/`, `server/` and headers), and a link
 * `<editingDir>/current` naming the live one, switched by renaming a new link over it, which no
 * reader ever sees half done. The server follows the link (./live-site.ts); a release this machine
 * lacks is unpacked from the store's copy first (./sync.ts).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readlink, rename, rm, symlink, stat } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EditingConfig } from '../config.ts';
import { privateFolder } from '../private-files.ts';

export interface ReleasePaths {
  editingDir: string;
  releasesDir: string;
  /** The link to the live release's folder. */
  current: string;
  /** Where publishes check out and build (one folder each, removed when done). */
  buildsDir: string;
  /** The draft's preview (../staff/preview.ts): its project folders and its finished builds. */
  previewDir: string;
}

export const releasePaths = ({ editingDir }: Pick<EditingConfig, 'editingDir'>): ReleasePaths => ({
  editingDir,
  releasesDir: join(editingDir, 'releases'),
  current: join(editingDir, 'current'),
  buildsDir: join(editingDir, 'builds'),
  previewDir: join(editingDir, 'preview'),
});

/**
 * A finished build of the preview's, named by the hash of what it read (./build.ts buildInputs):
 * a folder appears only whole (renamed from the build's dist/), and goes by a rename first
 * (`retire`), so that a publish copying it can tell whether it stayed whole meanwhile.
 */
export const previewBuildName = (inputs: string) =>
  `build-${inputs}-${randomBytes(4).toString('hex')}`;

/** The preview's finished build of `inputs` on this disk, if any. */
export function previewBuildOf(paths: ReleasePaths, inputs: string): string | undefined {
  const names = existsSync(paths.previewDir) ? readdirSync(paths.previewDir) : [];
  const name = names.find((one) => one.startsWith(`build-${inputs}-`) && !one.endsWith('.old'));
  const dir = name && join(paths.previewDir, name);
  return dir && existsSync(join(dir, 'server', 'entry.mjs')) ? dir : undefined;
}

/** Removes a folder another may be copying: renamed away at once (atomic), then removed. */
export async function retire(dir: string) {
  const old = `${dir}.old`;
  await rename(dir, old).catch(() => {});
  await rm(old, { recursive: true, force: true });
  await rm(dir, { recursive: true, force: true });
}

/** The folder of release `folder`. */
export const releaseDir = (paths: ReleasePaths, folder: number) =>
  join(paths.releasesDir, String(folder));

/** The editing folder and its parts, readable by the site's user alone (drafts may hold anything). */
export async function makeEditingDirs(paths: ReleasePaths) {
  for (const dir of [paths.editingDir, paths.releasesDir, paths.buildsDir]) {
    privateFolder(dir);
    await chmod(dir, 0o700);
  }
}

/** The release the link names, if any (its folder's id). */
export async function currentFolder(paths: ReleasePaths): Promise<number | undefined> {
  try {
    const target = await readlink(paths.current);
    const id = Number(target.split('/').at(-1));
    return Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether release `folder` is on this disk, whole (a folder appears only once unpacked). */
export const hasRelease = (paths: ReleasePaths, folder: number) =>
  existsSync(join(releaseDir(paths, folder), 'server', 'entry.mjs'));

/**
 * Makes release `folder` the live one on this machine: a new link beside the old, renamed over
 * it (atomic), so that a process starting now finds one or the other, never none.
 */
export async function switchTo(paths: ReleasePaths, folder: number) {
  const link = `${paths.current}.${randomBytes(6).toString('hex')}`;
  await symlink(join('releases', String(folder)), link);
  await rename(link, paths.current);
}

const run = (command: string, args: string[], input?: Uint8Array) =>
  new Promise<Buffer>((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? reject(new Error(`${command}: ${String(stderr).trim() || error.message}`))
          : resolve(stdout),
    );
    if (input) child.stdin?.end(input);
  });

/** A release's folder as a gzipped tar, for the store. */
export const packRelease = (dir: string) =>
  run('tar', ['-czf', '-', '--exclude=./node_modules', '-C', dir, '.']);

/**
 * Puts a release's files (`tarball`) on this disk as release `folder`: unpacked beside, then
 * renamed into place, so that no one sees it half written.
 */
export async function unpackRelease(
  paths: ReleasePaths,
  folder: number,
  tarball: Uint8Array,
  nodeModules: string,
) {
  const incoming = join(paths.buildsDir, `incoming-${folder}-${randomBytes(6).toString('hex')}`);
  await mkdir(incoming, { recursive: true, mode: 0o700 });
  try {
    await run('tar', ['-xzf', '-', '-C', incoming], tarball);
    await placeRelease(paths, incoming, folder, nodeModules);
  } finally {
    await rm(incoming, { recursive: true, force: true });
  }
}

/**
 * Moves a built folder into place as release `folder`, with a link to the project's node_modules
 * (the server's code imports its packages, wherever EDITING_DIR is). Kept if already there; the
 * caller removes `built` if it is left.
 */
export async function placeRelease(
  paths: ReleasePaths,
  built: string,
  folder: number,
  nodeModules: string,
) {
  if (hasRelease(paths, folder)) return;
  await rm(join(built, 'node_modules'), { recursive: true, force: true });
  await symlink(nodeModules, join(built, 'node_modules'));
  await chmod(built, 0o700);
  // Another process of the machine may have placed it meanwhile (each follows the store): the
  // rename onto its folder fails, and that one, whole, is kept; never removed under a server.
  await rename(built, releaseDir(paths, folder)).catch((error: unknown) => {
    if (!hasRelease(paths, folder)) throw error;
  });
}

/** Removes the releases' folders not in `kept` (nor the live one), and builds left by a stop. */
export async function removeReleasesExcept(paths: ReleasePaths, kept: readonly number[]) {
  const live = await currentFolder(paths);
  for (const name of await readdir(paths.releasesDir).catch(() => [] as string[])) {
    const id = Number(name);
    if (!Number.isInteger(id) || id === live || kept.includes(id)) continue;
    await rm(join(paths.releasesDir, name), { recursive: true, force: true });
  }
}

/** How much a folder holds on disk, in bytes (the page says how much the releases take). */
export async function folderSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await folderSize(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}
