/**
 * What the History's pages about deleted entries (./pages/) are given to show, as
 * ./deleted-pages.ts reads it from the history: the shapes alone, so that the pages and the code
 * that reads for them import each other's nothing.
 */
import type { RedirectChange } from './bring-back.ts';
import type { DeletedEntry } from './content-history.ts';

/** A deleted entry as the pages show it: its name, its label and address then. */
export interface ShownDeleted extends DeletedEntry {
  label: string;
  /** Its name (a service page's title), from its text before it went. */
  title?: string;
  /** A service page's address then. */
  address?: string;
  /** Who deleted it, in History's words: "deleted by Erin Editor", "deleted by a developer". */
  deletion: string;
}

/** An entry as it is now, named as the pages name it. */
export interface ShownEntry {
  label: string;
  title?: string;
  address?: string;
}

/** Files that link somewhere, each named as the pages name it, with how many links. */
export type ShownLinks = { file: string; label: string; links: number }[];

/** What a bring-back did: what came back, where, its redirects, and the links to offer back. */
export interface BroughtNotice {
  /** The save that brought it back. */
  commit: string;
  label: string;
  title?: string;
  editorUrl: string;
  address?: string;
  /** Its own address, when another page has it now (`takenBy`). */
  ownAddress?: string;
  takenBy?: ShownEntry;
  redirects: RedirectChange[];
  links: ShownLinks;
}

/** The links a post pointed back at a page brought back: where they lead, from which entries. */
export interface LinkedBackNotice {
  to: string;
  entries: string[];
}
