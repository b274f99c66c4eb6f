/**
 * The visual editor's routes, as Astro names them (`context.routePattern`). The site's middleware
 * (src/middleware.ts) reads them in the production server too, so they are in a file of their
 * own: ./dev-server/editor.ts loads Vite, which the production server has no use for.
 */
import { EDITOR_ASSETS } from '../domain/editing.ts';
import { imageUploadPath } from '../domain/images.ts';

/** The editor's "Preview" links go through this (./dev-server/preview.ts). */
export const editorPreviewPath = '/api/editor/preview/[...entry]';

/** The site's pages and redirects, as the editor's fields check links against them (./dev-server/site.ts). */
export const editorSitePath = '/api/editor/site';

/** The editor's History pages (./dev-server/history/route.ts), under the editor's own address. */
export const HISTORY_BASE = '/keystatic/history';
export const editorHistoryPath = `${HISTORY_BASE}/[...path]`;

/** The History's page of a deleted entry: its file and the save that deleted it. */
export const deletedUrl = ({ file, commit }: { file: string; commit: string }) =>
  `${HISTORY_BASE}/deleted?file=${encodeURIComponent(file)}&commit=${encodeURIComponent(commit)}`;

/** What the editor's server told its tab since, in the live site's helper (./server-events.ts). */
export const editorEventsPath = '/api/editor/events';

/**
 * The editor tab's script in the helper's build (../browser/tab.ts, bundled into Keystatic's page
 * under a hashed name): a module at a fixed address that imports it, for the History's pages.
 */
export const BUILT_TAB_SCRIPT = `/${EDITOR_ASSETS}/tab.js`;

export const EDITOR_ROUTES: ReadonlySet<string> = new Set([
  '/keystatic/[...params]',
  '/api/keystatic/[...params]',
  imageUploadPath,
  editorPreviewPath,
  editorHistoryPath,
  editorSitePath,
  editorEventsPath,
]);
