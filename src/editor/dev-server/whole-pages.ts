/**
 * In `astro dev` only (./editor.ts adds this middleware then): a page of the site is sent once it
 * has rendered whole. Astro streams a page, so a content mistake met by a component halfway (a list
 * it reads, lib/content.ts) answered 200 with the page cut short there; read whole first, the
 * mistake is the page's error (500, with its message in Vite's overlay), as for one met before the
 * page began. Prerendered pages only: they set no cookies, and the on-demand ones keep streaming.
 */
import { defineMiddleware } from 'astro:middleware';

export const onRequest = defineMiddleware(async (context, next) => {
  const response = await next();
  if (!context.isPrerendered || !response.headers.get('content-type')?.startsWith('text/html'))
    return response;
  // A mistake met while rendering rejects this read, and Astro answers with it.
  const whole = await response.arrayBuffer();
  return new Response(whole, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
});
