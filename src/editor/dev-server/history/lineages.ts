/**
 * Which file is which entry, through the content's history (./content-history.ts): an entry is
 * followed from the save that added it, through its renames, to the save that deleted it, and on if
 * it was brought back. A path alone is not an entry: a page deleted at /zend stays deleted when
 * another page is renamed to `zend`, and that page's History is its own, not the deleted one's.
 *
 * The rules, applied to each save in order (the history's first parents, a straight line):
 * - a file git sees renamed (or, in an editor's Save, the one file gone and the one added) is the
 *   same entry under its new name;
 * - a deleted file's entry is gone, with the text it had;
 * - an added file is the entry a bring-back names (`Brought-back:` in the save), else a gone entry
 *   of that path whose very text comes back (a developer's checkout, a file put back by hand), else
 *   a new entry.
 */

/** A change of one file in a save, as `git log --raw` gives it. */
export interface LoggedChange {
  status: 'A' | 'M' | 'D' | 'R' | 'T';
  /** Its path after the save (for a deletion, the path it had). */
  file: string;
  /** Its path before: differs from `file` for a rename. */
  before: string;
  /** Its blob after the save (git's null id for a deletion) and before (null for an addition). */
  blob: string;
  oldBlob: string;
}

export interface LoggedSave {
  commit: string;
  savedAt: number;
  /** Its first line. */
  note: string;
  /** Who saved it: its commit's author. */
  by: { name: string; email: string };
  /** Whether the editor recorded it (else it is a commit of the project's own git history). */
  editor: boolean;
  /** What the save says to the editor beyond its note: `Key: value` lines (see `trailers`). */
  trailers: Trailer[];
  changes: LoggedChange[];
}

export interface Trailer {
  key: string;
  value: string;
}

/** One version of an entry: a save that added, changed, renamed or brought it back. */
export interface EntryVersion {
  commit: string;
  savedAt: number;
  note: string;
  by: { name: string; email: string };
  editor: boolean;
  file: string;
  blob: string;
}

/** Who deleted an entry: the deleting save's note, author, and whether the editor recorded it. */
export type DeletedBy = Pick<EntryVersion, 'note' | 'by' | 'editor'>;

export interface Lineage {
  /** Where it is now, or was when it went. */
  file: string;
  /** Oldest first. */
  versions: EntryVersion[];
  /**
   * The save that deleted it, while it is gone, with the blob it had then, and who deleted it (its
   * commit's note, author, and whether the editor recorded it, as a version has them).
   */
  deletion?: { commit: string; deletedAt: number; blob: string } & DeletedBy;
}

/** An editor's Save: its one file gone and one added are a page that moved, as ./recorder.ts reads it. */
export const EDITOR_SAVE_NOTE = 'Saved in the editor';

/** The trailer of a bring-back: `<commit that deleted it> <its file then> <its file now>`. */
export const BROUGHT_BACK = 'Brought-back';

/** The `Key: value` lines of a commit's body (git's trailers, read plainly). */
export function trailersOf(body: string): Trailer[] {
  return body.split('\n').flatMap((line) => {
    const found = /^([A-Z][A-Za-z-]*): (\S.*)$/.exec(line.trim());
    return found ? [{ key: found[1]!, value: found[2]! }] : [];
  });
}

/** The values of one trailer, each split at its spaces. */
export const valuesOf = (trailers: readonly Trailer[], key: string) =>
  trailers.filter((t) => t.key === key).map((t) => t.value.split(' '));

/** Follows each entry of a folder through its saves, oldest save first. */
export function walkLineages(saves: readonly LoggedSave[]) {
  const live = new Map<string, Lineage>();
  const gone: Lineage[] = [];
  for (const save of saves) {
    const version = (file: string, blob: string): EntryVersion => ({
      commit: save.commit,
      savedAt: save.savedAt,
      note: save.note,
      by: save.by,
      editor: save.editor,
      file,
      blob,
    });
    const changes = pairMove(save);
    for (const change of changes) {
      if (change.status === 'R' || change.status === 'M' || change.status === 'T') {
        const lineage = live.get(change.before) ?? { file: change.before, versions: [] };
        live.delete(change.before);
        lineage.file = change.file;
        lineage.versions.push(version(change.file, change.blob));
        live.set(change.file, lineage);
      } else if (change.status === 'D') {
        const lineage = live.get(change.file) ?? { file: change.file, versions: [] };
        live.delete(change.file);
        lineage.deletion = {
          commit: save.commit,
          deletedAt: save.savedAt,
          blob: change.oldBlob,
          note: save.note,
          by: save.by,
          editor: save.editor,
        };
        gone.push(lineage);
      }
    }
    // Additions last: a path a rename or a deletion emptied may be filled in the same save.
    for (const change of changes) {
      if (change.status !== 'A') continue;
      const back = cameBack(save, change, gone);
      const lineage = back ?? { file: change.file, versions: [] };
      if (back) {
        gone.splice(gone.indexOf(back), 1);
        delete back.deletion;
      }
      lineage.file = change.file;
      lineage.versions.push(version(change.file, change.blob));
      live.set(change.file, lineage);
    }
  }
  return { live, gone };
}

/**
 * A save's changes, with an editor's Save that took one file away and added one read as a rename
 * (git did not, as the page's text changed too much).
 */
function pairMove(save: LoggedSave): LoggedChange[] {
  const added = save.changes.filter((c) => c.status === 'A');
  const deleted = save.changes.filter((c) => c.status === 'D');
  if (save.note !== EDITOR_SAVE_NOTE || added.length !== 1 || deleted.length !== 1)
    return save.changes;
  const [to, from] = [added[0]!, deleted[0]!];
  return [
    ...save.changes.filter((c) => c !== to && c !== from),
    { status: 'R', file: to.file, before: from.file, blob: to.blob, oldBlob: from.oldBlob },
  ];
}

/** The gone entry an added file is: the one a bring-back names, else the one whose text it has. */
function cameBack(save: LoggedSave, change: LoggedChange, gone: readonly Lineage[]) {
  for (const [commit, file, to] of valuesOf(save.trailers, BROUGHT_BACK)) {
    if ((to ?? file) !== change.file) continue;
    const named = gone.find((l) => l.deletion?.commit === commit && l.file === file);
    if (named) return named;
  }
  return gone.findLast((l) => l.file === change.file && l.deletion?.blob === change.blob);
}
