/**
 * In `astro dev` only, in the editor's own tab (./editor-csp.ts adds it to Keystatic's page).
 *
 * Astro shows a page's server error to every open tab, in Vite's overlay over the whole page: a
 * preview's passing error (a page asked for a moment before the dev server had read its new file)
 * covered the editor the marketer was working in, and took its clicks. In the editor's tab such an
 * error is written to the console instead (the page that failed shows it); an error of the editor's
 * own code keeps its overlay.
 */

// What a refused Save says, under Save.
import './editor-save-message.ts';

/** What Vite's client hands its `vite:error` listeners (Astro's payload). */
interface ErrorPayload {
  err: { message?: string; stack?: string; loc?: { file?: string } };
}

/** Whether an error comes from the editor's own code (its schema, its fields, Keystatic). */
const concernsEditor = ({ err }: ErrorPayload) =>
  /keystatic|\/src\/editor\//.test(`${err.loc?.file ?? ''}\n${err.stack ?? ''}`);

if (import.meta.hot) {
  let last: ErrorPayload | undefined;
  // Vite's client calls its listeners, then adds its overlay to the body: the observer below sees
  // it before the page is painted again.
  import.meta.hot.on('vite:error', (payload: ErrorPayload) => (last = payload));
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        if (!(node instanceof HTMLElement) || node.localName !== 'vite-error-overlay') continue;
        if (!last || concernsEditor(last)) continue;
        node.remove();
        const message = new DOMParser().parseFromString(last.err.message ?? '', 'text/html');
        console.error(
          `A page of the dev site answered with an error (it shows there): ${message.body.textContent}`,
        );
      }
  }).observe(document.body, { childList: true });
}
