/**
 * In `astro dev` only, on every page (./editor.ts injects it): the dev site's pages reload when the
 * site changes, as they would without the editor; the editor's own tab does not (see
 * keepEditorOpenOnSave in ./editor.ts, which sends reloads as this event).
 */
export const SITE_RELOAD_EVENT = 'editor:site-reload';

// Also imported on the server (for the name): there, nothing runs.
if (
  typeof window !== 'undefined' &&
  import.meta.hot &&
  !location.pathname.startsWith('/keystatic')
) {
  import.meta.hot.on(SITE_RELOAD_EVENT, () => location.reload());
}
