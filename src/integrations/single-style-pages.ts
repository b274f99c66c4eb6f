/**
 * Middleware that single-style.ts adds to the build: each prerendered page leaves it with one
 * <style> element. Anywhere else (pages served on demand, `astro dev`) it changes nothing.
 */
import type { MiddlewareHandler } from 'astro';

/** A <style> element without attributes (one with `media` or the like applies apart: left alone). */
const STYLE = /<style>([\s\S]*?)<\/style>/g;

/**
 * The page with the rules of every later plain <style> element appended to the first, in the
 * order they came, and the later ones removed: Astro's `astro-island{display:contents}` and the
 * technology tiles' colours (../components/TechnologyList.astro) join the page's stylesheet. Each
 * inline style costs the page a hash of some 55 bytes in its CSP header (src/server/http/server.ts
 * hashes the page's own), and a page's first response, headers included, must fit one round trip.
 */
export function singleStyle(html: string): string {
  const rules = [...html.matchAll(STYLE)].map((match) => match[1]);
  if (rules.length < 2) return html;
  let first = true;
  return html.replace(STYLE, () => {
    if (!first) return '';
    first = false;
    return `<style>${rules.join('')}</style>`;
  });
}

export const onRequest: MiddlewareHandler = async (context, next) => {
  const response = await next();
  const page =
    context.isPrerendered &&
    !(response.status >= 300 && response.status < 400) &&
    response.headers.get('content-type')?.startsWith('text/html');
  if (!page) return response;
  const html = await response.text();
  return new Response(singleStyle(html), response);
};
