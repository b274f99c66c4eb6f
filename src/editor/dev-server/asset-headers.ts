/**
 * What the dev server sends with a file of src/assets (./editor.ts), and with an upload the editor
 * shows before it is saved (./images.ts): a policy under which it runs nothing when it
 * is opened as a page (an SVG is a document of the dev server's origin, the editor's), whatever it
 * holds: an upload is cleaned (src/domain/svg-clean.ts), but a file copied into the folder by hand is
 * not. No script, no plugin, no request but its own embedded pictures and styles, and `sandbox` gives
 * it an origin of its own. An image's policy applies only where it is the page: the editor's
 * thumbnails and the dev site's pages show it with <img>, which it does not change.
 */
export const assetHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
  'X-Content-Type-Options': 'nosniff',
} as const;
