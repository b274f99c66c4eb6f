/**
 * The visual editor (Keystatic, local mode) in `astro dev` only: /keystatic and /api/keystatic are
 * added with their own Content-Security-Policy (./editor-csp.ts) when the command is `dev`, and
 * nothing of Keystatic is loaded otherwise, so `astro build` and `npm start` have no editor route
 * and no editor code. The editor's schema is keystatic.config.ts (src/editor/).
 */
import type { AstroIntegration } from 'astro';

/** The editor's routes, as Astro names them (`context.routePattern`). */
export const EDITOR_ROUTES: ReadonlySet<string> = new Set([
  '/keystatic/[...params]',
  '/api/keystatic/[...params]',
]);

export default function editor(): AstroIntegration {
  return {
    name: 'editor',
    hooks: {
      'astro:config:setup': async ({ command, updateConfig, addMiddleware }) => {
        if (command !== 'dev') return;
        // Loaded here, not at the top: a build never imports Keystatic. An integration added with
        // updateConfig in this hook has its own setup run after this one (Astro 7 loops over the
        // integrations list as it grows).
        const { default: keystatic } = await import('@keystatic/astro');
        updateConfig({ integrations: [keystatic()] });
        addMiddleware({
          order: 'pre',
          entrypoint: new URL('./editor-csp.ts', import.meta.url),
        });
      },
      'astro:server:start': ({ address, logger }) => {
        const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        logger.info(`Visual editor: open http://${host}:${address.port}/keystatic`);
      },
    },
  };
}
