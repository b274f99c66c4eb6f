/**
 * `npm start`: serves the production build (dist/) with the security headers
 * of ./http/server.ts. Node runs this file directly (type stripping), after
 * `astro build` has produced dist/server/entry.mjs.
 */
import { get } from 'node:http';
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serverConfig } from './config.ts';
import { createSiteServer, type NodeHandler } from './http/server.ts';
import { finishBeforeExit } from './shutdown.ts';
// Before the build: names the calendars' worker file (source, not dist/) for the build's copy.
import './calendars/workers.ts';

// The production server renders with React's production build whatever the shell says: under
// another NODE_ENV (a test runner's `test`, or none) react-dom picks its development build, which
// renders a page such as /schedule about a fifth slower and warns into the log.
process.env.NODE_ENV = 'production';

const config = serverConfig();
const distDir = resolve(config.distDir);
const { handler } = (await import(pathToFileURL(join(distDir, 'server/entry.mjs')).href)) as {
  handler: NodeHandler;
};
const { host, port } = config.listen;
const server = createSiteServer({
  handler,
  distDir,
  trustedProxies: config.trustedProxies,
  siteUrl: config.siteUrl,
  limits: config.connections,
});

server.listen(port, host, () => {
  const shown = host === '127.0.0.1' || host === '::1' ? 'localhost' : host;
  console.info(`Serving the site at http://${shown}:${port}`);
  if (!config.siteUrl)
    console.warn(
      'SITE_URL is not set: the forms take posts only from pages opened at this machine (localhost, 127.0.0.1). ' +
        'In production, set SITE_URL to the public address, e.g. SITE_URL=https://www.example.com (README, Configuration).',
    );
  // Opens the enquiry store and starts the outbox now, not at the first enquiry.
  const local =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  // node:http, which the server has loaded already, rather than fetch, whose client (undici) is a
  // twentieth of a start's CPU to load for this one request.
  get(`http://${local}:${port}/healthz`, (health) => {
    health.resume();
    if (health.statusCode !== 200)
      console.error(`The enquiry store is not writable (healthz answered ${health.statusCode}).`);
  }).on('error', (error) => console.error('Could not reach /healthz after starting:', error));
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // No new requests; what is queued (field data's measurements) is written, then the process ends.
    server.close();
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 2000).unref();
    void finishBeforeExit(1500).then(() => process.exit(0));
  });
}
