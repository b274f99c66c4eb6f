/**
 * The visual editor (Keystatic, local mode) in `astro dev` only: /keystatic and /api/keystatic are
 * added with their own Content-Security-Policy (./editor-csp.ts) when the command is `dev`, and
 * nothing of Keystatic is loaded otherwise, so `astro build` and `npm start` have no editor route
 * and no editor code. The editor's schema is keystatic.config.ts (src/editor/).
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { isRunnableDevEnvironment, type EnvironmentModuleNode, type Plugin } from 'vite';
import { imageUploadPath } from '../domain/images.ts';

/** The editor's routes, as Astro names them (`context.routePattern`). */
export const EDITOR_ROUTES: ReadonlySet<string> = new Set([
  '/keystatic/[...params]',
  '/api/keystatic/[...params]',
  imageUploadPath,
]);

const assetsFolder = fileURLToPath(new URL('../assets/', import.meta.url));

/**
 * An image uploaded through the editor lands in src/assets, which both the editor's schema and the
 * site's pages list with `import.meta.glob`: Vite, then Astro, would reload every open page for it,
 * closing the editor's item half-edited. The editor's field adds the new name itself
 * (src/editor/image-field.tsx), so browsers are not told; the server forgets the modules that list
 * the folder, as Astro would, so that the site's pages show the image from the next request on.
 */
function keepEditorOpenOnUpload(): Plugin {
  return {
    name: 'editor:keep-open-on-upload',
    apply: 'serve',
    hotUpdate: {
      // Before Astro's own handler (astro:hmr-reload, also 'post'), which would reload browsers.
      order: 'post',
      handler({ type, file, modules, timestamp }) {
        if (type !== 'create' || !file.startsWith(assetsFolder)) return;
        if (this.environment.name === 'client') return [];
        const invalidated = new Set<EnvironmentModuleNode>();
        for (const module of modules)
          this.environment.moduleGraph.invalidateModule(module, invalidated, timestamp, true);
        if (isRunnableDevEnvironment(this.environment)) {
          const evaluated = this.environment.runner.evaluatedModules;
          for (const module of invalidated) {
            const ran = module.id ? evaluated.getModuleById(module.id) : undefined;
            if (ran) evaluated.invalidateModule(ran);
          }
        }
        return [];
      },
    },
  };
}

export default function editor(): AstroIntegration {
  return {
    name: 'editor',
    hooks: {
      'astro:config:setup': async ({ command, updateConfig, addMiddleware, injectRoute }) => {
        if (command !== 'dev') return;
        // Loaded here, not at the top: a build never imports Keystatic. An integration added with
        // updateConfig in this hook has its own setup run after this one (Astro 7 loops over the
        // integrations list as it grows).
        const { default: keystatic } = await import('@keystatic/astro');
        updateConfig({
          integrations: [keystatic()],
          vite: { plugins: [keepEditorOpenOnUpload()] },
        });
        injectRoute({
          pattern: imageUploadPath,
          entrypoint: new URL('./editor-images.ts', import.meta.url),
          prerender: false,
        });
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
