/**
 * Middleware that single-style.ts adds to the build: each prerendered page leaves it with one
 * <style> element, fewer inline scripts (./fewer-scripts.ts), and its islands numbered
 * (`islandIdsInOrder`). Anywhere else (pages served on demand, `astro dev`) it changes nothing.
 */
import type { MiddlewareHandler } from 'astro';
import { inlineElements, replaceElements } from '../shared/inline-elements.ts';

/**
 * The page with the rules of every later plain <style> element appended to the first, in the
 * order they came, and the later ones removed: Astro's `astro-island{display:contents}` and the
 * technology tiles' colours (../components/TechnologyList.astro) join the page's stylesheet. Each
 * inline style costs the page a hash of some 55 bytes in its CSP header (src/server/http/server.ts
 * hashes the page's own), and a page's first response, headers included, must fit one round trip.
 */
export function singleStyle(html: string): string {
  // Not one inside an inline SVG (an icon's own, which may hold what only an SVG parser reads).
  const inSvg = (at: number) => {
    const before = html.slice(0, at);
    return before.lastIndexOf('<svg') > before.lastIndexOf('</svg>');
  };
  // Only those without attributes: one with `media` or the like applies apart (left alone).
  const styles = inlineElements(html, 'style').filter(
    ({ at, attributes }) => !attributes && !inSvg(at),
  );
  if (styles.length < 2) return html;
  const merged = `<style>${styles.map(({ content }) => content).join('')}</style>`;
  return replaceElements(html, new Map(styles.map((style, i) => [style, i ? '' : merged])));
}

/** An island's `uid` attribute, which Astro writes and nothing reads. */
const ISLAND_UID = /(<astro-island uid=")[^"]*"/g;

/**
 * The page with its islands' `uid`s numbered in order. Astro names an island by a hash of its
 * component's absolute path among the rest, so the same commit built in another folder gave other
 * names, and `/angular`'s first response 37 bytes more (a fresh clone over its 14 KB, where the
 * working tree was not).
 */
export function islandIdsInOrder(html: string): string {
  let count = 0;
  return html.replace(ISLAND_UID, (_, head: string) => `${head}${count++}"`);
}

export const onRequest: MiddlewareHandler = async (context, next) => {
  const response = await next();
  const page =
    context.isPrerendered &&
    !(response.status >= 300 && response.status < 400) &&
    response.headers.get('content-type')?.startsWith('text/html');
  if (!page) return response;
  const html = await response.text();
  // Loaded here, as the build prerenders: the server runs this middleware too, for the pages it
  // renders on demand, and must not load esbuild, which fewer-scripts.ts parses with.
  const { fewerScripts } = await import('./fewer-scripts.ts');
  return new Response(islandIdsInOrder(fewerScripts(singleStyle(html))), response);
};
