/**
 * The names the editor's two halves share: what its dev server (./dev-server/) sends or writes into
 * Keystatic's code, and what the scripts in the browser (./browser/) listen for. A file of their
 * own, so that neither half imports the other.
 */

/** A save moved a page to another address, or deleted it, and a redirect was added: a `PageMove`. */
export const PAGE_MOVED_EVENT = 'editor:page-moved';

export interface PageMove {
  /** The page's address before, whose visitors are now sent to `to`. */
  from: string;
  to: string;
  /**
   * `moved`: the page is at `to` now; `deleted`: it went, and `to` is the page chosen for its
   * visitors; `created`: a new page at `to` (and `from`), told only if it took a redirect's place.
   */
  kind: 'moved' | 'deleted' | 'created';
  /** The page's name, as its entry has it. */
  title?: string;
  /** A redirect from `to` the move removed, as the page lives there now: where it sent visitors. */
  replaced?: { from: string; to: string };
}

/** The dev server's reload of a page of the dev site (./browser/site-reload.ts reloads). */
export const SITE_RELOAD_EVENT = 'editor:site-reload';
/** A page asks, once its connection is up, whether the site changed since the page was served. */
export const SITE_CHANGED_EVENT = 'editor:site-changed?';
/** The Server-Timing entry that tells a page which change of the site it was served after. */
export const SITE_VERSION_TIMING = 'editor-site-version';

/**
 * What a refused Save sends on `document`: its `detail` (SaveRefused) is the entry's values and, for
 * an entry of a collection, the other entries' addresses (Keystatic's).
 */
export const SAVE_REFUSED_EVENT = 'editor:save-refused';
/** What Reset changes sends on `document`. */
export const RESET_EVENT = 'editor:reset';
/** What a Save that wrote the entry sends on `document`. */
export const SAVED_EVENT = 'editor:saved';
/**
 * The words of the next Save's toast, when they are not "Saved “name”": a global function (of
 * Symbol.for this) the conflict view sets for one Save that kept the other version, so that the
 * toast does not say the marketer's changes were saved.
 */
export const SAVED_WORDS = 'editor:saved-words';

/**
 * The header of Keystatic's Save (as ./dev-server/keystatic-saves.ts rewrites it) that names the
 * version of each file the entry was opened at: JSON, a path → its git blob sha, or null for a
 * file that was not there. The dev server refuses a Save whose files have changed since
 * (./dev-server/save-check.ts).
 */
export const SAVE_BASE_HEADER = 'x-editor-base';

/** Who or what made a file what it is now, as the content's history recorded it. */
export type ChangeKind =
  | 'editor'
  | 'restore'
  | 'bring-back'
  | 'links'
  | 'redirect'
  | 'outside'
  | 'publish'
  | 'rollback'
  | 'developer';

/** A file a refused Save would have overwritten or deleted, though it changed since it was opened. */
export interface StaleFile {
  path: string;
  /** The version the editor opened (null: the file was not there). */
  expected: string | null;
  /** The version there now (null: there is none). */
  current: string | null;
  /** The text the editor opened, if the history has it. */
  base?: string;
  /** The text now. */
  theirs?: string;
  /**
   * Who or what changed it last, when (ms since the epoch), and what the history's note says; `by`,
   * the member who saved it, when one signed in did (the live site's editor).
   */
  change: { kind: ChangeKind; at: number; note?: string; movedTo?: string; by?: string };
}

/** The dev server's answer (409) to a Save made on a version of a file that is no longer there. */
export interface SaveRefusal {
  stale: StaleFile[];
}

/** A content file was written (a Save, a restore, links moved): the editor's tab follows. */
export const CONTENT_WRITTEN_EVENT = 'editor:content-written';

/**
 * Where Keystatic's shell, as rewritten, leaves the function that takes a tree of files the tab
 * fetched itself, so that the editor shows the files as the dev server has them now.
 */
export const KEYSTATIC_TREE = 'editor:keystatic-tree';

/**
 * Where the editor's tab leaves its drafts' store (../browser/tab-drafts.ts), which Keystatic's
 * `getDraft`, `setDraft` and `delDraft`, as rewritten, use instead of their one draft an entry.
 */
export const TAB_DRAFTS = 'editor:tab-drafts';
