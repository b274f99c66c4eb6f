/**
 * The site's pages and redirects as they are on disk now, for the editor's fields in the browser
 * (src/editor/site.ts), in `astro dev` only (./editor.ts injects it at `editorSitePath`): a link is
 * checked against them as it is typed, a redirect's addresses too, and each address is shown with
 * its page's name. GET only; JSON `{ pages: [{ address, name? }], redirects: [{ from, to }] }`.
 */
import { createHash } from 'node:crypto';
import type { APIRoute } from 'astro';
import { contentRoot, siteRoot } from './roots.ts';
import {
  fixedRoutes,
  pagesOf,
  readContent,
  redirectsOf,
  type ContentFiles,
} from './site-checks.ts';

export const prerender = false;

/**
 * The last answer, by a hash of what it was made from: the files are read on every request (a few
 * milliseconds), but parsed again only when one changed. Every tab asks after each Save, each
 * change on disk and each time it is shown, mostly of content it was answered for already.
 */
let last: { key: string; body: string } | undefined;

const keyOf = (files: ContentFiles, fixed: readonly string[]) => {
  const hash = createHash('sha256');
  for (const [path, text] of files) hash.update(`${path}\0${text}\0`);
  return hash.update(fixed.join('\0')).digest('hex');
};

/** The answer's JSON for the content in `content` and the pages of `site`. */
export async function siteJson(content: string, site: string): Promise<string> {
  const [files, fixed] = await Promise.all([readContent(content), fixedRoutes(site)]);
  const key = keyOf(files, fixed);
  if (last?.key !== key)
    last = {
      key,
      body: JSON.stringify({ pages: pagesOf(files, fixed), redirects: redirectsOf(files) }),
    };
  return last.body;
}

export const GET: APIRoute = async () =>
  new Response(await siteJson(contentRoot(), siteRoot()), {
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

export const ALL: APIRoute = () => new Response(null, { status: 405, headers: { allow: 'GET' } });
