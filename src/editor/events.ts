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

/** What a refused Save sends on `document`: its `detail` is the entry's values (Keystatic's). */
export const SAVE_REFUSED_EVENT = 'editor:save-refused';
/** What Reset changes sends on `document`. */
export const RESET_EVENT = 'editor:reset';
/** What a Save that wrote the entry sends on `document`. */
export const SAVED_EVENT = 'editor:saved';
