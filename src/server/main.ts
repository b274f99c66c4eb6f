/**
 * `npm run serve` (through ./serve.mjs, which checks the Node and the build first): serves the
 * production build (dist/) with the security headers of ./http/server.ts. Node runs this file
 * directly (type stripping), after `astro build` has produced dist/server/entry.mjs.
 */
import { get } from 'node:http';
import { resolve } from 'node:path';
import { serverConfig, staffSecretProblem } from './config.ts';
import { createSiteServer } from './http/server.ts';
import { liveSite } from './releases/live-site.ts';
import { finishBeforeExit, isStopping, markStopping, onShutdown } from './shutdown.ts';
import { log, routeConsole, setLogFormat } from './log.ts';
import { exposedFiles, keyFileProblem, keyFiles, sqliteFiles } from './private-files.ts';
// Before the build: name the calendars' and the store's worker files (source, not dist/) for the
// build's copy.
import './calendars/workers.ts';
import './store/read-aside.ts';

// The production server renders with React's production build whatever the shell says: under
// another NODE_ENV (a test runner's `test`, or none) react-dom picks its development build, which
// renders a page such as /schedule about a fifth slower and warns into the log.
process.env.NODE_ENV = 'production';

const config = serverConfig();
// Every line of this process, Astro's included, in the one format (LOG_FORMAT).
setLogFormat(config.logFormat === 'json');
routeConsole();
// A setting given by its old name still works: said once, with the name to use.
for (const warning of config.warnings) log.warn(warning);
// Not a server on a setting it cannot use (a PORT, SITE_URL, ALLOWED_ORIGINS, DATABASE_URL or
// SMTP_URL that is not one), nor one whose store or keys other users of the machine can read, nor
// one whose links a short key signs: one line saying what to do, and no start.
const refusal =
  (config.invalid.length ? config.invalid.join(' ') : undefined) ??
  staffSecretProblem(config.staffSecret) ??
  exposedFiles(
    [...(config.databaseUrl ? [] : sqliteFiles(config.databasePath)), ...keyFiles(config.keysDir)],
    // The drafts and releases (EDITING) are the site's user's alone, as the store is.
    [config.keysDir, ...(config.editing.enabled ? [config.editing.editingDir] : [])],
  ) ??
  keyFileProblem(config.keysDir);
if (refusal) {
  log.error(refusal);
  process.exit(1);
}
// The live release when editing is on (switched by a publish while serving), else dist/.
const live = await liveSite({ ...config, distDir: resolve(config.distDir) }, log);
const { host, port } = config.listen;
const server = createSiteServer({
  site: live.current,
  trustedProxies: config.trustedProxies,
  siteUrl: config.siteUrl,
  limits: config.connections,
  editing: config.editing.enabled,
});

/** Why the server cannot listen at `address`, as an operator reads it: one line, no stack trace. */
function listenProblem(error: NodeJS.ErrnoException, address: string) {
  switch (error.code) {
    case 'EADDRINUSE':
      return `Cannot serve the site: another process listens on ${address}: is the site already running? (Stop it, or set PORT.)`;
    case 'EACCES':
      return `Cannot serve the site: this user may not listen on ${address} (ports under 1024 need root or CAP_NET_BIND_SERVICE): set PORT to 1024 or above, behind a proxy.`;
    case 'EADDRNOTAVAIL':
      return `Cannot serve the site: ${address} is not an address of this machine (HOST).`;
    // A HOST that is neither an address (999.1.1.1) nor a name the machine can look up.
    case 'ENOTFOUND':
      return `Cannot serve the site on ${address}: HOST is not an address, nor a name this machine knows.`;
    default:
      return `Cannot serve the site on ${address}: ${error.message}`;
  }
}

const listening = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
const cannotListen = (error: NodeJS.ErrnoException) => {
  log.error(listenProblem(error, listening));
  process.exit(1);
};
server.once('error', cannotListen);
server.listen(port, host, () => {
  server.off('error', cannotListen);
  // EDITING=on: the visual editor's helper process, once the site is served; stopped with it.
  // Loaded only then: the editor's request handling brings the desk's and the bookings' code (the
  // build's copy is what serves them), which a server without the editor need not load. Not
  // started if the server began to stop meanwhile.
  if (config.editing.enabled)
    import('./staff/editing.ts').then(
      ({ startEditorHelper }) => {
        if (isStopping()) return;
        const helper = startEditorHelper(config, resolve(import.meta.dirname, '../..'));
        onShutdown(() => helper.stop());
      },
      (error: unknown) => log.error(`The visual editor could not be loaded: ${String(error)}`),
    );
  const shown = host === '127.0.0.1' || host === '::1' ? 'localhost' : host;
  log.info(`Serving the site at http://${shown}:${port}`);
  if (!config.siteUrl)
    log.warn(
      'SITE_URL is not set: the forms take posts only from pages opened at this machine (localhost, 127.0.0.1). ' +
        'In production, set SITE_URL to the public address, e.g. SITE_URL=https://www.example.com (README, Configuration).',
    );
  // Opens the enquiry store and starts the queue of jobs now, not at the first enquiry.
  const local =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  // node:http, which the server has loaded already, rather than fetch, whose client (undici) is a
  // twentieth of a start's CPU to load for this one request.
  get(`http://${local}:${port}/healthz`, (health) => {
    health.resume();
    if (health.statusCode !== 200)
      log.error(`The enquiry store is not writable (healthz answered ${health.statusCode}).`);
  }).on('error', (error) => log.error(`Could not reach /healthz after starting: ${String(error)}`));
});

/**
 * A restart loses nothing it has acknowledged, nor cuts off what it has begun. First, with
 * STOP_DRAIN_MS, /healthz answers 503 while the process still serves, until the balancer has taken
 * it out; then no new connections, idle ones closed, each request in hand answered (its connection
 * closed after it: ./http/server.ts), for at most `stopGraceMs`; then what is queued (field data's
 * measurements, the e-mails being sent) is finished, and the process ends.
 */
async function stop(signal: string) {
  markStopping();
  if (config.stopDrainMs > 0) {
    log.info(`${signal}: /healthz says stopping; serving on for ${config.stopDrainMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, config.stopDrainMs));
  }
  log.info(`${signal}: finishing the requests in hand, then stopping.`);
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, config.stopGraceMs)));
  await Promise.race([closed, late]);
  clearTimeout(timer);
  server.closeAllConnections();
  await finishBeforeExit(1500);
  process.exit(0);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    setTimeout(() => process.exit(0), config.stopDrainMs + config.stopGraceMs + 2000).unref();
    void stop(signal);
  });
}
