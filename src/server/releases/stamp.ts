/**
 * What the draft and the site's branches are now, read without git: a stamp that changes whenever
 * what Publishing shows of them may have (a Save's files, the editor's History, a publish or a roll
 * back moving the draft or the branch `published`, a dropped draft kept or brought back, a deploy
 * moving the repository's HEAD). Publishing's page, followed every few seconds while a publish
 * builds, asks it rather than git's many processes (./publishing.ts `state`).
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { EditingConfig } from '../config.ts';
import { CONTENT_PATHS, PUBLISHED_BRANCH } from './draft.ts';
import { DROPPED_DRAFTS, EDITOR_HISTORY_REF } from '../../domain/editing.ts';

type Folders = Pick<EditingConfig, 'draftDir' | 'repoDir'>;

/** A folder's git folders, as git lays them out (gitrepository-layout): its own and the shared one. */
async function gitFolders(dir: string): Promise<{ own: string; common: string }> {
  const dotGit = join(dir, '.git');
  if ((await stat(dotGit)).isDirectory()) return { own: dotGit, common: await realpath(dotGit) };
  const link = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8'))?.[1];
  if (!link) throw new Error(`${dotGit} names no git folder`);
  const own = resolve(dir, link.trim());
  const common = await readFile(join(own, 'commondir'), 'utf8').then(
    (text) => resolve(own, text.trim()),
    () => own,
  );
  return { own, common: await realpath(common) };
}

/** A file's text, '' if it is not there (a ref that is packed, or not made yet). */
const textOf = (path: string) => readFile(path, 'utf8').catch(() => '');

/** Whatever marks a file's version: git replaces packed-refs by a rename, a Save writes anew. */
const versionOf = (path: string) =>
  stat(path, { bigint: true }).then(
    ({ ino, size, mtimeNs, ctimeNs }) => `${ino} ${size} ${mtimeNs} ${ctimeNs}`,
    () => '',
  );

/** A HEAD file and, if it names a branch, that branch's loose ref (a packed one: packed-refs' version). */
async function headOf(own: string, common: string) {
  const head = await textOf(join(own, 'HEAD'));
  const branch = /^ref: (refs\/\S+)/.exec(head)?.[1];
  return branch ? `${head} ${await textOf(join(common, branch))}` : head;
}

/**
 * Every file under the draft's content, with its version: what a Save writes (and .gitignore, which
 * says what of it git takes).
 */
async function contentFiles(draftDir: string) {
  const files = ['.gitignore'];
  for (const folder of CONTENT_PATHS) {
    const entries = await readdir(join(draftDir, folder), { recursive: true }).catch(() => []);
    files.push(...entries.sort().map((entry) => join(folder, entry)));
  }
  return Promise.all(
    files.map(async (file) => `${file}\0${await versionOf(join(draftDir, file))}`),
  );
}

/**
 * The stamp, a hash; undefined where it cannot be read so (no draft yet, a draft of another
 * repository, refs kept in a reftable): then only git can say, and the page is made anew.
 */
export async function draftStamp({ draftDir, repoDir }: Folders): Promise<string | undefined> {
  try {
    const draft = await gitFolders(draftDir);
    const repo = await gitFolders(repoDir);
    if (draft.common !== repo.common || (await versionOf(join(repo.common, 'reftable'))))
      return undefined;
    const { common } = repo;
    const dropped = await readdir(join(common, DROPPED_DRAFTS)).catch(() => []);
    const parts = [
      await headOf(draft.own, common),
      await headOf(repo.own, common),
      await textOf(join(common, 'refs/heads', PUBLISHED_BRANCH)),
      await textOf(join(common, EDITOR_HISTORY_REF)),
      dropped.sort().join(' '),
      await versionOf(join(common, 'packed-refs')),
      ...(await contentFiles(draftDir)),
    ];
    return createHash('sha256').update(parts.join('\n')).digest('hex');
  } catch {
    return undefined;
  }
}
