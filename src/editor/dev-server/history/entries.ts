/**
 * The editor's entries as the History pages (./route.ts) name them: an address under
 * /keystatic/history or a content file, read as the collection or singleton of the editor's schema
 * (../../schema.ts) it belongs to, with its label, its places in the editor and its file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import editorConfig from '../../schema.ts';
import { HISTORY_BASE } from '../../routes.ts';
import type { ContentHistory } from './content-history.ts';

const EXTENSIONS = ['.mdx', '.mdoc', '.md', '.yaml', '.yml', '.json'];

type Config = {
  collections?: Record<string, { label: string; path?: string }>;
  singletons?: Record<string, { label: string; path?: string }>;
};
export const { collections = {}, singletons = {} } = editorConfig as unknown as Config;

/** An entry of the editor: where the editor shows it, and its file. */
export interface Entry {
  label: string;
  editorUrl: string;
  historyUrl: string;
  /** Its file without the extension ('src/content/services/iphone'). */
  stem: string;
}

/** The entry of a History address's path ('collection/services/item/ipad', 'singleton/portfolio'). */
export function entryOfPath(path: string): Entry | undefined {
  const [kind, name = '', item, slug = ''] = path.split('/');
  if (kind === 'collection' && item === 'item' && Object.hasOwn(collections, name)) {
    const collection = collections[name]!;
    if (!/^[a-z0-9-]+$/.test(slug) || !collection.path?.endsWith('*')) return undefined;
    return {
      label: `${collection.label} → ${slug}`,
      editorUrl: `/keystatic/collection/${name}/item/${slug}`,
      historyUrl: `${HISTORY_BASE}/collection/${name}/item/${slug}`,
      stem: collection.path.replace('*', slug),
    };
  }
  if (kind === 'singleton' && item === undefined && Object.hasOwn(singletons, name)) {
    const singleton = singletons[name]!;
    if (!singleton.path) return undefined;
    return {
      label: singleton.label,
      editorUrl: `/keystatic/singleton/${name}`,
      historyUrl: `${HISTORY_BASE}/singleton/${name}`,
      stem: singleton.path,
    };
  }
  return undefined;
}

/** The editor's entry a content file is, if it is one. */
export function entryOfFile(file: string): Entry | undefined {
  const stem = file.replace(/\.[^./]+$/, '');
  for (const [name, singleton] of Object.entries(singletons))
    if (singleton.path === stem) return entryOfPath(`singleton/${name}`);
  for (const [name, collection] of Object.entries(collections)) {
    const prefix = collection.path?.replace(/\*$/, '');
    if (prefix && stem.startsWith(prefix) && !stem.slice(prefix.length).includes('/'))
      return entryOfPath(`collection/${name}/item/${stem.slice(prefix.length)}`);
  }
  return undefined;
}

/** How a content file is named to staff: its entry's label, else its path. */
export const labelOf = (file: string) => entryOfFile(file)?.label ?? file;

/** The entry's file: on disk, else the one its history knows. */
export async function fileOf(entry: Entry, history: ContentHistory): Promise<string | undefined> {
  for (const extension of EXTENSIONS)
    if (existsSync(join(history.root, entry.stem + extension))) return entry.stem + extension;
  for (const extension of EXTENSIONS)
    if ((await history.versions(entry.stem + extension, 1)).length) return entry.stem + extension;
  return undefined;
}

/**
 * A service page's older version keeps the address the page has now: the address moves only by
 * a rename in the editor, which also redirects the old one (./recorder.ts).
 */
const keepAddress = (older: string, now: string) => {
  const slug = /^slug:.*$/m.exec(now)?.[0];
  return slug ? older.replace(/^slug:.*$/m, () => slug) : older;
};
export const adjustFor = (file: string) =>
  file.startsWith('src/content/services/') ? keepAddress : undefined;
