/**
 * The editor's own Content-Security-Policy, in `npm run edit` (./editor.ts adds this middleware) and
 * in the live site's helper (./server-pieces.ts). The site's policy (astro.config.mjs `security.csp`) allows scripts by hash, which the
 * editor's React app and its inline styles cannot meet; its routes get this one instead, still
 * same-origin only. Every other route keeps the site's policy. Keystatic's page also gets the
 * site's icon and the editor tab's script (../browser/tab.ts).
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { defineMiddleware } from 'astro:middleware';
import { BUILT_TAB_SCRIPT, EDITOR_ROUTES } from '../routes.ts';
import { assetHeaders } from './asset-headers.ts';

const policy = (scripts: string) =>
  [
    "default-src 'self'",
    `script-src 'self'${scripts ? ` ${scripts}` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    // Keystatic's typeface (Inter) comes from this server (../browser/tab.ts), not Google Fonts.
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/** `npm run edit`: the dev server's scripts carry no hash Astro could list. */
export const EDITOR_CSP = policy("'unsafe-inline'");

/**
 * A built page's policy (the live site's helper): its own inline scripts by hash (Astro's island
 * bootstrap), no other inline script.
 */
function builtPolicy(page: string) {
  const hashes = [...page.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)]
    .filter(([tag, code]) => code && !/\ssrc=/.test(tag.slice(0, tag.indexOf('>'))))
    .map(([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`);
  return policy(hashes.join(' '));
}

// In `npm run edit` the dev server serves the tab's script from its file; the helper's build
// bundles it (./helper-build.ts), at a fixed address for the pages that are not Keystatic's.
const editorTabScript = `<script type="module" src="${
  import.meta.env.DEV
    ? `/@fs${fileURLToPath(new URL('../browser/tab.ts', import.meta.url))}`
    : BUILT_TAB_SCRIPT
}"></script>`;

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
    const head = `<link rel="icon" href="/favicon.svg" type="image/svg+xml">${editorTabScript}`;
    const page = await response.text();
    if (!import.meta.env.DEV) headers.set('Content-Security-Policy', builtPolicy(page));
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
