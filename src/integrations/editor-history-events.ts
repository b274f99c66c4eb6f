/**
 * What the dev server tells the editor's tab about the content's history (./editor-history.ts sends,
 * ./editor-tab-history.ts listens): a file of its own, since the tab cannot import the server's.
 */

/** A save moved a page to another address, and a redirect was added: `{ from, to }`. */
export const PAGE_MOVED_EVENT = 'editor:page-moved';
