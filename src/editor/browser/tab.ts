/**
 * In the editor's own tab: in `astro dev`, ../dev-server/csp.ts adds it to Keystatic's page; in the
 * live site's helper, ../dev-server/KeystaticPage.astro bundles it.
 *
 * Astro shows a page's server error to every open tab, in Vite's overlay over the whole page: a
 * preview's passing error (a page asked for a moment before the dev server had read its new file)
 * covered the editor the marketer was working in, and took its clicks. In the editor's tab such an
 * error is written to the console instead (the page that failed shows it); an error of the editor's
 * own code keeps its overlay.
 */
import './tab-history.ts';

// The marketer's time zone, for History's times.
import './tab-times.ts';

// What a refused Save says, under Save.
import './save-message.ts';
// Drafts: marked in the lists, asked about on leaving, their uploads kept.
import './drafts.ts';
// Saves made on the version opened, and the files as the dev server has them.
import './saves.ts';
import { divertErrorOverlays, type ErrorPayload } from './error-overlays.ts';
// Keystatic's typeface from this server rather than Google Fonts (../dev-server/keystatic-rewrites.ts).
import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import '@fontsource/inter/700.css';

// Keystatic's red button (the Delete dialog's "Yes, delete") in a red dark enough for its white
// words: its own (#e5484d) gives 3.9:1, under the 4.5:1 small text needs.
const contrast = document.createElement('style');
contrast.textContent = `button[data-tone="critical"][data-prominence="high"]:not([disabled]) {
  background-color: #c42b30; }
button[data-tone="critical"][data-prominence="high"]:not([disabled]):hover { background-color: #a32226; }`;
document.head.append(contrast);

/**
 * Whether an error comes from the editor's own code (its schema, its fields, Keystatic). Not its dev
 * server's (../dev-server/): every page of the dev site passes through its middleware, whose
 * frames are in a page's error too.
 */
const concernsEditor = ({ err }: ErrorPayload) =>
  /keystatic|\/src\/editor\/(?!dev-server\/)/.test(`${err.loc?.file ?? ''}\n${err.stack ?? ''}`);

if (import.meta.hot)
  divertErrorOverlays(
    import.meta.hot,
    concernsEditor,
    'A page of the dev site answered with an error (it shows there)',
  );
