/**
 * In `astro dev` only, on every page (./editor.ts injects it): the dev site's pages reload when the
 * site changes, as they would without the editor; the editor's own tab does not (see
 * keepEditorOpenOnSave in ./editor.ts, which sends reloads as this event).
 */
import { contentMistakeHeadings } from '../domain/content-rules.ts';
import { divertErrorOverlays, messageText } from './error-overlays.ts';

export const SITE_RELOAD_EVENT = 'editor:site-reload';
/** A page asks, once its connection is up, whether the site changed since the page was served. */
export const SITE_CHANGED_EVENT = 'editor:site-changed?';
/** The Server-Timing entry that tells a page which change of the site it was served after. */
export const SITE_VERSION_TIMING = 'editor-site-version';

// Also imported on the server (for the names): there, nothing runs.
if (
  typeof window !== 'undefined' &&
  import.meta.hot &&
  !location.pathname.startsWith('/keystatic')
) {
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
