/**
 * Serving the build's static files: an index made at start (so only files of
 * the build can be served, and a lookup costs no disk access), the brotli or
 * gzip copy made at build time when the client accepts it, hashed assets
 * cached for a year, pages revalidated with their ETag.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

interface Variant {
  file: string;
  size: number;
}

export interface StaticFile extends Variant {
  type: string;
  etag: string;
  cacheControl: string;
  br?: Variant;
  gzip?: Variant;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** Maps each servable URL path of the build to its file. */
export function indexStaticFiles(clientDir: string): Map<string, StaticFile> {
  const index = new Map<string, StaticFile>();
  let files: string[];
  try {
    files = [...walk(clientDir)];
  } catch {
    return index;
  }
  const present = new Set(files);
  for (const file of files) {
    if (file.endsWith('.br') || file.endsWith('.gz')) continue;
    const rel = relative(clientDir, file).split(sep).join('/');
    // The not-found page answers unknown paths with status 404; it is not a page of its own.
    if (rel === '404.html') continue;
    const stat = statSync(file);
    const variant = (suffix: string) =>
      present.has(file + suffix)
        ? { file: file + suffix, size: statSync(file + suffix).size }
        : undefined;
    const hashed = rel.startsWith('_astro/');
    const entry: StaticFile = {
      file,
      size: stat.size,
      type: types[extname(file).toLowerCase()] ?? 'application/octet-stream',
      etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      // Hashed names change with their content; everything else must be checked again each time.
      cacheControl: hashed
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=0, must-revalidate',
      br: variant('.br'),
      gzip: variant('.gz'),
    };
    const url = `/${rel}`;
    index.set(url, entry);
    if (url.endsWith('/index.html')) {
      const dir = url.slice(0, -'index.html'.length);
      index.set(dir, entry);
      if (dir !== '/') index.set(dir.slice(0, -1), entry);
    }
  }
  return index;
}

/** The file for a request's path, if it is one of the build's. */
export function lookup(index: Map<string, StaticFile>, url: string): StaticFile | undefined {
  const path = url.split('?')[0] ?? '/';
  try {
    return index.get(decodeURIComponent(path));
  } catch {
    return undefined;
  }
}

/** The encoding to send: brotli, then gzip, when the client accepts it and the build made one. */
function encoding(req: IncomingMessage, file: StaticFile): ['br' | 'gzip', Variant] | undefined {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const accepts = (name: string) => new RegExp(`\\b${name}\\b(?!;q=0(\\.0*)?\\b)`).test(accepted);
  if (file.br && accepts('br')) return ['br', file.br];
  if (file.gzip && accepts('gzip')) return ['gzip', file.gzip];
  return undefined;
}

export function serveStatic(req: IncomingMessage, res: ServerResponse, file: StaticFile) {
  res.setHeader('Content-Type', file.type);
  res.setHeader('Cache-Control', file.cacheControl);
  res.setHeader('ETag', file.etag);
  // No Last-Modified: revalidation is by ETag alone, and each header costs the first response bytes.
  if (file.br || file.gzip) res.setHeader('Vary', 'Accept-Encoding');
  if (req.headers['if-none-match'] === file.etag) {
    res.writeHead(304);
    res.end();
    return;
  }
  const chosen = encoding(req, file);
  const body = chosen ? chosen[1] : file;
  if (chosen) res.setHeader('Content-Encoding', chosen[0]);
  res.setHeader('Content-Length', body.size);
  res.writeHead(200);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(body.file)
    .on('error', () => res.destroy())
    .pipe(res);
}
