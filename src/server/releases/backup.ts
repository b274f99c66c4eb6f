/**
 * What `npm run backup` keeps of publishing, beside the store's backup (whose `releases` rows hold
 * every kept release's files): `<backup>.editing.tar.gz`, with the draft's content as it is on disk
 * (`draft/src/content`, `draft/src/assets`), the commit it started from (`draft-base`), and the
 * branch `published` as a git bundle (every publish's commit, which lives only in the site's
 * repository until a developer fetches it). `npm run restore` puts them back.
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EditingConfig } from '../config.ts';
import { privateFile, privateFolder } from '../private-files.ts';
import { writeBackup } from '../store/sqlite-backup.ts';
import { CONTENT_PATHS, PUBLISHED_BRANCH, ensureDraft, restartDraft } from './draft.ts';
import { git, gitSucceeds } from './git.ts';

const run = promisify(execFile);

/** The editing backup's file beside a store backup's. */
export const editingBackupOf = (storeBackup: string) => `${storeBackup}.editing.tar.gz`;

/** Writes the editing backup beside `storeBackup`; its name, or undefined if there is no draft yet. */
export async function backupEditing(config: EditingConfig, storeBackup: string) {
  if (!existsSync(join(config.draftDir, '.git'))) return undefined;
  const work = await mkdtemp(join(config.editingDir, 'backup-'));
  try {
    for (const path of CONTENT_PATHS)
      if (existsSync(join(config.draftDir, path)))
        await cp(join(config.draftDir, path), join(work, 'draft', path), { recursive: true });
    await writeFile(
      join(work, 'draft-base'),
      await git(['rev-parse', 'HEAD'], { cwd: config.draftDir }),
    );
    const ref = `refs/heads/${PUBLISHED_BRANCH}`;
    if (await gitSucceeds(['rev-parse', '--verify', '-q', ref], { cwd: config.repoDir }))
      await git(['bundle', 'create', join(work, 'published.bundle'), ref], { cwd: config.repoDir });
    // Under a partial name, 0600 before tar writes into it, then linked to its own, which is refused
    // if taken: a file or link someone else left there is neither written through nor trusted.
    const file = editingBackupOf(storeBackup);
    await writeBackup(file, async (partial) => {
      privateFile(partial);
      await run('tar', ['-czf', partial, '-C', work, '.']);
    });
    return file;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Why the editing backup beside `storeBackup` is not to be put back, or undefined (none there, or
 * one to trust): it must be a file of the store backup's owner that no one else may write, since
 * it is found by its name alone, and its branch becomes what the next deploy builds.
 */
export function editingBackupProblem(storeBackup: string): string | undefined {
  const file = editingBackupOf(storeBackup);
  const found = lstatSync(file, { throwIfNoEntry: false });
  if (!found) return undefined;
  const owner = lstatSync(storeBackup, { throwIfNoEntry: false })?.uid ?? process.getuid?.();
  if (!found.isFile())
    return `${file} is not a file (a link?): remove it, or put the backup's own there.`;
  if (found.uid !== owner || found.mode & 0o022)
    return `${file} is not the backup's own (another owner, or others may write it): remove it, or put the backup's own there.`;
  return undefined;
}

/** Anything in `dir` but folders and plain files (a link would lead out of the draft), by its path. */
function notPlain(dir: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (!entry.isFile() && !entry.isDirectory()) return join(entry.parentPath, entry.name);
  return undefined;
}

/**
 * Puts an editing backup back: the published branch fetched into the site's repository, the
 * draft made again from its starting commit, with its content as it was backed up.
 */
export async function restoreEditing(config: EditingConfig, storeBackup: string) {
  const file = editingBackupOf(storeBackup);
  if (!existsSync(file)) return undefined;
  const problem = editingBackupProblem(storeBackup);
  if (problem) throw new Error(problem);
  privateFolder(config.editingDir);
  const work = await mkdtemp(join(config.editingDir, 'restore-'));
  try {
    await run('tar', ['-xzf', file, '-C', work, '--no-same-owner', '--no-same-permissions']);
    const odd = existsSync(join(work, 'draft')) ? notPlain(join(work, 'draft')) : undefined;
    if (odd)
      throw new Error(`${file} holds ${odd.slice(work.length + 1)}, neither a file nor a folder.`);
    const bundle = join(work, 'published.bundle');
    const ref = `refs/heads/${PUBLISHED_BRANCH}`;
    if (existsSync(bundle))
      await git(['fetch', '-q', '--update-head-ok', bundle, `+${ref}:${ref}`], {
        cwd: config.repoDir,
      });
    const base = (await readFile(join(work, 'draft-base'), 'utf8')).trim();
    await ensureDraft(config, base);
    await restartDraft(config, base);
    for (const path of CONTENT_PATHS) {
      if (!existsSync(join(work, 'draft', path))) continue;
      await rm(join(config.draftDir, path), { recursive: true, force: true });
      await cp(join(work, 'draft', path), join(config.draftDir, path), { recursive: true });
    }
    return file;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
