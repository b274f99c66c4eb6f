/**
 * Every address that is neither a page nor a file of the build: an old address of redirects.yaml
 * is answered with a 301 to its new one, anything else with the not-found page, as before.
 *
 * A route rather than the middleware: for an address it has no route for, Astro's production
 * handler sends the prerendered 404 page without running the middleware. As the last route (a rest
 * parameter comes after every other), this one runs for such addresses alone, in `astro dev` and
 * on the production server alike. Its redirects come from the content store, which Astro bundles
 * into the server's build (src/lib/content.ts, getRedirects): nothing reads src/content at run
 * time, and in `npm run edit` a redirect saved in the editor answers at once.
 */
import type { APIRoute } from 'astro';
import { resolveRedirect } from '../domain/redirects';
import { getRedirects } from '../lib/content';

export const prerender = false;

/**
 * An hour: browsers and caches keep a 301 for good unless told otherwise, and staff may point an
 * old address elsewhere, or make it a page again.
 */
const REDIRECT_CACHE = 'public, max-age=3600';

export const ALL: APIRoute = async ({ request, url }) => {
  if (request.method === 'GET' || request.method === 'HEAD') {
    const location = resolveRedirect(await getRedirects(), url.pathname, url.search);
    if (location)
      return new Response(null, {
        status: 301,
        headers: { Location: location, 'Cache-Control': REDIRECT_CACHE },
      });
  }
  // No body: Astro answers with the not-found page (./404.astro).
  return new Response(null, { status: 404 });
};
