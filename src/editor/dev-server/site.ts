/**
 * The site's pages and redirects as they are on disk now, for the editor's fields in the browser
 * (src/editor/site.ts), in `astro dev` only (./editor.ts injects it at `editorSitePath`): a link is
 * checked against them as it is typed, a redirect's addresses too, and each address is shown with
 * its page's name. GET only; JSON `{ pages: [{ address, name? }], redirects: [{ from, to }] }`.
 */
import type { APIRoute } from 'astro';
import { contentRoot, siteRoot } from './roots.ts';
import { fixedRoutes, pagesOf, readContent, redirectsOf } from './site-checks.ts';

export const prerender = false;

export const GET: APIRoute = async () => {
  const [files, fixed] = await Promise.all([readContent(contentRoot()), fixedRoutes(siteRoot())]);
  return Response.json(
    { pages: pagesOf(files, fixed), redirects: redirectsOf(files) },
    { headers: { 'cache-control': 'no-store' } },
  );
};

export const ALL: APIRoute = () => new Response(null, { status: 405, headers: { allow: 'GET' } });
