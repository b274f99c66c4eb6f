import type { Plugin } from 'vite';

/**
 * The dev server tells a client that it keeps an idle connection 5 s (Node's default, its Keep-Alive
 * header) and closed it a second later: a client whose timer ran late on a busy machine sent its next
 * request down a connection being closed, and had it reset (the editor's browser tests, "read
 * ECONNRESET" on a request made after a pause). It still says 5 s but keeps it 15, as the site's
 * server does (src/server/http/server.ts): a client that drops it when told has 11 s of leeway.
 */
export function idleConnectionsOutlastTheirHint(): Plugin {
  return {
    name: 'editor:idle-connections-outlast-their-hint',
    apply: 'serve',
    configureServer(server) {
      const http = server.httpServer;
      if (http && 'keepAliveTimeoutBuffer' in http) http.keepAliveTimeoutBuffer = 10_000;
    },
  };
}
