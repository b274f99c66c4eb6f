/**
 * A Save made on the version of the files the editor opened (`astro dev` only; ./save-check.ts
 * asks): Keystatic's local Save only says what to write, so two tabs, or two colleagues on one
 * server, each saving an entry opened at the same version, left only the second's change. This is
 * Keystatic's GitHub mode's idea (each commit names the commit it was made on) for the files of a
 * local Save: the editor's tab names the version of each file it opened (SAVE_BASE_HEADER, a git
 * blob sha, as Keystatic's own tree names files), and a file that changed since is not written.
 * The refusal says who or what changed it and when, from the content's history
 * (./history/content-history.ts), and holds both texts, for the tab to show them field by field.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChangeKind, SaveRefusal, StaleFile } from '../events.ts';
import { checkContentPath, type ContentHistory } from './history/content-history.ts';
import { noteKind, releaseKind, staffName } from './history/save-words.ts';

/** Keystatic's local Save: the files it writes (their bytes) and those it deletes. */
export interface Save {
  additions: { path: string; contents: Buffer }[];
  deletions: { path: string }[];
}

/** The version of each file a Save was made on: its git blob sha, null for no file. */
export type Base = Record<string, string | null>;

const SHA = /^[0-9a-f]{40}$/;

/** Whether a path is a content file as the history names them. */
const isContentPath = (path: unknown): path is string => {
  if (typeof path !== 'string') return false;
  try {
    checkContentPath(path);
    return true;
  } catch {
    return false;
  }
};

/** Keystatic's Save from its JSON body (contents in base64), or undefined if it is not one. */
export function readSave(body: unknown): Save | undefined {
  const { additions, deletions } = (body ?? {}) as Record<string, unknown>;
  if (!Array.isArray(additions) || !Array.isArray(deletions)) return undefined;
  const save: Save = { additions: [], deletions: [] };
  for (const addition of additions as { path?: unknown; contents?: unknown }[]) {
    if (!isContentPath(addition?.path) || typeof addition.contents !== 'string') return undefined;
    // Keystatic writes base64 (its server reads the URL-safe alphabet too).
    const contents = Buffer.from(addition.contents.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    save.additions.push({ path: addition.path, contents });
  }
  for (const deletion of deletions as { path?: unknown }[]) {
    if (!isContentPath(deletion?.path)) return undefined;
    save.deletions.push({ path: deletion.path });
  }
  return save;
}

/** The base a Save names in its header, or undefined if it names none or not in this form. */
export function readBase(header: string | null): Base | undefined {
  if (!header) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const base: Base = Object.create(null);
  for (const [path, sha] of Object.entries(value)) {
    if (!isContentPath(path) || (sha !== null && !(typeof sha === 'string' && SHA.test(sha))))
      return undefined;
    base[path] = sha;
  }
  return base;
}

/** The blob sha git gives these bytes (Keystatic's tree names files by it too). */
export const blobSha = (bytes: Uint8Array) =>
  createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/** The blob sha of a file as it is now; null if there is none (a folder is not a file). */
async function currentSha(root: string, path: string): Promise<string | null> {
  try {
    return blobSha(await readFile(join(root, path)));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * The files a Save would overwrite or delete that are not the version it was made on: a file it
 * writes or deletes that its base does not name was not there when the entry was opened (a new
 * entry, a rename's new file). A file already as the Save would leave it is not stale.
 */
export async function staleFiles(root: string, save: Save, base: Base) {
  const written = new Map(save.additions.map(({ path, contents }) => [path, blobSha(contents)]));
  const paths = new Set([...written.keys(), ...save.deletions.map(({ path }) => path)]);
  const stale: Pick<StaleFile, 'path' | 'expected' | 'current'>[] = [];
  for (const path of paths) {
    const expected = Object.hasOwn(base, path) ? base[path]! : null;
    const current = await currentSha(root, path);
    const after = written.get(path) ?? null;
    if (current !== expected && current !== after) stale.push({ path, expected, current });
  }
  return stale;
}

/**
 * What changed a file, from the note its save left in the history: History's own reading of the
 * notes (./history/save-words.ts); a note that is none of the editor's is a publish's or a roll
 * back's of the live site, or a developer's commit.
 */
export function changeKind(note: string): ChangeKind {
  const kind = noteKind(note);
  switch (kind) {
    case 'save':
      return 'editor';
    case 'found':
    case 'outside':
      return 'outside';
    case undefined:
      return releaseKind(note) ?? 'developer';
    default:
      return kind;
  }
}

/**
 * Each stale file as the tab shows it: the text it was opened at and the text now, and who or what
 * made it what it is now and when. A change the history has not recorded yet (a file saved by
 * hand a moment ago) is a change made outside the editor, at the file's time.
 */
export async function describeStale(
  history: ContentHistory,
  stale: Pick<StaleFile, 'path' | 'expected' | 'current'>[],
): Promise<StaleFile[]> {
  // A save whose files were written a moment ago is recorded first (from within the refused Save:
  // not waiting for the Saves under way, this one among them).
  await history.flush({ withinSave: true });
  return Promise.all(
    stale.map(async ({ path, expected, current }) => {
      const last = await history.lastChange(path);
      const file = join(history.root, path);
      const recorded = last && (last.blob ?? null) === current;
      const change: StaleFile['change'] = recorded
        ? {
            kind: changeKind(last.note),
            at: last.savedAt,
            note: last.note,
            ...(staffName(last) && { by: staffName(last) }),
          }
        : { kind: 'outside', at: (await stat(file).catch(() => undefined))?.mtimeMs ?? Date.now() };
      if (recorded && current === null) {
        // Gone: renamed, perhaps, in that same save.
        const changes = await history.changesIn(last.commit, 'src/content');
        const moved = changes.find((c) => c.status === 'R' && c.before === path);
        if (moved) change.movedTo = moved.file;
      }
      return {
        path,
        expected,
        current,
        base: expected ? await history.blobText(expected) : undefined,
        theirs: current ? await readFile(file, 'utf8') : undefined,
        change,
      };
    }),
  );
}

/**
 * A Save checked against the version it was made on and, if no file it writes changed since,
 * written (`write`, Keystatic's own handler), as one step of the content's history: of two Saves
 * made on one version, the second finds the first's files. Resolves with what `write` answered, or
 * with the refusal: the stale files, described.
 */
export async function checkedSave<T>(
  history: ContentHistory,
  save: Save,
  base: Base,
  write: () => Promise<T>,
): Promise<{ written: T } | { refused: SaveRefusal }> {
  let written: { value: T } | undefined;
  const stale = await history.exclusive(async () => {
    const found = await staleFiles(history.root, save, base);
    if (!found.length) written = { value: await history.savedWhole(write) };
    return found;
  });
  if (written) return { written: written.value };
  // Described once the step is over: the history may record meanwhile.
  return { refused: { stale: await describeStale(history, stale) } };
}
