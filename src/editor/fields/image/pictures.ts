/**
 * Each image folder's pictures as the editor's fields know them: those the editor's schema found
 * (src/editor/schema.ts globs them), plus those uploaded, less those removed since the editor was
 * opened. Every field of a folder reads them; a page loaded later reads the folder itself again.
 * The uploads no Save has named yet are asked of the dev server as the editor opens: a draft
 * restored from an earlier visit (a tab closed before Save) may name one.
 */
import type { AssetFolder } from '../../../domain/images.ts';
import { pendingUploads } from './endpoint.ts';

/** A folder's pictures by name: where the dev server shows each. */
export type FolderPictures = Readonly<Record<string, string>>;

/** What changed in each folder since the editor was opened: pictures uploaded, and removed. */
export const changes: Record<AssetFolder, { added: FolderPictures; removed: ReadonlySet<string> }> =
  {
    icons: { added: {}, removed: new Set() },
    illustrations: { added: {}, removed: new Set() },
    portfolio: { added: {}, removed: new Set() },
    logos: { added: {}, removed: new Set() },
  };
const listeners = new Set<() => void>();
export const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** A picture added to the folder (with its address), or removed from it (without). */
export function change(folder: AssetFolder, name: string, url?: string) {
  const { added, removed } = changes[folder];
  const left = new Set(removed);
  const now = { ...added };
  if (url) {
    now[name] = url;
    left.delete(name);
  } else {
    delete now[name];
    left.add(name);
  }
  changes[folder] = { added: now, removed: left };
  for (const listener of listeners) listener();
}

let askedForPending = false;
/** The uploads still pending, from an earlier visit or another tab: offered as this tab's own. */
async function addPending() {
  askedForPending = true;
  for (const { folder, name, url } of await pendingUploads())
    if (!(name in changes[folder].added) && !changes[folder].removed.has(name))
      change(folder, name, url);
}

/** The folder's pictures as they are now: those of the schema, plus uploads, less removals. */
export function current(folder: AssetFolder, pictures: FolderPictures): FolderPictures {
  if (!askedForPending && typeof document !== 'undefined') void addPending();
  const { added, removed } = changes[folder];
  return Object.fromEntries(
    Object.entries({ ...pictures, ...added })
      .filter(([name]) => !removed.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** Whether a name is one of the folder's pictures, those uploaded since the editor was opened included. */
export const isKnownImage = (folder: AssetFolder, pictures: FolderPictures, name: string) =>
  name in current(folder, pictures);
