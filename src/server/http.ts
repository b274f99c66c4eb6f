/**
 * The HTTP server in front of Astro's node handler: it serves the build's
 * files itself (compressed, with cache headers: ./static-files.ts), adds the
 * security headers to every response, and sets each prerendered page's CSP
 * from the build. Everything else (the enquiry endpoints, the not-found page,
 * the booking pages) goes to Astro, and its answers are compressed on the way
 * (brotli at quality 4: fast enough for every request, and /schedule's list of
 * times still fits the first round trip).
 */
import compression from 'compression';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { indexStaticFiles, lookup, serveStatic } from './static-files.ts';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export const securityHeaders: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/** For responses that are not pages (JSON, images, scripts): nothing may run or embed them. */
export const fallbackCsp =
  "default-src 'none'; img-src 'self'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'";

/** For the service worker, whose own requests (the site's pages and files) this policy governs. */
export const workerCsp =
  "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'";

export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * Keeps, of a CSP's script hashes, those of the inline scripts `html` has. Astro gives every page
 * the hashes of every script of the site; the page's own are a tighter policy and a header some
 * 400 bytes lighter, which a first response that must fit one round trip needs.
 */
export function ownScriptHashes(csp: string, html: string): string {
  const present = new Set(
    [...html.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)].map((m) =>
      createHash('sha256').update(m[1]!).digest('base64'),
    ),
  );
  return csp
    .split(';')
    .map((directive) =>
      directive.trim().startsWith('script-src')
        ? directive.replace(/ 'sha256-([^']+)'/g, (hash, value: string) =>
            present.has(value) ? hash : '',
          )
        : directive,
    )
    .join(';');
}

const pageFile = (distDir: string, pathname: string) =>
  join(
    distDir,
    'client',
    pathname === '/' ? 'index.html' : pathname === '/404' ? '404.html' : `${pathname}/index.html`,
  );

/**
 * The CSP of each prerendered page, from the `_headers.json` that Astro writes
 * with `staticHeaders`, narrowed to the page's own scripts. Looked up by exact
 * path: the adapter's own lookup matches by substring and gives `/` the CSP of `/404`.
 */
export function loadPageCsps(distDir: string): Map<string, string> {
  const csps = new Map<string, string>();
  try {
    const entries = JSON.parse(readFileSync(join(distDir, '_headers.json'), 'utf8')) as {
      pathname: string;
      headers: { key: string; value: string }[];
    }[];
    for (const { pathname, headers } of entries) {
      const csp = headers.find((h) => h.key.toLowerCase() === 'content-security-policy');
      if (!csp) continue;
      let html: string | undefined;
      try {
        html = readFileSync(pageFile(distDir, pathname), 'utf8');
      } catch {
        // A page without its file (not expected): it keeps every hash.
      }
      csps.set(pathname, html === undefined ? csp.value : ownScriptHashes(csp.value, html));
    }
  } catch {
    // No build headers: every page keeps the CSP Astro renders into it.
  }
  return csps;
}

export const pagePath = (url: string) => {
  const path = (url.split('?')[0] ?? '/').replace(/\/index\.html$/, '/').replace(/\.html$/, '');
  return path.length > 1 ? path.replace(/\/+$/, '') : '/';
};

export interface SiteServerOptions {
  handler: NodeHandler;
  distDir: string;
  trustedProxies?: string[];
}

export function isHttps(req: IncomingMessage, trustedProxies: string[]) {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const peer = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  return trustedProxies.includes(peer) && req.headers['x-forwarded-proto'] === 'https';
}

export function createSiteServer({ handler, distDir, trustedProxies = [] }: SiteServerOptions) {
  const compress = compression();
  const csps = loadPageCsps(distDir);
  const notFoundCsp = csps.get('/404');
  const files = indexStaticFiles(join(distDir, 'client'));

  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    if (isHttps(req, trustedProxies)) res.setHeader('Strict-Transport-Security', HSTS);

    const file =
      req.method === 'GET' || req.method === 'HEAD' ? lookup(files, req.url ?? '/') : undefined;
    if (file) {
      const pageCsp = file.type.startsWith('text/html')
        ? csps.get(pagePath(req.url ?? '/'))
        : undefined;
      const worker = req.url?.split('?')[0] === '/sw.js';
      res.setHeader('Content-Security-Policy', pageCsp ?? (worker ? workerCsp : fallbackCsp));
      serveStatic(req, res, file);
      return;
    }

    res.setHeader('Content-Security-Policy', fallbackCsp);
    // The not-found page is served for any unknown path: it needs its own CSP, not the fallback.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      const type = String(res.getHeader('content-type') ?? '');
      if (status === 404 && notFoundCsp && (type.includes('text/html') || type === '')) {
        res.setHeader('Content-Security-Policy', notFoundCsp);
      }
      return writeHead(status, ...rest);
    }) as typeof res.writeHead;

    const render = () =>
      Promise.resolve(handler(req, res)).catch((error: unknown) => {
        console.error(error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Server error');
      });
    // Pages are compressed; a form's fetch gets a few hundred bytes of JSON, not worth the wrapping
    // of every enquiry's answer. (compression's types are Express's; it uses Node's own objects.)
    if (req.method === 'GET' || String(req.headers.accept ?? '').includes('text/html')) {
      compress(req as never, res as never, () => void render());
    } else {
      void render();
    }
  });
  // Slow or stuck clients cannot hold connections for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  return server;
}
