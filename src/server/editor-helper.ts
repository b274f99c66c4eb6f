/**
 * The visual editor's helper process (`EDITING=on`): started and stopped by the site's server
 * (./staff/editing.ts, from ./main.ts), never by the operator. It serves the editor's production
 * build (dist-editor/, astro.editor.config.mjs: Keystatic and the editor's own routes) on a unix
 * socket only the server's user can open; the server lets through signed-in editors only. Its
 * working folder is the draft (`<EDITING_DIR>/draft`), where Keystatic's local API and the editor's
 * routes read and write; the site's pages are read from EDITOR_SITE_ROOT (the project).
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { indexStaticFiles, lookup, serveStatic } from './http/static-files.ts';
import type { NodeHandler } from './http/server.ts';

// Keystatic's local API and React run as built for production.
process.env.NODE_ENV = 'production';

const socket = process.env.EDITOR_SOCKET;
const distDir = process.env.EDITOR_DIST;
if (!socket || !distDir) {
  console.error('The editor helper is started by the site server (EDITING=on), not by hand.');
  process.exit(1);
}
const built = resolve(distDir);
const { handler } = (await import(pathToFileURL(join(built, 'server/entry.mjs')).href)) as {
  handler: NodeHandler;
};
// The editor's scripts and styles (/_keystatic/…), as the site's server serves its own.
const files = indexStaticFiles(join(built, 'client'));

const server = createServer((req, res) => {
  const file =
    req.method === 'GET' || req.method === 'HEAD' ? lookup(files, req.url ?? '/') : undefined;
  if (file) return serveStatic(req, res, file);
  Promise.resolve(handler(req, res)).catch((error: unknown) => {
    console.error(`The editor failed on ${req.method} ${req.url?.split('?')[0]}: ${String(error)}`);
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('The editor failed.');
  });
});

rmSync(socket, { force: true });
server.listen(socket, () => {
  // Only this user's processes (the site's server) may connect; its folder is 0700 too.
  chmodSync(socket, 0o600);
  // Told once the site's server still listens for it (it may have stopped meanwhile).
  if (process.connected) process.send?.('listening');
});

const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// The site's server gone (crashed, killed): the helper does not outlive it.
process.once('disconnect', stop);
