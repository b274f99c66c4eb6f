/**
 * In `astro dev` only, on every page (../dev-server/editor.ts injects it): the dev site's pages
 * reload when the site changes, as they would without the editor; the editor's own tab does not
 * (see keepEditorOpenOnSave in ../dev-server/editor.ts, which sends reloads as SITE_RELOAD_EVENT,
 * Vite's own after it has bundled the dependencies anew included). A page whose island's code could
 * not load (a dependency bundled anew meanwhile: Vite answers the old one "504 Outdated Optimize
 * Dep") reloads once.
 */
import { contentMistakeHeadings } from '../../domain/content-rules.ts';
import { SITE_CHANGED_EVENT, SITE_RELOAD_EVENT, SITE_VERSION_TIMING } from '../events.ts';
import { divertErrorOverlays, messageText } from './error-overlays.ts';

if (import.meta.hot && !location.pathname.startsWith('/keystatic')) {
  import.meta.hot.on(SITE_RELOAD_EVENT, () => location.reload());
  // A page asked for just after a Save may have been served before the dev server had read the
  // saved file, and a reload sent before the page's connection was up never reaches it: the page
  // says which version it was served at, and the server sends a reload if there has been one since.
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  const served = navigation?.serverTiming.find((entry) => entry.name === SITE_VERSION_TIMING);
  if (served) import.meta.hot.send(SITE_CHANGED_EVENT, { version: Number(served.description) });
  // This page rendered (the page Astro answers with an error has no script but Vite's client): a
  // content mistake's error is another page's, which shows it; this one stays readable.
  divertErrorOverlays(
    import.meta.hot,
    (payload) =>
      !Object.values(contentMistakeHeadings).some((heading) =>
        messageText(payload).trimStart().startsWith(heading),
      ),
    'Another page of the dev site shows a content mistake (open it to see where)',
  );
}

/** When a page last reloaded itself for code that did not load: once, not in a loop. */
const STALE_RELOAD_KEY = 'editor:stale-code-reload';
const STALE_RELOAD_MS = 30_000;

/** Whether an error is a module the browser could not fetch (Chromium's, Firefox's, Safari's words). */
export const isFailedImport = (error: unknown) =>
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
    String((error as Error | undefined)?.message ?? error),
  );

/**
 * Reloads the page once for code that did not load; false (and nothing done) if it reloaded for
 * that in the last 30 s, when the next reload would fail as this one did.
 */
function reloadForStaleCode(): boolean {
  try {
    const last = Number(sessionStorage.getItem(STALE_RELOAD_KEY));
    if (last && Date.now() - last < STALE_RELOAD_MS) return false;
    sessionStorage.setItem(STALE_RELOAD_KEY, String(Date.now()));
  } catch {
    return false; // no storage: no guard against a loop, so no reload
  }
  console.warn('Part of the page could not load (its code was bundled anew): reloading the page.');
  location.reload();
  return true;
}

if (import.meta.hot && !location.pathname.startsWith('/keystatic')) {
  // An island whose code failed to load: Astro tells it with this event (and would leave the island
  // as it was, a dialog on "loading…" for good).
  document.addEventListener('astro:hydration-error', (event) => {
    const { error } = (event as CustomEvent<{ error: unknown }>).detail ?? {};
    if (isFailedImport(error) && reloadForStaleCode()) event.preventDefault();
  });
  // A module's own dynamic import, through Vite's preloading.
  addEventListener('vite:preloadError', (event) => {
    if (reloadForStaleCode()) event.preventDefault();
  });
  // One that nothing caught (a `client:interaction` island's load, src/client/hydrate-on-interaction.ts).
  addEventListener('unhandledrejection', (event) => {
    if (isFailedImport(event.reason)) reloadForStaleCode();
  });
}
