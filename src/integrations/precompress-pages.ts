/**
 * Middleware that precompress.ts adds: while `astro build` prerenders, it hands each page's response to
 * the build (precompress.ts), which starts compressing the page while the next ones render. Anywhere
 * else (the server, `astro dev`) nothing has registered to take the pages, and it does nothing.
 *
 * The middleware runs inside the prerender bundle, a module instance of its own: the two meet through a
 * global symbol. Nothing here can change a page: the build compresses the file it finds on disk, and
 * uses a result started here only for the same bytes.
 */
import type { MiddlewareHandler } from 'astro';

export const PRERENDERED_PAGE = Symbol.for('precompress:prerendered-page');

export type PageTaker = (response: Response) => void;

export const onRequest: MiddlewareHandler = async (context, next) => {
  const response = await next();
  const take = (globalThis as { [PRERENDERED_PAGE]?: PageTaker })[PRERENDERED_PAGE];
  if (take && context.isPrerendered) take(response);
  return response;
};
