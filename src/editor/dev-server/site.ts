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

/**
 * The answer's JSON for the content in `content` and the pages of `site`. Every tab asks after each
 * Save, each change on disk and each time it is shown; the files are read each time (a few
 * milliseconds), and parsed again only when one changed (`site-checks.ts` keeps each text's values).
 */
export async function siteJson(content: string, site: string): Promise<string> {
  const [files, fixed] = await Promise.all([readContent(content), fixedRoutes(site)]);
  return JSON.stringify({ pages: pagesOf(files, fixed), redirects: redirectsOf(files) });
}

export const GET: APIRoute = async () =>
  new Response(await siteJson(contentRoot(), siteRoot()), {
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

export const ALL: APIRoute = () => new Response(null, { status: 405, headers: { allow: 'GET' } });
