/**
 * The editor's own Content-Security-Policy, in `astro dev` only (./editor.ts adds this middleware
 * then). The site's policy (astro.config.mjs `security.csp`) allows scripts by hash, which the
 * editor's React app and its inline styles cannot meet; its routes get this one instead, still
 * same-origin only. Every other route keeps the site's policy. Keystatic's page also gets the
 * site's icon and the editor tab's script (../browser/tab.ts).
 */
import { fileURLToPath } from 'node:url';
import { defineMiddleware } from 'astro:middleware';
import { EDITOR_ROUTES } from '../routes.ts';
import { assetHeaders } from './asset-headers.ts';

export const EDITOR_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline' https://fonts.googleapis.com",
  "img-src 'self' data: blob:",
  // Keystatic's own typeface (Inter), which its interface loads from Google Fonts.
  "font-src 'self' data: https://fonts.gstatic.com",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const editorTabScript = `/@fs${fileURLToPath(new URL('../browser/tab.ts', import.meta.url))}`;

export const onRequest = defineMiddleware(async (context, next) => {
  if (!EDITOR_ROUTES.has(context.routePattern)) return next();
  const response = await next();
  const headers = new Headers(response.headers);
  // An upload the editor shows before it is saved keeps the stricter policy of src/assets.
  if (headers.get('Content-Security-Policy') !== assetHeaders['Content-Security-Policy'])
    headers.set('Content-Security-Policy', EDITOR_CSP);
  // Keystatic's page names no icon: the browser then asked for /favicon.ico, which the site has not
  // (a 404 in the console and a warning in the log on every visit). The site's own icon instead,
  // and the editor tab's own script (../browser/tab.ts), which Vite serves from its file.
  if (headers.get('content-type')?.startsWith('text/html')) {
    const head = `<link rel="icon" href="/favicon.svg" type="image/svg+xml"><script type="module" src="${editorTabScript}"></script>`;
    const page = await response.text();
    // Keystatic's page has no <head>: they go right after the doctype.
    const html = page.startsWith('<!DOCTYPE html>')
      ? page.replace('<!DOCTYPE html>', `<!DOCTYPE html>${head}`)
      : head + page;
    headers.delete('content-length');
    return new Response(html, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  }
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
});
