/**
 * The site's pages and redirects as the editor's fields know them, in the editor's tab: asked of the
 * dev server (./dev-server/site.ts) when a field first needs them, and again after each Save, a
 * page's move, any change of the content (another tab's Save, a restore) and when the tab is shown
 * again. A link to no page, or a redirect that would loop, is then said at its field in the build's
 * words (src/domain/redirects.ts), before Save; each address is shown with its page's name.
 *
 * Until they have come (and outside the browser: the dev server's checks, the tests), `currentSite()` is undefined and the fields check only what one value can get wrong: the
 * dev server checks the Save again (./dev-server/save-checks.ts).
 */
import type { Redirect } from '../domain/redirects.ts';
import { PAGE_MOVED_EVENT, SAVED_EVENT, SITE_RELOAD_EVENT } from './events.ts';
import { editorSitePath } from './routes.ts';
import { onServerEvent } from './server-events.ts';

export interface Site {
  /** The addresses of the site's pages: '/', '/about', '/laravel' …. */
  pages: ReadonlySet<string>;
  /** A page's name by its address, where the content gives it one ("Laravel"). */
  names: ReadonlyMap<string, string>;
  redirects: readonly Redirect[];
}

let site: Site | undefined;
let started = false;
const listeners = new Set<() => void>();

/**
 * Reads the site anew. Asked again while a read is under way (a restore writes many files, each told
 * to the tab; a Save is told by the tab itself and by the dev server), it reads once more after that
 * one, not once per ask: each read has the dev server read every content file (in two of the
 * editor's test files, 193 reads and 25 s of the dev server's time before, 136 and 11 s after).
 */
let reading: Promise<void> | undefined;
let readAgain = false;
function load(): Promise<void> {
  if (reading) {
    readAgain = true;
    return reading;
  }
  reading = (async () => {
    do {
      readAgain = false;
      await read();
    } while (readAgain);
  })().finally(() => {
    reading = undefined;
  });
  return reading;
}

async function read() {
  try {
    const response = await fetch(editorSitePath, { cache: 'no-store' });
    if (!response.ok) return;
    const { pages, redirects } = (await response.json()) as {
      pages: { address: string; name?: string }[];
      redirects: Redirect[];
    };
    site = {
      pages: new Set(pages.map(({ address }) => address)),
      names: new Map(pages.flatMap(({ address, name }) => (name ? [[address, name]] : []))),
      redirects,
    };
    for (const listener of listeners) listener();
  } catch {
    // The dev server is not there (stopped): the fields keep what they knew.
  }
}

function start() {
  started = true;
  const first = load();
  document.addEventListener(SAVED_EVENT, () => void load());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void load();
  });
  // A page moved (its redirect added), any content changed on disk (a Save elsewhere, a restore).
  onServerEvent(PAGE_MOVED_EVENT, () => void load());
  onServerEvent(SITE_RELOAD_EVENT, () => void load());
  return first;
}

/** The site as last read, or undefined (not yet, or not in a browser). */
export function currentSite(): Site | undefined {
  if (!started && typeof document !== 'undefined') start();
  return site;
}

// Read before the editor draws anything (this module comes with its schema, which Keystatic awaits),
// so that the first lists drawn have it (a redirect's row names its page: a row is drawn anew only
// when its entry changes). At most two seconds: a dev server that does not answer leaves the fields
// to check one value at a time until it does.
if (typeof document !== 'undefined')
  await Promise.race([start(), new Promise((wait) => setTimeout(wait, 2_000))]);

/** Tells `listener` each time the site has been read anew; returns how to stop. */
export function subscribeSite(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** An address with its page's name, for a person: "Laravel (/laravel)"; the address alone if none. */
export function named(address: string, known: Site | undefined = currentSite()): string {
  const page = address.split(/[?#]/)[0]!.replace(/(.)\/+$/, '$1');
  const name = known?.names.get(page);
  return name ? `${name} (${address})` : address;
}
