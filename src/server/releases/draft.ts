/**
 * The draft: `<editingDir>/draft`, a git worktree of the site's repository (the one `npm run serve`
 * runs from), detached at the commit it was started from, whose `src/content/**` and
 * `src/assets/**` the editor writes. Its changes are what Publish commits: as the draft's own
 * commit on its starting point, brought onto the branch `published` (every publish, in order) by
 * git's merge, and onto the code deployed since, so that neither side loses the other's work.
 */
import { existsSync } from 'node:fs';
import { cp, readFile, realpath, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { EditingConfig } from '../config.ts';
import { privateFolder } from '../private-files.ts';
import { processWide } from '../process-wide.ts';
import { git, GitError, gitSucceeds } from './git.ts';
import {
  DEPLOYED_CODE_SUBJECT,
  DROPPED_DRAFTS,
  EDITOR_HISTORY_AUTHOR,
  EDITOR_HISTORY_REF,
} from '../../domain/editing.ts';

/** What of the repository the draft holds: the content and its images. */
export const CONTENT_PATHS = ['src/content', 'src/assets'] as const;

/** The branch every publish and roll back is committed to, in the site's repository. */
export const PUBLISHED_BRANCH = 'published';

type Folders = Pick<EditingConfig, 'draftDir' | 'repoDir' | 'editingDir'>;

export interface Author {
  name: string;
  email: string;
}

/**
 * Refused in the editor's words: the page says it as it is. `meanwhile`: a roll back refused as a
 * publish went live at that moment (the page offers to roll back again, not another release).
 * `clashes`: the content files both sides of a refused merge changed (Publishing names them).
 */
export const PublishRefused = processWide(
  'PublishRefused',
  () =>
    class PublishRefused extends Error {
      readonly meanwhile: boolean;
      readonly clashes: readonly string[];
      constructor(message: string, meanwhile = false, clashes: readonly string[] = []) {
        super(message);
        this.meanwhile = meanwhile;
        this.clashes = clashes;
      }
    },
);
export type PublishRefused = InstanceType<typeof PublishRefused>;

/** The commit the site's content goes on from: the last published, else what the server runs. */
export async function publishedTip(folders: Folders): Promise<string> {
  return (await publishedBase(folders)).tip;
}

/**
 * The published branch as it is now (`from`, '' before the first publish: what advancePublished
 * moves it from) and the commit the next one goes on (`tip`, publishedTip), read once.
 */
export async function publishedBase(folders: Folders): Promise<{ from: string; tip: string }> {
  const from = await publishedRef(folders);
  return { from, tip: from || (await git(['rev-parse', 'HEAD'], { cwd: folders.repoDir })) };
}

/** The published branch's commit, or '' before the first publish. */
export const publishedRef = ({ repoDir }: Folders) =>
  git(['rev-parse', '--verify', '-q', `refs/heads/${PUBLISHED_BRANCH}`], { cwd: repoDir }).catch(
    () => '',
  );

/**
 * The repository (its shared git folder) a worktree belongs to, read as git lays a worktree out
 * (gitrepository-layout): its `.git` file names its own folder in the repository, whose
 * `commondir` names the repository's. Two small reads where a git process, started from the
 * server's large memory map, costs more than them: every visit of Publishing asks. '' if the
 * folder is no worktree.
 */
async function worktreeRepository(dir: string): Promise<string> {
  try {
    const link = /^gitdir: (.+)$/m.exec(await readFile(join(dir, '.git'), 'utf8'))?.[1];
    if (!link) return '';
    const own = resolve(dir, link.trim());
    return await realpath(resolve(own, (await readFile(join(own, 'commondir'), 'utf8')).trim()));
  } catch {
    return '';
  }
}

/** The site's repository's git folder, asked of git once: it does not move while the process runs. */
const repositories = new Map<string, Promise<string>>();
function repository(repoDir: string): Promise<string> {
  let known = repositories.get(repoDir);
  if (!known) {
    known = git(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoDir })
      .then((dir) => realpath(dir))
      // Not kept: asked again next time.
      .catch(() => (repositories.delete(repoDir), ''));
    repositories.set(repoDir, known);
  }
  return known;
}

/**
 * The draft's folder, made from `from` (the live release's commit, else the last published) if it
 * is not there yet; moved onto the site's repository if it was made from another (a deploy of new
 * code is a new clone, whose `published` branch the deploy brought in), its changes kept.
 */
export async function ensureDraft(folders: Folders, from?: string): Promise<string> {
  // One at a time: the start's preparation and a first visit of Publishing would both make it.
  const previous = making;
  const mine = previous.then(() => makeDraft(folders, from));
  making = mine.catch(() => {});
  return mine;
}

let making: Promise<unknown> = Promise.resolve();

async function makeDraft(folders: Folders, from?: string): Promise<string> {
  const exists = existsSync(join(folders.draftDir, '.git'));
  if (exists) {
    const theirs = await worktreeRepository(folders.draftDir);
    if (theirs && theirs === (await repository(folders.repoDir))) return folders.draftDir;
  }
  privateFolder(folders.editingDir);
  const here =
    from && (await gitSucceeds(['cat-file', '-e', `${from}^{commit}`], { cwd: folders.repoDir }));
  const start = here ? from : await publishedTip(folders);
  if (exists) await moveDraft(folders, start);
  else await addDraft(folders, start);
  return folders.draftDir;
}

async function addDraft(folders: Folders, start: string) {
  await git(['worktree', 'prune'], { cwd: folders.repoDir });
  await git(['worktree', 'add', '--detach', folders.draftDir, start], { cwd: folders.repoDir });
}

/**
 * The paths the draft changed against where it started, by `git status`, which reads its old
 * repository without writing to it (an older release's, read-only under systemd); undefined if
 * that repository is gone.
 */
async function changedPaths(draftDir: string): Promise<string[] | undefined> {
  const present = CONTENT_PATHS.filter((path) => existsSync(join(draftDir, path)));
  const out = await git(
    ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...present],
    { cwd: draftDir, raw: true },
  ).catch(() => undefined);
  return out
    ?.split('\0')
    .filter(Boolean)
    .map((entry) => entry.slice(3));
}

/**
 * A draft of another repository made again from `start` in this one, with the files it changed
 * written over it (added, changed or removed); every content file if its repository is gone.
 */
async function moveDraft(folders: Folders, start: string) {
  const changed = await changedPaths(folders.draftDir);
  const kept = join(folders.editingDir, `moving-${randomBytes(6).toString('hex')}`);
  await cp(folders.draftDir, kept, { recursive: true, filter: (path) => !path.endsWith('/.git') });
  try {
    await rm(folders.draftDir, { recursive: true, force: true });
    await addDraft(folders, start);
    const paths = changed ?? CONTENT_PATHS.filter((path) => existsSync(join(kept, path)));
    for (const path of paths) {
      await rm(join(folders.draftDir, path), { recursive: true, force: true });
      if (existsSync(join(kept, path)))
        await cp(join(kept, path), join(folders.draftDir, path), { recursive: true });
    }
  } finally {
    await rm(kept, { recursive: true, force: true });
  }
}

/** The commit the draft started from. */
export const draftBase = ({ draftDir }: Folders) => git(['rev-parse', 'HEAD'], { cwd: draftDir });

/** The draft as a tree of git's: its starting point with its content as it is on disk. */
async function draftTree(folders: Folders): Promise<string> {
  const index = join(folders.editingDir, `index-${randomBytes(6).toString('hex')}`);
  const env = { GIT_INDEX_FILE: index };
  const cwd = folders.draftDir;
  try {
    await git(['read-tree', 'HEAD'], { cwd, env });
    // git refuses a path that matches nothing: a site without images yet has no src/assets.
    const present = CONTENT_PATHS.filter((path) => existsSync(join(cwd, path)));
    if (present.length) await git(['add', '-A', '--', ...present], { cwd, env });
    return await git(['write-tree'], { cwd, env });
  } finally {
    await rm(index, { force: true });
  }
}

/** A file the draft changes: git's status letter (A, M, D, R) and its path (and old path). */
export interface ChangedFile {
  status: 'A' | 'M' | 'D' | 'R';
  path: string;
  from?: string;
}

/** The files `to` changes against `from` (commits or trees), within the content. */
export async function changedFiles(cwd: string, from: string, to: string): Promise<ChangedFile[]> {
  const out = await git(
    ['diff-tree', '-r', '-M', '--name-status', '-z', from, to, '--', ...CONTENT_PATHS],
    {
      cwd,
    },
  );
  const parts = out.split('\0').filter(Boolean);
  const files: ChangedFile[] = [];
  for (let i = 0; i < parts.length;) {
    const status = parts[i++]![0] as ChangedFile['status'];
    if (status === 'R') files.push({ status, from: parts[i++]!, path: parts[i++]! });
    else files.push({ status: status === 'A' || status === 'D' ? status : 'M', path: parts[i++]! });
  }
  return files;
}

/** What the draft changes against where it started from, and that starting point. */
export async function draftChanges(folders: Folders) {
  await ensureDraft(folders);
  const base = await draftBase(folders);
  const tree = await draftTree(folders);
  return { base, tree, files: await changedFiles(folders.draftDir, base, tree) };
}

const authorEnv = (author: Author): Record<string, string> => ({
  GIT_AUTHOR_NAME: author.name,
  GIT_AUTHOR_EMAIL: author.email,
  GIT_COMMITTER_NAME: author.name,
  GIT_COMMITTER_EMAIL: author.email,
});

/** A commit of `tree` on `parents`, by `author`. */
export const commitTree = (
  cwd: string,
  tree: string,
  parents: string[],
  author: Author,
  message: string,
) =>
  git(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], {
    cwd,
    env: authorEnv(author),
    input: message,
  });

/**
 * git's merge of two commits, as a tree; refused in words if both changed the same lines, with the
 * files they clash in (git lists them after the tree, up to a blank line).
 */
async function mergedTree(cwd: string, ours: string, theirs: string, conflict: string) {
  const out = await git(['merge-tree', '--write-tree', '--name-only', ours, theirs], {
    cwd,
  }).catch((error: unknown) => {
    const listed = error instanceof GitError ? error.stdout.split('\n') : [];
    const end = listed.indexOf('', 1);
    const clashes = [...new Set(listed.slice(1, end < 0 ? undefined : end))];
    throw new PublishRefused(conflict, false, clashes);
  });
  return out.split('\n')[0]!;
}

/**
 * The publish's commit: the draft's changes, by the member, on the last published commit; merged
 * with the code deployed since (the server's HEAD), if the published branch lacks it. Not yet on
 * the branch: that moves once its build is live (`advancePublished`).
 */
export async function commitDraft(folders: Folders, author: Author, message: string) {
  const draft = await draftChanges(folders);
  if (draft.files.length === 0)
    throw new PublishRefused(
      'There is nothing to publish: the draft is the same as the live site.',
    );
  const { commit } = await ontoLive(folders, draft, author, message);
  return { commit, base: draft.base, files: draft.files };
}

/**
 * What a publish of the draft would put live now, as a commit on no branch, made as a publish
 * makes its own (`ontoLive`): the draft's preview builds its content, so that after a roll back it
 * shows the draft's changes on what is live, not on what the draft began from. `onto`: the
 * published commit it was carried onto. PublishRefused, in the publish's words, where a publish
 * would be refused. The draft is read in its turn: never half moved by a publish carried across;
 * `read`, the draft as the caller read it (Publishing, which asks once per draft and live commit).
 */
export async function draftAsPublished(folders: Folders, read?: { base: string; tree: string }) {
  const draft = read ?? (await inDraftTurn(() => draftChanges(folders)));
  return ontoLive(folders, draft, DRAFT_AUTHOR, 'The draft as a publish would make it');
}

/** Refused where the draft and what went live since it began change the same lines. */
const CHANGED_LIVE =
  'The live site changed in the same text since your draft began (a publish, or a roll back). Press “Start again from the live site” on Publishing, then make your change in the editor again.';

/**
 * The draft (its tree on its starting point, `base`) as a commit by `author` on the last published
 * commit (`onto`, publishedTip): git's merge, if that moved since the draft began; then merged with the code
 * deployed since (the server's HEAD), if the published branch lacks it.
 */
async function ontoLive(
  folders: Folders,
  { base, tree }: { base: string; tree: string },
  author: Author,
  message: string,
) {
  const cwd = folders.repoDir;
  const own = await commitTree(cwd, tree, [base], author, message);
  const tip = await publishedTip(folders);
  const onTip =
    tip === base
      ? own
      : await commitTree(
          cwd,
          await mergedTree(cwd, tip, own, CHANGED_LIVE),
          [tip],
          author,
          message,
        );
  const head = await git(['rev-parse', 'HEAD'], { cwd });
  if (await gitSucceeds(['merge-base', '--is-ancestor', head, onTip], { cwd }))
    return { commit: onTip, onto: tip };
  const tree2 = await mergedTree(
    cwd,
    onTip,
    head,
    'The code deployed since the last publish changes the same content: a developer must merge the branch "published" first (docs/publishing.md).',
  );
  const merged = await commitTree(
    cwd,
    tree2,
    [onTip, head],
    author,
    `${DEPLOYED_CODE_SUBJECT}\n\n${message}`,
  );
  return { commit: merged, onto: tip };
}

/**
 * Writes the content (CONTENT_PATHS) of `commit` into the folder `dir`, as a checkout of it holds
 * it: only what git tracks, never a file the draft's git ignores.
 */
export async function writeContent(folders: Folders, commit: string, dir: string) {
  const index = join(folders.editingDir, `index-${randomBytes(6).toString('hex')}`);
  const options = { cwd: folders.repoDir, env: { GIT_INDEX_FILE: index } };
  try {
    await git(['read-tree', commit], options);
    const files = await git(['ls-files', '-z', '--', ...CONTENT_PATHS], { ...options, raw: true });
    await git(['checkout-index', '-f', '-z', '--stdin', `--prefix=${dir}/`], {
      ...options,
      input: files,
    });
  } finally {
    await rm(index, { force: true });
  }
}

/**
 * The commit to put on the published branch once `commit` is live: itself, or, if the branch moved
 * while it was built (a roll back meanwhile), the same content by the same author on the branch's
 * new `tip` (publishedBase), so that the branch keeps every commit (the later one is live).
 */
export async function ontoPublished(
  { repoDir: cwd }: Folders,
  commit: string,
  tip: string,
): Promise<string> {
  if (tip === commit || (await gitSucceeds(['merge-base', '--is-ancestor', tip, commit], { cwd })))
    return commit;
  const [name, email, tree, ...message] = (
    await git(['log', '-1', '--format=%an%n%ae%n%T%n%B', commit], { cwd })
  ).split('\n');
  return commitTree(cwd, tree!, [tip], { name: name!, email: email! }, message.join('\n'));
}

/**
 * Moves the published branch to `commit` (a publish gone live, or a roll back) from `from`, where
 * it was when `commit` was made on it (publishedRef): git refuses if it has moved since, for the
 * other of the two, whose commit would otherwise drop off the branch.
 */
export const advancePublished = ({ repoDir }: Folders, commit: string, from: string) =>
  git(['update-ref', '-m', 'publish', `refs/heads/${PUBLISHED_BRANCH}`, commit, from], {
    cwd: repoDir,
  });

/** The longest a write into the draft holds its turn: a helper that never answers holds no publish. */
const TURN_MS = 30_000;

/**
 * The draft's turns, one for the whole process (every build's copy of this module): an editor's
 * write (a Save, through ../staff/editing.ts) and a move of the draft's files (a publish carried
 * across, a start again) run one at a time, since a move reads the files and then writes over
 * them: a Save that came in between was written over, and lost.
 */
export function inDraftTurn<T>(work: () => Promise<T>): Promise<T> {
  const turns = processWide('draft-turns', () => ({ last: Promise.resolve() as Promise<unknown> }));
  const result = turns.last.then(work);
  const ended = result.then(
    () => {},
    () => {},
  );
  turns.last = turns.last.then(() =>
    Promise.race([ended, new Promise((done) => setTimeout(done, TURN_MS).unref())]),
  );
  return result;
}

/**
 * Moves the draft onto `commit` (a publish gone live), what it changed since its starting point
 * carried across by git's merge: the edits made while the publish was built stay edits, and what
 * went live (a roll back kept by the publish's merge, say) is the draft's too. False, the draft
 * left as it was, where the two change the same lines. In the draft's turn.
 */
export const carryDraftOnto = (folders: Folders, commit: string): Promise<boolean> =>
  inDraftTurn(() => carriedOnto(folders, commit));

async function carriedOnto(folders: Folders, commit: string): Promise<boolean> {
  if (!(await mergedIntoDraft(folders, commit))) return false;
  await git(['reset', '-q', commit], { cwd: folders.draftDir });
  return true;
}

/**
 * The draft's files made git's merge of the draft (as a commit on its starting point) and
 * `other`: what each changed since they parted, both kept. False, the files left as they were,
 * where the two change the same lines.
 */
async function mergedIntoDraft(folders: Folders, other: string): Promise<boolean> {
  const cwd = folders.draftDir;
  const base = await draftBase(folders);
  const tree = await draftTree(folders);
  const draft = await commitTree(folders.repoDir, tree, [base], DRAFT_AUTHOR, 'The draft');
  const merged = await git(['merge-tree', '--write-tree', other, draft], {
    cwd: folders.repoDir,
  }).then(
    (out) => out.split('\n')[0]!,
    () => undefined,
  );
  if (!merged) return false;
  const out = await git(['diff-tree', '-r', '--no-renames', '--name-status', '-z', tree, merged], {
    cwd,
    raw: true,
  });
  const parts = out.split('\0').filter(Boolean);
  const written: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    if (parts[i] === 'D') await rm(join(cwd, parts[i + 1]!), { force: true });
    else written.push(parts[i + 1]!);
  }
  const index = join(folders.editingDir, `index-${randomBytes(6).toString('hex')}`);
  try {
    await git(['read-tree', merged], { cwd, env: { GIT_INDEX_FILE: index } });
    if (written.length)
      await git(['checkout-index', '-f', '--', ...written], {
        cwd,
        env: { GIT_INDEX_FILE: index },
      });
  } finally {
    await rm(index, { force: true });
  }
  return true;
}

/** The author of the draft's commit that `carryDraftOnto` merges: never on a branch. */
const DRAFT_AUTHOR: Author = { name: 'Draft', email: 'draft@localhost' };

/**
 * Starts the draft again from `commit` (what is live): its changes are dropped unless `keep`,
 * where the draft moves onto `commit` with the files as they are (a publish of that very draft).
 * In the draft's turn.
 */
export const restartDraft = (folders: Folders, commit: string, keep = false) =>
  inDraftTurn(() => restarted(folders, commit, keep));

async function restarted(folders: Folders, commit: string, keep: boolean) {
  await ensureDraft(folders, commit);
  const cwd = folders.draftDir;
  if (keep) await git(['reset', '-q', commit], { cwd });
  else {
    await git(['reset', '-q', '--hard', commit], { cwd });
    await git(
      ['clean', '-q', '-fd', '--', ...CONTENT_PATHS.filter((p) => existsSync(join(cwd, p)))],
      { cwd },
    );
  }
}

/**
 * Moves a draft that changes nothing onto `commit` (what is live): a roll back, or a publish its
 * carrying across could not follow, has nothing of the draft's to lose. In the draft's turn, so a
 * Save that came first is not dropped. Whether it moved.
 */
export const followLive = (folders: Folders, commit: string): Promise<boolean> =>
  inDraftTurn(async () => {
    const { base, files } = await draftChanges(folders);
    if (files.length > 0 || base === commit) return false;
    await restarted(folders, commit, false);
    return true;
  });

/** A draft dropped by Start again, kept (DROPPED_DRAFTS): who dropped it, when, and what it held. */
export interface DroppedDraft {
  /** Its name under DROPPED_DRAFTS: the time in ms, and a few letters of its own. */
  id: string;
  by: string;
  at: number;
  /** Its changes, a line each, as Start again's commit names them. */
  summary: string;
}

const DROPPED_ID = /^[0-9]{13}-[0-9a-f]{6}$/;

/**
 * Starts the draft again from `commit` (what is live), its changes kept first as a commit of their
 * own on its starting point (`author`, `message`: what it held) under DROPPED_DRAFTS, so they can be
 * brought back. Only the draft that was shown (`seen`, its tree): a Save since, and nothing is
 * dropped (false). In the draft's turn.
 */
export const startAgain = (
  folders: Folders,
  commit: string,
  { seen, author, message, at }: { seen: string; author: Author; message: string; at: number },
): Promise<boolean> =>
  inDraftTurn(async () => {
    const { base, tree, files } = await draftChanges(folders);
    if (tree !== seen) return false;
    if (files.length > 0) {
      const kept = await commitTree(folders.repoDir, tree, [base], author, message);
      const id = `${at}-${randomBytes(3).toString('hex')}`;
      await git(['update-ref', `${DROPPED_DRAFTS}${id}`, kept], { cwd: folders.repoDir });
    }
    await restarted(folders, commit, false);
    return true;
  });

/** The drafts Start again dropped, newest first, at most `count`. */
export async function droppedDrafts(folders: Folders, count: number): Promise<DroppedDraft[]> {
  const out = await git(
    [
      'for-each-ref',
      '--sort=-refname',
      `--count=${count}`,
      '--format=%(refname)%00%(authorname)%00%(contents:body)%01',
      DROPPED_DRAFTS,
    ],
    { cwd: folders.repoDir, raw: true },
  );
  return out.split('\x01').flatMap((record) => {
    const [ref, by, summary] = record.replace(/^\n/, '').split('\0');
    const id = ref?.slice(DROPPED_DRAFTS.length) ?? '';
    if (!ref?.startsWith(DROPPED_DRAFTS) || !DROPPED_ID.test(id)) return [];
    return [{ id, by: by ?? '', at: Number(id.split('-')[0]), summary: (summary ?? '').trim() }];
  });
}

/**
 * Brings a dropped draft's changes (`id`, of droppedDrafts) back into the draft, by git's merge
 * with what it holds now; kept no longer once back. False, nothing changed, where they and the
 * draft (or what went live since) change the same lines; undefined for a name never kept.
 */
export const bringBackDropped = (folders: Folders, id: string): Promise<boolean | undefined> =>
  inDraftTurn(async () => {
    if (!DROPPED_ID.test(id)) return undefined;
    const ref = `${DROPPED_DRAFTS}${id}`;
    const cwd = folders.repoDir;
    if (!(await gitSucceeds(['rev-parse', '--verify', '-q', `${ref}^{commit}`], { cwd })))
      return undefined;
    if (!(await mergedIntoDraft(folders, ref))) return false;
    await git(['update-ref', '-d', ref], { cwd });
    return true;
  });

/**
 * Who saved each file the draft changes since it began on `base`: the authors of the editor's
 * History (EDITOR_HISTORY_REF, the draft's git) since it took that commit in, oldest first, the
 * editor's own records (changes made outside it) left out. Empty where there is no History.
 */
export async function draftSavers(folders: Folders, base: string): Promise<Map<string, string[]>> {
  const out = await git(
    [
      'log',
      '--first-parent',
      '--ancestry-path',
      '--diff-merges=first-parent',
      '--name-only',
      '-z',
      '--format=%x01%an%x00%ae',
      `${base}..${EDITOR_HISTORY_REF}`,
      '--',
      ...CONTENT_PATHS,
    ],
    { cwd: folders.draftDir, raw: true },
  ).catch(() => '');
  const savers = new Map<string, string[]>();
  for (const save of out.split('\x01').reverse()) {
    const [name, email, ...paths] = save.split('\0').map((part) => part.trim());
    if (!name || email === EDITOR_HISTORY_AUTHOR.email) continue;
    for (const path of paths.filter(Boolean)) {
      const names = savers.get(path) ?? [];
      if (!names.includes(name)) savers.set(path, [...names, name]);
    }
  }
  return savers;
}
