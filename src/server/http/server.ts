/**
 * The HTTP server in front of Astro's node handler: it serves the build's
 * files itself (compressed, with cache headers: ./static-files.ts), adds the
 * security headers to every response, and sets each prerendered page's CSP
 * from the build. Everything else (the enquiry endpoints, the not-found page,
 * the booking pages) goes to Astro, and its answers are compressed on the way
 * (brotli at quality 4: fast enough for every request, and /schedule's list of
 * times still fits the first round trip).
 *
 * No request can stop it: a method an address does not take is answered here
 * (./routes.ts) before Astro sees it, whatever a handler throws becomes a 500
 * for that request alone, and slow or numerous connections are cut off on time.
 */
import compression from 'compression';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  STATUS_CODES,
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { ConnectionLimits } from '../config.ts';
import {
  KNOWN_METHODS,
  allowHeader,
  onDemandRoutes,
  routePath,
  staticFiles,
  type RoutePolicy,
} from './routes.ts';
import { clientNetwork } from '../networks.ts';
import { log as serverLog, withRequestId } from '../log.ts';
import { clientAddress, isTrustedProxy } from '../requests/client.ts';
import { terminalText } from '../safe-text.ts';
import { indexStaticFiles, lookup, serveStatic, type StaticFile } from './static-files.ts';
import { EDITOR_METHODS, PREVIEW_FILES, inPreview, isEditorAddress } from '../../domain/editing.ts';
import { joinedParts } from '../../shared/joined-scripts.ts';
import { inlineElements } from '../../shared/inline-elements.ts';

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

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** Whether a <script> with these attributes runs its content: not a data block (JSON-LD), nor a file's. */
const runsContent = (attributes: string) =>
  !/\bsrc=/.test(attributes) &&
  /^(module|text\/javascript|)$/.test(/\btype="([^"]*)"/.exec(attributes)?.[1] ?? '');

const hashes = (values: Iterable<string>) =>
  [...new Set([...values].map((value) => ` 'sha256-${sha256(value)}'`))].join('');

/**
 * A prerendered page's CSP, narrowed to its own inline code. Astro gives every page the hashes of
 * every script and style of the site. A page's scripts are allowed by the hashes of its own that
 * Astro hashed, and of those the build joined (src/integrations/fewer-scripts.ts) whose every part
 * Astro hashed: a script Astro did not make (one written into the content) stays refused. Its styles
 * are allowed by the hashes of its own <style> elements, every one of the built file (Astro's, and
 * the one TechnologyList.astro makes from the content, which Astro does not hash). A tighter policy,
 * and a header some 2 KB lighter, which a first response that must fit one round trip needs. No
 * inline style otherwise: no style attribute, nothing a script writes as one.
 */
export function ownInlineHashes(csp: string, html: string): string {
  const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src '));
  const astros = new Set([...(scriptSrc ?? '').matchAll(/'sha256-([^']+)'/g)].map((m) => m[1]!));
  const byAstro = (code: string) => astros.has(sha256(code));
  const scripts = inlineElements(html, 'script')
    .filter(({ attributes }) => runsContent(attributes))
    .filter(({ attributes, content }) => {
      if (byAstro(content)) return true;
      const parts = joinedParts(content, /\btype="module"/.test(attributes) ? 'module' : 'classic');
      return parts !== undefined && parts.every(byAstro);
    })
    .map(({ content }) => content);
  const styles = inlineElements(html, 'style').map(({ content }) => content);
  return csp
    .split(';')
    .map((directive) => {
      const name = directive.trim().split(' ')[0];
      // With 'unsafe-inline' (a policy that allows any), a hash would take its place: left as it is.
      if ((name === 'script-src' || name === 'style-src') && !directive.includes("'unsafe-inline'"))
        return (
          directive.replace(/ 'sha256-[^']+'/g, '').trimEnd() +
          hashes(name === 'script-src' ? scripts : styles)
        );
      return directive;
    })
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
 * with `staticHeaders`, narrowed to the page's own scripts and styles. Looked up by exact
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
      csps.set(pathname, html === undefined ? csp.value : ownInlineHashes(csp.value, html));
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

/** A build as the server serves it: Astro's handler, its files indexed, its pages' CSPs. */
export interface PreparedSite {
  handler: NodeHandler;
  distDir: string;
  csps: ReadonlyMap<string, string>;
  notFoundCsp: string | undefined;
  files: Map<string, StaticFile>;
}

/** A build (`distDir`, with its loaded `handler`) made ready to serve: read once, before it serves. */
export function prepareSite(handler: NodeHandler, distDir: string): PreparedSite {
  const csps = loadPageCsps(distDir);
  return {
    handler,
    distDir,
    csps,
    notFoundCsp: csps.get('/404'),
    files: indexStaticFiles(join(distDir, 'client')),
  };
}

export interface SiteServerOptions {
  handler?: NodeHandler;
  distDir?: string;
  /**
   * The build to serve, asked at each request: the live release, which a publish switches while
   * the server serves (../releases/live-site.ts). `handler` and `distDir` otherwise.
   */
  site?: () => PreparedSite;
  trustedProxies?: string[];
  /** SITE_URL's origin: when it is https, every response carries HSTS. */
  siteUrl?: string | undefined;
  limits: ConnectionLimits;
  /** Where a request that failed is reported, one line each. */
  log?: (line: string) => void;
  /** EDITING=on: the visual editor's addresses go to Astro, whose middleware hands them on. */
  editing?: boolean;
}

export function isHttps(req: IncomingMessage, trustedProxies: string[]) {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  return (
    isTrustedProxy(req.socket.remoteAddress ?? '', trustedProxies) &&
    req.headers['x-forwarded-proto'] === 'https'
  );
}

/** A short answer the server gives itself: plain text, or nothing for HEAD. */
function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

const errorPage = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Something went wrong</title><h1>Something went wrong</h1><p>This page could not be shown just now. Please try again in a minute, or go to the <a href="/">home page</a>.</p></html>`;

/** A path or reason for a log line: no control character of the request's reaches the terminal. */
const loggable = (value: string) => terminalText(value, 300);

/**
 * A request's path as the log shows it: without its query, where the signed links of a call and
 * the staff's sign-in tokens travel (secrets), and a visitor's own words could.
 */
const loggablePath = (url: string) => loggable(url.split('?')[0] ?? '/');

/** A request id a trusted proxy may hand on (Caddy's `{http.request.uuid}`): short and plain only. */
const PROXY_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** `text/html` as Astro sends its on-demand pages, with the charset a browser must not guess. */
function withCharset(headers: unknown) {
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return;
  const record = headers as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (name.toLowerCase() === 'content-type' && /^text\/html\s*$/i.test(String(record[name]))) {
      record[name] = 'text/html; charset=utf-8';
    }
  }
}

/** How long a connection whose request was answered unread stays open (see lingerIfUnread). */
const LINGER_MS = 1_000;

export function createSiteServer({
  handler,
  distDir,
  site,
  trustedProxies = [],
  siteUrl,
  limits,
  log = serverLog.error,
  editing = false,
}: SiteServerOptions) {
  const fail = failure(log);
  const fixed = site ? undefined : prepareSite(handler!, distDir!);
  const respond = responder({
    site: site ?? (() => fixed!),
    trustedProxies,
    siteUrl,
    fail,
    editing,
    visitorTurn: limitPerVisitor(limits.maxConnectionsPerClient, trustedProxies),
  });
  const server = createServer({
    // Node refuses a head timeout longer than the whole request's.
    headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
    requestTimeout: limits.requestTimeoutMs,
    // Node looks for expired requests this often; at its default (30 s) a 10 s limit meant 10-40 s.
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs / 2),
    // An idle connection is said to last 5 s (the Keep-Alive header) but closed after 15: a client
    // that drops it when told (Node's fetch, 2 s early) has 12 s of leeway, not 3, before it could
    // send a post down a connection the server is closing, and lose it ("other side closed", when a
    // busy machine's timer ran late). Caddy, which reads no header, drops it after 4 s (its
    // `keepalive`, deploy/Caddyfile). Not longer: idle connections count towards a client's limit.
    keepAliveTimeout: 5_000,
    keepAliveTimeoutBuffer: 10_000,
  });
  const inHand = stopGently(server);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Every line logged while this request is answered (Astro's too) carries its id.
    const id = requestId(req, trustedProxies);
    inHand(res);
    withRequestId(id, () => {
      try {
        respond(req, res);
      } catch (error) {
        fail(req, res, error);
      }
    });
  });
  server.maxConnections = limits.maxConnections;
  limitPerClient(server, limits.maxConnectionsPerClient, trustedProxies);
  refuseWhatNodeRefuses(server);
  return server;
}

type Fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => void;

/** Whatever went wrong while handling a request: a 500 with a short page, one line in the log. */
const failure =
  (log: (line: string) => void): Fail =>
  (req, res, error) => {
    const reason = error instanceof Error ? error.message : String(error);
    log(`500 ${req.method} ${loggablePath(req.url ?? '/')}: ${loggable(reason)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': fallbackCsp,
      Connection: 'close',
    });
    res.end(req.method === 'HEAD' ? undefined : errorPage);
  };

/** A request's id: the one a trusted proxy gave, so that both logs name it alike, or our own. */
function requestId(req: IncomingMessage, trustedProxies: string[]) {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' &&
    PROXY_REQUEST_ID.test(given) &&
    isTrustedProxy(req.socket.remoteAddress ?? '', trustedProxies)
    ? given
    : randomUUID();
}

/** Each request: its headers, then a refusal, the build's file, or Astro's page. */
function responder({
  site,
  trustedProxies,
  siteUrl,
  fail,
  editing,
  visitorTurn,
}: Pick<SiteServerOptions, 'siteUrl'> & {
  site: () => PreparedSite;
  trustedProxies: string[];
  fail: Fail;
  editing: boolean;
  visitorTurn: (req: IncomingMessage, res: ServerResponse) => boolean;
}) {
  const compress = compression();
  const httpsSite = siteUrl?.startsWith('https:') ?? false;
  const render = (handler: NodeHandler, req: IncomingMessage, res: ServerResponse) => {
    // A throw inside the handler, before or after its first await, is this request's failure only.
    try {
      Promise.resolve(handler(req, res)).catch((error: unknown) => fail(req, res, error));
    } catch (error) {
      fail(req, res, error);
    }
  };
  const toAstro = (built: PreparedSite, req: IncomingMessage, res: ServerResponse) => {
    withPageHeaders(res, built.notFoundCsp);
    // HEAD is GET without the body, for every address that takes GET: the route's GET runs, and
    // Node, which made this response for a HEAD, sends its head alone.
    if (req.method === 'HEAD') req.method = 'GET';
    // Pages are compressed; a form's fetch gets a few hundred bytes of JSON, not worth the wrapping
    // of every enquiry's answer. (compression's types are Express's; it uses Node's own objects.)
    if (req.method === 'GET' || String(req.headers.accept ?? '').includes('text/html')) {
      compress(req as never, res as never, () => render(built.handler, req, res));
    } else {
      render(built.handler, req, res);
    }
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    lingerIfUnread(req, res);
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    if (httpsSite || isHttps(req, trustedProxies)) res.setHeader('Strict-Transport-Security', HSTS);
    res.setHeader('Content-Security-Policy', fallbackCsp);
    if (!visitorTurn(req, res))
      return answer(req, res, 429, 'Too many requests at once: try again in a moment.', {
        'Retry-After': '1',
      });
    if (!addressedPlainly(req))
      return answer(req, res, 400, 'The request names no host this server can read.');
    // One build for the whole request, whichever is switched live meanwhile.
    const built = site();
    // The draft's preview mode (EDITING=on): Astro's middleware answers from the preview's build,
    // a file of the live build's address under PREVIEW_FILES (Astro would answer it 404 itself).
    if (
      editing &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      inPreview(req.headers.cookie)
    ) {
      if (lookup(built.files, req.url ?? '/')) req.url = `${PREVIEW_FILES}${req.url}`;
      return toAstro(built, req, res);
    }
    const route = routeOf(req.method ?? 'GET', req.url ?? '/', built.files, editing);
    if ('status' in route) return answer(req, res, route.status, route.text, route.headers);
    if ('allow' in route) {
      res.writeHead(204, { Allow: route.allow, 'Cache-Control': 'no-store' });
      res.end();
      return;
    }
    if ('file' in route) return serveFile(req, res, route.file, built.csps);
    toAstro(built, req, res);
  };
}

/** A Host as RFC 9110 spells one: a name or an address in brackets, and a port. */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * Whether the request names its host and path as the routes and Astro read them. A whole URL as
 * its target (RFC 9112's absolute form, which a server must take) becomes its path and query, its
 * authority the Host. A Host that is no host (credentials, spaces, a bracket left open) would be
 * Astro's 500, with the address, a link's token included, in its log; or its "localhost".
 */
function addressedPlainly(req: IncomingMessage): boolean {
  const target = req.url ?? '/';
  if (/^https?:\/\//i.test(target)) {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return false;
    }
    if (url.username || url.password) return false;
    req.url = `${url.pathname}${url.search}`;
    req.headers.host = url.host;
  }
  const host = req.headers.host;
  // HTTP/1.0 may name none (Node refuses an HTTP/1.1 request without one).
  return host === undefined || HOST.test(host);
}

/**
 * Answered before its body was read (refused for its size, its method, its origin): Node reads
 * the rest and drops it, and the connection is closed a moment later if the body is still
 * coming. Not at once: closing while the client still sends resets the connection, and the
 * client may lose the answer it was given. Once the body has all come, the connection is kept:
 * the answer said keep-alive, so the client may already be sending its next request on it,
 * which closing it then would cut off (a refused post's next one, often a valid enquiry).
 */
function lingerIfUnread(req: IncomingMessage, res: ServerResponse) {
  res.once('finish', () => {
    if (req.complete) return;
    // The socket may be gone already (a body Astro's adapter cut off at its limit destroys it).
    const linger = setTimeout(() => req.socket?.destroy(), LINGER_MS).unref();
    req.once('end', () => clearTimeout(linger));
  });
}

/** The visual editor's addresses (EDITING=on), which src/server/staff/editing.ts gates. */
const editorRoutes = { methods: EDITOR_METHODS };

/**
 * The policy of an on-demand address: with editing off, the editor's addresses are none (its
 * Preview's page included), so that any method there is not found, as a GET is.
 */
function routePolicy(path: string, editing: boolean): RoutePolicy | undefined {
  if (!isEditorAddress(path)) return onDemandRoutes[path];
  return editing ? (onDemandRoutes[path] ?? editorRoutes) : undefined;
}

/** What a request gets, by its method and address: a refusal, OPTIONS' answer, a file, or Astro. */
type Route =
  | { status: number; text: string; headers?: Record<string, string> }
  | { allow: string }
  | { file: StaticFile }
  | { astro: true };

function routeOf(
  method: string,
  url: string,
  files: Map<string, StaticFile>,
  editing: boolean,
): Route {
  if (!KNOWN_METHODS.has(method))
    return { status: 501, text: `This server does not take ${method} requests.` };
  const path = routePath(url);
  if (path === undefined) return { status: 400, text: 'The address is malformed.' };
  const file = lookup(files, url);
  const policy = file ? staticFiles : routePolicy(path, editing);
  // An address the site does not have: its not-found page, for any method that reads one.
  const allowed = policy ?? staticFiles;
  if (method === 'OPTIONS') return { allow: allowHeader(allowed) };
  if (!(allowed.methods as readonly string[]).includes(method))
    return policy
      ? {
          status: 405,
          text: `Use ${allowHeader(policy)} here.`,
          headers: { Allow: allowHeader(policy) },
        }
      : { status: 404, text: 'There is nothing at this address.' };
  return file ? { file } : { astro: true };
}

/** A file of the build, with its page's CSP (a page), the worker's (/sw.js) or the fallback. */
function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: StaticFile,
  csps: ReadonlyMap<string, string>,
) {
  const pageCsp = file.type.startsWith('text/html')
    ? csps.get(pagePath(req.url ?? '/'))
    : undefined;
  const worker = req.url?.split('?')[0] === '/sw.js';
  res.setHeader('Content-Security-Policy', pageCsp ?? (worker ? workerCsp : fallbackCsp));
  // A prerendered page is the same for everyone and holds nothing of a visitor's, so the opener
  // policy protects nothing there; but opened from a page without it (a new tab, a bookmark, most
  // links), it made Chromium start a renderer process of its own for the page: some 150 ms of a
  // phone's main thread before the first paint (docs/benchmarks.md). The pages that hold a session,
  // a token or a visitor's answer are rendered on demand and keep it: the desk, the editor, a
  // booking's pages, a form's answer.
  if (pageCsp) res.removeHeader('Cross-Origin-Opener-Policy');
  serveStatic(req, res, file);
}

/**
 * Astro's HTML with its charset, and the not-found page (served for any unknown path) with its own
 * CSP, not the fallback; a page of its own answering 404 (a booked call's page of an unknown
 * reference) keeps the CSP Astro gave it, which the not-found page's replaced: its styles and
 * scripts were refused. A page that sets its status keeps Astro's reason phrase "OK" ("400 OK"):
 * each status gets its own.
 */
function withPageHeaders(res: ServerResponse, notFoundCsp: string | undefined) {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status !== 200 && res.statusMessage === 'OK')
      res.statusMessage = STATUS_CODES[status] ?? '';
    for (const headers of rest) withCharset(headers);
    const type = String(res.getHeader('content-type') ?? '');
    if (/^text\/html\s*$/i.test(type)) res.setHeader('Content-Type', 'text/html; charset=utf-8');
    const ownCsp = res.getHeader('content-security-policy') !== fallbackCsp;
    if (status === 404 && notFoundCsp && !ownCsp && (type.includes('text/html') || type === '')) {
      res.setHeader('Content-Security-Policy', notFoundCsp);
    }
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
}

/**
 * A server that is stopping (`close()`, on SIGTERM: ../main.ts) answers the requests in hand, each
 * with `Connection: close`, and closes each connection as its answer ends rather than at its
 * keep-alive timeout; Node's own close() would keep them open for the next request. What each
 * response is handed to, as its request arrives.
 */
function stopGently(server: Server): (res: ServerResponse) => void {
  let stopping = false;
  const inHand = new Set<ServerResponse>();
  const close = server.close.bind(server);
  server.close = ((callback?: (error?: Error) => void) => {
    stopping = true;
    for (const res of inHand) if (!res.headersSent) res.setHeader('Connection', 'close');
    return close(callback);
  }) as typeof server.close;
  return (res) => {
    if (stopping) res.setHeader('Connection', 'close');
    inHand.add(res);
    res.once('close', () => {
      inHand.delete(res);
      if (stopping) server.closeIdleConnections();
    });
  };
}

/**
 * One client (an IPv6 /64 counts as one, ../networks.ts) cannot hold every connection the server
 * has. A trusted proxy's are not counted: its visitors' requests are (limitPerVisitor).
 */
function limitPerClient(server: Server, most: number, trustedProxies: string[]) {
  const perClient = new Map<string, number>();
  server.on('connection', (socket) => {
    const socketAddress = socket.remoteAddress ?? '';
    if (isTrustedProxy(socketAddress, trustedProxies)) return;
    const address = clientNetwork(socketAddress);
    const open = (perClient.get(address) ?? 0) + 1;
    if (open > most) {
      socket.destroy();
      return;
    }
    perClient.set(address, open);
    socket.once('close', () => {
      const left = (perClient.get(address) ?? 1) - 1;
      if (left > 0) perClient.set(address, left);
      else perClient.delete(address);
    });
  });
}

/**
 * Behind a trusted proxy, whose connections limitPerClient does not count (Caddy's carry every
 * visitor's requests), one visitor (its X-Forwarded-For network) may have as many requests in hand
 * as a client may have connections: whether this request is within them. The proxy's own (its
 * health checks) are not counted.
 */
function limitPerVisitor(most: number, trustedProxies: string[]) {
  const inHand = new Map<string, number>();
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const socket = req.socket.remoteAddress ?? '';
    if (!isTrustedProxy(socket, trustedProxies)) return true;
    // A list by its type only: Node joins a repeated one into one line.
    const forwarded = req.headers['x-forwarded-for'];
    const hops = Array.isArray(forwarded) ? forwarded.join(', ') : (forwarded ?? null);
    const client = clientAddress(socket, hops, trustedProxies);
    if (isTrustedProxy(client, trustedProxies)) return true;
    const visitor = clientNetwork(client);
    const open = (inHand.get(visitor) ?? 0) + 1;
    if (open > most) return false;
    inHand.set(visitor, open);
    res.once('close', () => {
      const left = (inHand.get(visitor) ?? 1) - 1;
      if (left > 0) inHand.set(visitor, left);
      else inHand.delete(visitor);
    });
    return true;
  };
}

/**
 * Requests Node's parser refuses never reach the handler: a method it does not know (TRACK, a
 * made-up one) gets 501, a head too large 431, one too slow 408, anything else 400. CONNECT asks
 * the server to be a proxy, which it is not.
 */
function refuseWhatNodeRefuses(server: Server) {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'HPE_INVALID_METHOD'
        ? 501
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? 431
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? 408
            : 400;
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });
}
