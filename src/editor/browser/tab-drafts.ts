/**
 * In the editor's own tab (./drafts.ts imports it): Keystatic's drafts, the unsaved changes it keeps
 * in this browser (IndexedDB `keystatic` / `items`), kept per tab as well as per entry.
 *
 * Keystatic keeps one draft an entry (['collection', name, slug], ['singleton', name] …), which
 * every tab of the browser wrote at each change: of two tabs on one page, the one typed in last
 * overwrote what the other kept, and a reload of the other brought back the wrong changes. Its
 * `getDraft`, `setDraft` and `delDraft`, rewritten (../dev-server/keystatic-saves.ts), now come
 * here (TAB_DRAFTS):
 * - a tab writes and removes only its own draft, the entry's key and the tab's
 *   (`[...key, 'tab:<id>']`, the id kept in sessionStorage, so that a reload is the same tab);
 * - a tab with no draft of its own (a new tab, a tab opened after one was closed with changes)
 *   restores the newest of the entry's; a closed tab's it takes over (else it would come back
 *   again once this one is saved), an open tab's it copies (that tab still has it open).
 * A draft moves with a page a colleague renamed in one transaction (`moveDrafts`), so that no move
 * overwrites or removes a draft written after it looked.
 */
import { createStore, del, get, set } from 'idb-keyval';
import { TAB_DRAFTS } from '../events.ts';

type Key = readonly IDBValidKey[];
interface Stored {
  savedAt?: unknown;
}

/** Keystatic's store, opened when first asked for (a window may refuse IndexedDB). */
let opened: ReturnType<typeof createStore> | undefined;
const store: ReturnType<typeof createStore> = (mode, callback) =>
  (opened ??= createStore('keystatic', 'items'))(mode, callback);
const TAB = 'tab:';

const LOCK = 'editor-tab:';
const TAB_KEY = 'editor-tab';
/** How long a reloaded tab waits for its id's lock, which the page it replaces still held. */
const RELOAD_RELEASE_MS = 2000;

// randomUUID only where the page's origin is secure (localhost, https): not at a LAN address.
const newId = () => crypto.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** This tab's id: the same through a reload, another in each tab (a duplicated one's too). */
let tab = (() => {
  try {
    const kept = sessionStorage.getItem(TAB_KEY);
    if (kept) return kept;
    const made = newId();
    sessionStorage.setItem(TAB_KEY, made);
    return made;
  } catch {
    // no sessionStorage: a reload is a new tab, which restores the newest draft
    return newId();
  }
})();

/** Holds the lock of this tab's id while the tab is open: which tabs are open is which locks are held. */
const hold = (id: string, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const request = navigator.locks.request(`${LOCK}${id}`, { signal }, () => {
      resolve();
      return new Promise<never>(() => {});
    });
    request.catch(reject);
  });

/**
 * Settled once this tab holds its id's lock. A tab the browser duplicated has a copy of the other's
 * session storage, so its id: that lock stays held by the tab it was copied from, and two tabs
 * writing one draft overwrote each other's changes. After a reload the page it replaced lets go
 * of it within moments; still held after that, the id is another open tab's, and this tab takes
 * an id of its own.
 */
const ready: Promise<void> = (async () => {
  if (!navigator.locks) return;
  try {
    await hold(tab, AbortSignal.timeout(RELOAD_RELEASE_MS));
  } catch {
    tab = newId();
    try {
      sessionStorage.setItem(TAB_KEY, tab);
    } catch {
      // kept for this page only
    }
    void hold(tab).catch(() => {});
  }
})();

async function openTabs(): Promise<Set<string>> {
  try {
    const { held = [] } = (await navigator.locks?.query()) ?? {};
    return new Set(
      held.flatMap(({ name }) => (name?.startsWith(LOCK) ? [name.slice(LOCK.length)] : [])),
    );
  } catch {
    return new Set();
  }
}

/** This tab's key of an entry's draft (its id settled once `ready` is). */
export const ownKey = (key: Key): IDBValidKey[] => [...key, `${TAB}${tab}`];

/** The tab a draft's key names, if any (none: Keystatic's own, written before drafts had tabs). */
const tabOf = (draftKey: Key, key: Key) =>
  draftKey.length > key.length ? String(draftKey.at(-1)).slice(TAB.length) : undefined;

/** Whether `draftKey` is a draft of the entry `key`: its own key, or a tab's. */
const isDraftOf = (draftKey: Key, key: Key) =>
  key.every((part, i) => indexedDB.cmp(part, draftKey[i]) === 0) &&
  (draftKey.length === key.length ||
    (draftKey.length === key.length + 1 && String(draftKey.at(-1)).startsWith(TAB)));

/** Every key from `key` on: its own, a tab's, and (filtered out) longer keys that begin so. */
const rangeOf = (key: Key) => IDBKeyRange.bound([...key], [...key, []]);

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** Every tab's draft of an entry (and Keystatic's own, if one is left), each with its key. */
export function draftsOf(key: Key): Promise<[IDBValidKey[], Stored][]> {
  return store('readonly', async (items) => {
    const keys = (await done(items.getAllKeys(rangeOf(key)))) as IDBValidKey[][];
    const values = (await done(items.getAll(rangeOf(key)))) as Stored[];
    return keys.flatMap((k, i) =>
      isDraftOf(k, key) ? [[k, values[i]!] as [IDBValidKey[], Stored]] : [],
    );
  });
}

const time = ({ savedAt }: Stored) => (savedAt instanceof Date ? savedAt.getTime() : 0);

async function getDraft(key: Key): Promise<unknown> {
  await ready;
  const own = await get(ownKey(key), store);
  if (own !== undefined) return own;
  const all = await draftsOf(key);
  const [newest] = all.sort(([, a], [, b]) => time(b) - time(a));
  if (!newest) return undefined;
  const [from, draft] = newest;
  await set(ownKey(key), draft, store);
  const other = tabOf(from, key);
  if (!other || !(await openTabs()).has(other)) await del(from, store);
  return draft;
}

/**
 * Moves every tab's draft of the entry `from` to the entry `to` (`change` gives its text there),
 * in one transaction: a draft already at `to` is kept, and the one that would have gone over it
 * stays where it was. Says which tabs' drafts moved (this tab's is `own`).
 */
export async function moveDrafts(
  from: Key,
  to: Key,
  change: (draft: unknown) => unknown,
): Promise<{ moved: number; own: boolean }> {
  await ready;
  return store('readwrite', async (items) => {
    const keys = (await done(items.getAllKeys(rangeOf(from)))) as IDBValidKey[][];
    let moved = 0;
    for (const key of keys.filter((k) => isDraftOf(k, from))) {
      const target = [...to, ...key.slice(from.length)];
      if ((await done(items.count(target))) > 0) continue;
      const draft = await done(items.get(key));
      items.put(change(draft), target);
      items.delete(key);
      moved++;
    }
    const own = (await done(items.count(ownKey(to)))) > 0;
    await new Promise((resolve, reject) => {
      items.transaction.oncomplete = resolve;
      items.transaction.onerror = () => reject(items.transaction.error);
    });
    return { moved, own };
  });
}

// Keystatic's drafts, from here on this tab's (../dev-server/keystatic-saves.ts).
(globalThis as Record<symbol, unknown>)[Symbol.for(TAB_DRAFTS)] = {
  get: getDraft,
  set: async (key: Key, value: unknown) => {
    await ready;
    await set(ownKey(key), value, store);
  },
  del: async (key: Key) => {
    await ready;
    await del(ownKey(key), store);
  },
};
