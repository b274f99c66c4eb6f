/**
 * In `astro dev`, in the browser: Astro sends a page's server error to every open tab, where Vite
 * shows it in its overlay over the whole page (and Vite keeps one sent while no tab was connected
 * for the next tab that connects). A tab that is not the page that failed sends such an error to
 * its console instead, where `belongsHere` says it is not its own (./tab.ts, the editor's tab;
 * ./site-reload.ts, a page of the site that rendered).
 */

/** What Vite's client hands its `vite:error` listeners (Astro's payload). */
export interface ErrorPayload {
  err: { message?: string; stack?: string; loc?: { file?: string } };
}

/** The error's message as text (Astro sends it as HTML, its terminal colours made into markup). */
export const messageText = ({ err }: ErrorPayload) =>
  new DOMParser().parseFromString(err.message ?? '', 'text/html').body.textContent ?? '';

export function divertErrorOverlays(
  hot: NonNullable<ImportMeta['hot']>,
  belongsHere: (payload: ErrorPayload) => boolean,
  note: string,
) {
  let last: ErrorPayload | undefined;
  const divert = (overlay: Node, payload: ErrorPayload | undefined) => {
    if (!(overlay instanceof HTMLElement) || overlay.localName !== 'vite-error-overlay') return;
    if (!payload || belongsHere(payload)) return;
    overlay.remove();
    console.error(`${note}: ${messageText(payload)}`);
  };
  // Vite's client calls its listeners, then adds its overlay to the body: the observer below sees
  // it before the page is painted again.
  hot.on('vite:error', (payload: ErrorPayload) => (last = payload));
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) divert(node, last);
  }).observe(document.body, { childList: true });
  // An error Vite kept for the first tab to connect can be shown before this script runs: it is
  // read from the overlay itself (Astro's, whose parts are in its open shadow root).
  for (const overlay of document.querySelectorAll('vite-error-overlay')) {
    const part = (id: string) => overlay.shadowRoot?.querySelector(id)?.innerHTML ?? '';
    divert(overlay, { err: { message: part('#message-content'), stack: part('#stack-content') } });
  }
}
