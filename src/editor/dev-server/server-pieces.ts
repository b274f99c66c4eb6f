/**
 * The editor's own server pieces, one list for both places it runs: `npm run edit` (./editor.ts, in
 * `astro dev`) and the live site's helper (./helper-build.ts, a production build run by the
 * server with `EDITING=on`): its routes (preview, History, the site's pages for the fields,
 * uploads) and the middleware in front of Keystatic's API (its policy, then a Save checked against
 * the version it was made on, refused if the build would refuse it, its uploads moved in).
 */
import type { AstroIntegration } from 'astro';
import { imageUploadPath } from '../../domain/images.ts';
import { editorHistoryPath, editorPreviewPath, editorSitePath } from '../routes.ts';

type Setup = Parameters<NonNullable<AstroIntegration['hooks']['astro:config:setup']>>[0];

export function addEditorServer({
  injectRoute,
  addMiddleware,
}: Pick<Setup, 'injectRoute' | 'addMiddleware'>) {
  const routes: [string, string][] = [
    [editorPreviewPath, './preview.ts'],
    [editorHistoryPath, './history/route.ts'],
    [editorSitePath, './site.ts'],
    [imageUploadPath, './images.ts'],
  ];
  for (const [pattern, file] of routes)
    injectRoute({ pattern, entrypoint: new URL(file, import.meta.url), prerender: false });
  // A Save is checked against the version it was made on, then refused if the build would
  // refuse it, before anything is written and before its uploads move.
  for (const file of ['./csp.ts', './save-check.ts', './save-checks.ts', './uploads-commit.ts'])
    addMiddleware({ order: 'pre', entrypoint: new URL(file, import.meta.url) });
}
