/**
 * In the editor's own tab (./tab.ts imports it): what the tab does with Keystatic's drafts, the
 * unsaved changes it keeps in this browser (IndexedDB) until they are saved or reset.
 *
 * - The lists show which entries hold a draft: "Draft (not saved)" beside the entry's row in a
 *   collection's list, and beside the collection or the singleton in the navigation.
 * - Leaving the editor (closing the tab, another address) with changes not yet saved asks first,
 *   as the browser asks for any page (the draft is kept all the same).
 * - A colleague's Save moved a page this tab holds a draft of: the draft moves with it (the page is
 *   opened there if it was open here), and the marketer is told (only in the tab on that page, or
 *   the one that moved the draft: a tab elsewhere says nothing of it); Save then shows both versions,
 *   theirs and the colleague's, as for any change made since the entry was opened. A page a
 *   colleague deleted keeps its draft where it was: it comes back with the page.
 * - The uploads a draft names stay on the dev server as long as a draft names them
 *   (../dev-server/pending.ts): each time the editor opens, and when the tab is hidden, it says
 *   which of the pending uploads its drafts name.
 */
import { createStore, del, entries, get } from 'idb-keyval';
import { PAGE_MOVED_EVENT, RESET_EVENT, SAVED_EVENT, type PageMove } from '../events.ts';
import { browserId, pendingUploads } from '../fields/image/endpoint.ts';
import { imageUploadPath } from '../../domain/images.ts';
import { onServerEvent } from '../server-events.ts';
import { notify } from './notice.ts';
import { madeHere } from './own-moves.ts';
import { afterEachRedraw } from './redraws.ts';
import { follow } from './saves.ts';
import { draftsOf, moveDrafts, ownKey } from './tab-drafts.ts';

const MARK = 'data-editor-draft';
/** What the lists say beside an entry that holds a draft. */
export const DRAFT_WORDS = 'Draft (not saved)';

/** Where Keystatic keeps its drafts. */
const draftStore = () => createStore('keystatic', 'items');

/** Keystatic's drafts: their keys (['collection', name, slug], ['singleton', name] …) and texts. */
async function drafts(): Promise<{ key: unknown[]; texts: string[] }[]> {
  try {
    const all = await entries(draftStore());
    const decoder = new TextDecoder();
    return all.map(([key, value]) => {
      const files = (value as { files?: unknown } | undefined)?.files;
      const texts =
        files instanceof Map
          ? [...files.values()].flatMap((bytes) =>
              bytes instanceof Uint8Array ? [decoder.decode(bytes)] : [],
            )
          : [];
      return { key: Array.isArray(key) ? key : [key], texts };
    });
  } catch {
    return []; // no IndexedDB (a private window that refuses it): no drafts kept either
  }
}

/** The pending uploads the drafts name, said to the dev server: those stay, the others may go. */
async function holdNamedUploads(texts: readonly string[], keepalive = false) {
  const browser = browserId();
  if (!browser) return;
  const named = (await pendingUploads()).filter(({ name }) => {
    const word = new RegExp(`(?<![a-z0-9-])${name}(?![a-z0-9-])`);
    return texts.some((text) => word.test(text));
  });
  await fetch(`${imageUploadPath}?held`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ browser, uploads: named.map(({ folder, name }) => ({ folder, name })) }),
    keepalive,
  }).catch(() => {});
}

/** Where each draft shows in the lists: entries by their collection, and the singletons. */
let marked = { entries: new Map<string, Set<string>>(), singletons: new Set<string>() };

async function readDrafts(keepalive = false) {
  const all = await drafts();
  const next = { entries: new Map<string, Set<string>>(), singletons: new Set<string>() };
  for (const { key } of all) {
    const [kind, name, slug] = key.map(String);
    if (kind === 'singleton' && name) next.singletons.add(name);
    if ((kind === 'collection' || kind === 'collection-create') && name) {
      const slugs = next.entries.get(name) ?? new Set();
      if (kind === 'collection' && slug) slugs.add(slug);
      next.entries.set(name, slugs);
    }
  }
  marked = next;
  mark();
  await holdNamedUploads(
    all.flatMap(({ texts }) => texts),
    keepalive,
  );
}

function badge() {
  const span = document.createElement('span');
  span.setAttribute(MARK, '');
  span.textContent = DRAFT_WORDS;
  span.setAttribute(
    'style',
    'margin-inline-start:.5rem;padding:0 .4rem;border-radius:.6rem;font-size:.75rem;font-weight:600;background:#fff4ce;color:#6b4a00;white-space:nowrap',
  );
  return span;
}

/** Puts the badge where a draft is, and takes it from where none is any more. */
function mark() {
  const wanted = new Set<Element>();
  // The navigation: a collection with a draft among its entries, a singleton with one (not the
  // breadcrumbs, whose room is the entry's name's).
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav a[href^="/keystatic/"]')) {
    if (link.closest('nav[aria-label="Breadcrumbs"]')) continue;
    const [, kind, name] = /^\/keystatic\/(collection|singleton)\/([^/]+)$/.exec(
      link.getAttribute('href') ?? '',
    ) ?? [undefined, undefined, undefined];
    const has =
      (kind === 'singleton' && marked.singletons.has(name!)) ||
      (kind === 'collection' && marked.entries.has(name!));
    const label = link.querySelector('[title]')?.parentElement ?? link;
    if (has) wanted.add(label);
  }
  // A collection's list: the rows of entries with a draft.
  const [, collection] = /^\/keystatic\/collection\/([^/]+)\/?$/.exec(location.pathname) ?? [];
  const slugs = collection ? marked.entries.get(collection) : undefined;
  for (const row of document.querySelectorAll<HTMLElement>('[role="row"][data-key^="key:"]')) {
    const slug = row.dataset.key!.slice('key:'.length);
    const cell = row.querySelector('[role="rowheader"], [role="gridcell"]');
    const text = cell?.querySelector('[title]')?.parentElement ?? cell;
    if (slugs?.has(slug) && text) wanted.add(text);
  }
  for (const badged of document.querySelectorAll(`[${MARK}]`))
    if (!wanted.has(badged.parentElement!)) badged.remove();
  for (const place of wanted) if (!place.querySelector(`:scope > [${MARK}]`)) place.append(badge());
}

/** Whether the entry open has changes not saved yet: Keystatic's "Unsaved" in its top bar. */
const unsaved = () =>
  [...document.querySelectorAll('header span, [role="banner"] span')].some(
    (span) => span.textContent === 'Unsaved' && span.childElementCount === 0,
  );

addEventListener('beforeunload', (event) => {
  if (!unsaved()) return;
  // The browser asks in its own words (none lets a page choose them any more).
  event.preventDefault();
});

/**
 * A Save that gave an entry another address: Keystatic then opens it there, and leaves this tab's
 * draft kept under the old address behind, which no entry has any more (and a page given that
 * address later would be offered it). It goes, unless it still has the old address. Other tabs'
 * drafts of the page are theirs (./tab-drafts.ts): each moves to the new address once heard of.
 */
let saved: { at: number; path: string } | undefined;
const ITEM = /^\/keystatic\/collection\/([^/]+)\/item\/([^/]+)$/;
async function movedBySave() {
  const before = saved && Date.now() - saved.at < 5_000 ? ITEM.exec(saved.path) : null;
  const now = ITEM.exec(location.pathname);
  if (!before || !now || before[1] !== now[1] || before[2] === now[2]) return;
  saved = undefined;
  const key = ownKey(['collection', before[1]!, decodeURIComponent(before[2]!)]);
  try {
    const left = (await get(key, draftStore())) as { slug?: string } | undefined;
    if (left && left.slug !== decodeURIComponent(before[2]!)) await del(key, draftStore());
  } catch {
    // no IndexedDB: no draft either
  }
}

/** A service page's draft, as Keystatic keeps it (its schema: `storedValSchema` of its item page). */
interface EntryDraft {
  slug: string;
  files: Map<string, Uint8Array>;
}
const SERVICES = 'services';

/**
 * A draft of `from` at `to`: its file named for the new address, whose Page address says it, unless
 * the marketer had changed that too (their own choice then stays, for Save to show).
 */
function movedDraft(draft: EntryDraft, from: string, to: string): EntryDraft {
  if (draft.slug !== from || !(draft.files instanceof Map)) return draft;
  const files = new Map<string, Uint8Array>();
  for (const [path, bytes] of draft.files) {
    const named = path.replace(new RegExp(`/${from}(\\.[a-z]+)$`), `/${to}$1`);
    const text = () => new TextDecoder().decode(bytes);
    const renamed = () => text().replace(new RegExp(`^slug: ${from}$`, 'm'), `slug: ${to}`);
    files.set(named, named === path ? bytes : new TextEncoder().encode(renamed()));
  }
  return { ...draft, slug: to, files };
}

/**
 * Moves this browser's drafts of a page a colleague moved (each tab's), unless one is at its new
 * address: how many this tab moved, and whether this tab's own is there now (moved by whichever tab
 * heard first).
 */
async function moveDraft(from: string, to: string) {
  try {
    return await moveDrafts(['collection', SERVICES, from], ['collection', SERVICES, to], (draft) =>
      movedDraft(draft as EntryDraft, from, to),
    );
  } catch {
    return { moved: 0, own: false };
  }
}

/** Keystatic's own way to another address: the history API, then the event its router hears. */
function go(path: string) {
  history.replaceState(history.state, '', path);
  dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
}

/**
 * Opens the service page at `slug` in place of the one that was open, which Keystatic found no
 * more. By way of its list: its item page, kept from one entry to the next, went on showing the
 * "Entry not found." it had (its loads keep the last result while the next one comes).
 */
async function reopenAt(slug: string) {
  // The files as they are now first (the move may be heard of before their change).
  await follow();
  go(`/keystatic/collection/${SERVICES}`);
  // Until the list shows (its rows), for a moment at most.
  const listed = () => document.querySelector('[role="row"][data-key^="key:"]');
  for (let waited = 0; waited < 3_000 && !listed(); waited += 50)
    await new Promise((done) => setTimeout(done, 50));
  go(`/keystatic/collection/${SERVICES}/item/${slug}`);
}

/** What a colleague's move or deletion of a page means for this tab, said in a notice. */
async function followColleague(move: PageMove) {
  if (move.kind === 'created' || madeHere(move)) return;
  const from = move.from.slice(1);
  const open = ITEM.exec(location.pathname);
  const here = open?.[1] === SERVICES && decodeURIComponent(open[2]!) === from;
  if (move.kind === 'deleted') {
    const kept = (await draftsOf(['collection', SERVICES, from]).catch(() => [])).length
      ? ' Your unsaved changes are kept and come back if the page is brought back.'
      : '';
    return notify(
      here || kept
        ? `A colleague deleted ${here ? 'this page' : `the page ${move.from}`}.${kept || ' You can bring it back from History and deleted entries.'}`
        : `A colleague deleted the page ${move.from}: its visitors are sent to ${move.to}.`,
    );
  }
  const moved = await moveDraft(from, move.to.slice(1));
  if (here) await reopenAt(move.to.slice(1));
  void readDrafts();
  if (here)
    return notify(
      moved.own
        ? `This page was moved to ${move.to} by a colleague. Your unsaved changes are kept: they are open there.`
        : `This page was moved to ${move.to} by a colleague: it is open there.`,
    );
  // A tab on another page, or on a list, is told only if it moved this browser's unsaved changes
  // of the page (as when no tab has it open): which page, by its name, since the marketer is not on it.
  if (moved.moved)
    notify(
      `${move.title ? `The page ${move.title} (${move.from})` : `The page ${move.from}`} was moved to ${move.to} by a colleague. Your unsaved changes to it moved with it.`,
    );
}
onServerEvent(PAGE_MOVED_EVENT, (move: PageMove) => void followColleague(move));

void readDrafts();
// Keystatic puts a draft away (or removes it) just after a change, a Save or a reset.
const soon = () => setTimeout(() => void readDrafts(), 300);
document.addEventListener(SAVED_EVENT, () => {
  saved = { at: Date.now(), path: location.pathname };
  soon();
});
document.addEventListener(RESET_EVENT, soon);
addEventListener('popstate', soon);
for (const method of ['pushState', 'replaceState'] as const) {
  const original = history[method].bind(history);
  history[method] = (...args: Parameters<History['pushState']>) => {
    original(...args);
    void movedBySave();
    soon();
  };
}
document.addEventListener('visibilitychange', () => {
  // Hidden (a tab closed, another one chosen): the drafts as they are then, told on the way out.
  void readDrafts(document.visibilityState === 'hidden');
});

afterEachRedraw(mark);
