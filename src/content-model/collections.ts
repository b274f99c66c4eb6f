/**
 * Where the content's entries are kept, declared once for the site's loaders (src/content.config.ts),
 * the editor's collections and singletons (src/editor/schema.ts) and the reference
 * (./reference.ts): a folder of files, an entry each, or a YAML file of a list of entries.
 */
import type { Fields, Shape, Words } from './fields.ts';

/** The files of one folder, an entry each (a service page; a page's copy). */
export interface FolderModel<Of extends Fields = Fields> {
  kind: 'folder';
  /** Its name in the editor. */
  label: string;
  /** From the project's root: 'src/content/services'. */
  folder: string;
  extension: 'mdx' | 'yaml';
  /**
   * The entry's name in the editor when no field holds it: its file's name, which is not written
   * into the file (a page's copy: "about"). Otherwise the field of kind `pageAddress` is the name.
   */
  named?: Words;
  fields: Of;
}

/** A YAML file whose entries are under `entries:`, shown in the order of the file. */
export interface ListFileModel<Of extends Fields = Fields, Ids extends boolean = boolean> {
  kind: 'listFile';
  /** Its name in the editor, and its list's. */
  label: string;
  /** From the project's root: 'src/content/data/testimonials.yaml'. */
  file: string;
  /** Under the list in the editor. */
  hint?: string;
  /** Whether each entry has its `id` (./shared.ts: `entryId`); otherwise a field names it. */
  ids: Ids;
  /** Whether a page of the site shows the file (the editor's Preview opens it). */
  preview: boolean;
  /**
   * Where the site shows the entries, in a marketer's words ("the About page's technologies"): how
   * the editor's dialogs name a link in them, rather than by the file.
   */
  shownAt?: string;
  fields: Of;
  /** An entry's row in the editor. (A method, so that a list file is a list file.) */
  itemLabel(entry: Shape<Of>): string;
}

export type CollectionModel = FolderModel | ListFileModel;

/** An entry as the site reads it: a list file's has its id. */
export type Entry<M> =
  M extends ListFileModel<infer Of, infer Ids>
    ? Ids extends true
      ? { id: string } & Shape<Of>
      : Shape<Of>
    : M extends FolderModel<infer Of>
      ? Shape<Of>
      : never;

export const folder = <const Of extends Fields>(model: Omit<FolderModel<Of>, 'kind'>) =>
  ({ kind: 'folder', ...model }) as FolderModel<Of>;

export const listFile = <const Of extends Fields, const Ids extends boolean = true>(
  model: Omit<ListFileModel<Of, Ids>, 'kind' | 'ids' | 'preview'> & {
    ids?: Ids;
    preview?: boolean;
  },
) => ({ kind: 'listFile', ids: true, preview: true, ...model }) as ListFileModel<Of, Ids>;
