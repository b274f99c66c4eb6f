/**
 * In `astro dev` only, in the editor's own tab (../dev-server/csp.ts adds it to Keystatic's page).
 *
 * Astro shows a page's server error to every open tab, in Vite's overlay over the whole page: a
 * preview's passing error (a page asked for a moment before the dev server had read its new file)
 * covered the editor the marketer was working in, and took its clicks. In the editor's tab such an
 * error is written to the console instead (the page that failed shows it); an error of the editor's
 * own code keeps its overlay.
 */
import './tab-history.ts';

// What a refused Save says, under Save.
import './save-message.ts';
// Saves made on the version opened, and the files as the dev server has them.
import './saves.ts';
import { divertErrorOverlays, type ErrorPayload } from './error-overlays.ts';

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
