/**
 * The visual editor (Keystatic, local mode) in `astro dev` only: /keystatic and /api/keystatic are
 * added with their own Content-Security-Policy (./csp.ts) when the command is `dev`, and nothing of
 * Keystatic is loaded otherwise, so `astro build` and `npm start` have no editor route and no editor
 * code. The editor's schema is keystatic.config.ts (src/editor/schema.ts); what runs in the browser
 * is in src/editor/browser/.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import {
  isRunnableDevEnvironment,
  searchForWorkspaceRoot,
  type EnvironmentModuleNode,
  type ErrorPayload,
  type Plugin,
  type ViteDevServer,
} from 'vite';
import { SITE_CHANGED_EVENT, SITE_RELOAD_EVENT, SITE_VERSION_TIMING } from '../events.ts';
import { assetHeaders } from './asset-headers.ts';
import { editorHistory } from './history/recorder.ts';
import { idleConnectionsOutlastTheirHint } from './keep-alive.ts';
import { tabsFollowWrites } from './content-written.ts';
import { keystaticFriction } from './keystatic-rewrites.ts';
import { keystaticSaves } from './keystatic-saves.ts';
import { tolerateFilesGoneWhileRead } from './keystatic-reads.ts';
import { writeSavesWhole } from './keystatic-writes.ts';
import { addEditorServer } from './server-pieces.ts';

const assetsFolder = fileURLToPath(new URL('../../assets/', import.meta.url));

/**
 * An image uploaded through the editor lands in src/assets, which both the editor's schema and the
 * site's pages list with `import.meta.glob`: Vite, then Astro, would reload every open page for it,
 * closing the editor's item half-edited. The editor's field adds the new name itself
 * (src/editor/fields/image/), so browsers are not told; every environment forgets the modules that
 * list the folder, as Astro would, so that the site's pages and the editor loaded from the next request
 * on list the image.
 */
function keepEditorOpenOnUpload(): Plugin {
  return {
    name: 'editor:keep-open-on-upload',
    apply: 'serve',
    hotUpdate: {
      // Before Astro's own handler (astro:hmr-reload, also 'post'), which would reload browsers.
      order: 'post',
      handler({ type, file, modules, timestamp }) {
        if ((type !== 'create' && type !== 'delete') || !file.startsWith(assetsFolder)) return;
        // Every environment forgets the modules that list the folder, the browser's included: the
        // editor's schema lists the images with the same glob, and a page loaded from now on (after
        // a Save, in a new tab) must offer the upload.
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

/**
 * The dev server's watcher reports a new file once it has stayed the same for a moment
 * (`awaitWriteFinish` below), and a file removed within that moment not at all. A folder listed
 * (the editor's schema) as a picture had just arrived, which then went at once, kept it: the
 * editor asked for that picture on every load, and failed to load until the dev server restarted.
 * A picture of src/assets asked for but gone is answered with its address all the same (its
 * thumbnail shows nothing), and its removal is reported as the watcher would have, so that what
 * lists the folder lists it as it is from the next load on.
 */
function picturesGoneWhileListed(): Plugin {
  let server: ViteDevServer | undefined;
  return {
    name: 'editor:pictures-gone-while-listed',
    apply: 'serve',
    enforce: 'pre',
    configureServer(devServer) {
      server = devServer;
    },
    load(id) {
      const [file = '', query] = id.split('?');
      if (query !== 'url' || !file.startsWith(assetsFolder) || existsSync(file)) return;
      setTimeout(() => server?.watcher.emit('unlink', file));
      return `export default ${JSON.stringify(`/${posix.relative(this.environment.config.root, file)}`)};`;
    },
  };
}

/** Astro's module of the content store (.astro/data-store.json), and the event it sends with it. */
const CONTENT_STORE_MODULE = '\0astro:data-layer-content';
const CONTENT_CHANGED_EVENT = 'astro:content-changed';
/**
 * A page of a new service made in the editor stayed "404" until the next Save, twice in loaded test
 * runs (the store on disk named it; /service did not list it). Astro forgets its content store as a
 * hot update, and Vite then keeps the result of a read of the store begun before it: a page asked
 * for at that moment, on a busy machine, left the store as it was before the Save in place for every
 * later page. So as Astro forgets the store, it is also forgotten as a change of file, under which
 * Vite keeps no read begun before; and once the requests under way then have all ended, every
 * environment forgets it and all that imports it once more, with its route cache, which one of them
 * could have filled again from the old store.
 */
function contentStoreSettles(): Plugin {
  return {
    name: 'editor:content-store-settles',
    apply: 'serve',
    configureServer(server) {
      const environments = Object.values(server.environments).filter(isRunnableDevEnvironment);
      /** When each request under way began. */
      const underWay = new Set<{ began: number }>();
      /** When the store last changed, until the requests under way then have ended. */
      let changedAt: number | undefined;
      let ours = false;
      const forget = (announce: boolean) => {
        for (const environment of environments) {
          const store = environment.moduleGraph.getModuleById(CONTENT_STORE_MODULE);
          if (!store) continue;
          const invalidated = new Set<EnvironmentModuleNode>();
          environment.moduleGraph.invalidateModule(store, invalidated, Date.now(), false);
          const { evaluatedModules } = environment.runner;
          for (const module of invalidated) {
            const ran = module.id ? evaluatedModules.getModuleById(module.id) : undefined;
            if (ran) evaluatedModules.invalidateModule(ran);
          }
          if (!announce) continue;
          ours = true;
          try {
            environment.hot.send(CONTENT_CHANGED_EVENT, {});
          } finally {
            ours = false;
          }
        }
      };
      const forgetOnceSettled = () => {
        if (changedAt === undefined) return;
        for (const request of underWay) if (request.began <= changedAt) return;
        changedAt = undefined;
        forget(true);
      };
      server.middlewares.use((_req, res, next) => {
        const request = { began: performance.now() };
        underWay.add(request);
        res.once('close', () => {
          underWay.delete(request);
          forgetOnceSettled();
        });
        next();
      });
      for (const environment of environments) {
        const send = environment.hot.send.bind(environment.hot) as (...args: unknown[]) => void;
        environment.hot.send = ((...args: unknown[]) => {
          if (args[0] === CONTENT_CHANGED_EVENT && !ours) {
            forget(false);
            changedAt = performance.now();
            // After Astro's own event, which empties the route cache: nothing else is under way.
            queueMicrotask(forgetOnceSettled);
          }
          return send(...args);
        }) as typeof environment.hot.send;
      }
    },
  };
}

/** Whether a request of the dev server is for a file of src/assets, in any of the forms it serves one. */
function isAssetRequest(url: string, assetFolders: readonly string[]): boolean {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url, 'http://dev.invalid').pathname);
  } catch {
    return true; // unreadable: the stricter answer
  }
  // Lowercase: on a case-insensitive disk /SRC/Assets/x.svg is the same file.
  path = posix.normalize(path.replaceAll('\\', '/')).toLowerCase();
  return (
    path.startsWith('/src/assets/') ||
    // Vite's form for a file by its path on disk, which Astro's dev pages use for images.
    (path.startsWith('/@fs/') &&
      assetFolders.some((folder) => path.startsWith(`/@fs${folder.toLowerCase()}`))) ||
    // Astro's dev image endpoint, which sends an SVG as it is (/_image?href=/@fs/…/x.svg).
    path === '/_image'
  );
}

function assetsRunNoScript(): Plugin {
  return {
    name: 'editor:assets-run-no-script',
    apply: 'serve',
    configureServer(server) {
      // As /@fs/ writes them: forward slashes, a slash first (C:\site is /@fs/C:/site).
      const folders = [
        ...new Set(
          [assetsFolder, realpathSync(assetsFolder)].map((path) =>
            path.replaceAll('\\', '/').replace(/^(?!\/)/, '/'),
          ),
        ),
      ];
      server.middlewares.use((req, res, next) => {
        if (req.url && isAssetRequest(req.url, folders))
          for (const [name, value] of Object.entries(assetHeaders)) res.setHeader(name, value);
        next();
      });
    },
  };
}

/**
 * Hands `intercept` each payload the dev server sends to the browsers, and sends what it returns
 * instead. Astro sends through both channels.
 */
function interceptSends(server: ViteDevServer, intercept: (payload: object) => object) {
  for (const channel of new Set([server.ws, server.environments.client.hot])) {
    const send = channel.send.bind(channel) as (...args: unknown[]) => void;
    channel.send = ((...args: unknown[]) => {
      const [payload, ...rest] = args;
      if (payload && typeof payload === 'object') return send(intercept(payload), ...rest);
      return send(...args);
    }) as typeof channel.send;
  }
}

/**
 * A Save writes into src/content, and Astro then reloads every open tab. The editor's own tab must
 * not be: a reload cut Keystatic short before it had put its draft away ("Restored draft" after
 * every save) and closed what was open. A reload goes out as a custom event instead, which the dev
 * site's pages (../browser/site-reload.ts) answer by reloading, so the preview still follows each
 * Save.
 */
function keepEditorOpenOnSave(): Plugin {
  // How many reloads have been sent: each page is told the count it was served at (read as the
  // request starts, so that a page rendered from content older than a reload is never told a count
  // that includes it), and is sent a reload when it connects if the count has moved on since.
  let version = 0;
  return {
    name: 'editor:keep-open-on-save',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((_req, res, next) => {
        res.setHeader('Server-Timing', `${SITE_VERSION_TIMING};desc="${version}"`);
        next();
      });
      server.environments.client.hot.on(
        SITE_CHANGED_EVENT,
        (data: { version?: unknown }, client) => {
          if (data?.version !== version) client.send(SITE_RELOAD_EVENT, {});
        },
      );
      interceptSends(server, (payload) => {
        if (!('type' in payload) || payload.type !== 'full-reload') return payload;
        version += 1;
        return { type: 'custom', event: SITE_RELOAD_EVENT, data: {} };
      });
    },
  };
}

/**
 * A page that fails to render (a content mistake: a slug used twice, a link to no page) is answered
 * by Astro with an empty page whose only script is Vite's client, and the error is sent over the dev
 * server's socket 200 ms later, to the tabs connected then. A tab whose connection came up later (a
 * busy machine, a slow laptop) showed a blank page. So each page answered with an error (500) waits
 * for its tab: the next tab to connect within 30 s is sent the last error again, if that error was
 * sent after its page (else Astro's own send, still to come, reaches it).
 */
function errorReachesLateTabs(): Plugin {
  let lastError: { payload: ErrorPayload; sentAt: number } | undefined;
  /** When each page answered with an error was sent, oldest first, until a tab connects for it. */
  const waiting: number[] = [];
  return {
    name: 'editor:error-reaches-late-tabs',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        // A page a browser opens, not a script's request (which has no tab to connect).
        if (req.headers['sec-fetch-dest'] === 'document')
          res.once('finish', () => {
            if (res.statusCode === 500) waiting.push(Date.now());
          });
        next();
      });
      interceptSends(server, (payload) => {
        if ('type' in payload && payload.type === 'error')
          lastError = { payload: payload as ErrorPayload, sentAt: Date.now() };
        return payload;
      });
      server.environments.client.hot.on('vite:client:connect', (_data, client) => {
        const now = Date.now();
        while (waiting.length && waiting[0]! < now - 30_000) waiting.shift();
        const pageSentAt = waiting.shift();
        if (pageSentAt !== undefined && lastError && lastError.sentAt >= pageSentAt)
          client.send(lastError.payload);
      });
    },
  };
}

/**
 * Keystatic says "Must have at least 8 items." under a list whose rule is exactly 8 (a service
 * page's tiles, its counters), and has no option for its wording: when the fewest and the most
 * are one number, it now says "exactly". A rewrite of that one message in Keystatic's browser
 * code as Vite pre-bundles it; if Keystatic changes that code, nothing matches and its own wording
 * stays (tests/editor/editor.spec.ts then fails on the message).
 */
export const exactListLength = {
  name: 'editor:exact-list-length',
  transform(code: string, id: string) {
    if (
      !id.includes('@keystatic/core') ||
      !code.includes('function useArrayFieldValidationMessage')
    )
      return null;
    return code
      .replace(
        't0 = `Must have at least ${pluralize(minLength',
        't0 = `Must have ${minLength === maxLength ? "exactly" : "at least"} ${pluralize(minLength',
      )
      .replace(
        't0 = `Must have at most ${pluralize(maxLength',
        't0 = `Must have ${minLength === maxLength ? "exactly" : "at most"} ${pluralize(maxLength',
      );
  },
};

/**
 * The dev server sends each pre-bundled dependency with its source map inlined, base64-encoded
 * anew for every request: 27 MB for one load of the editor, 17 of them maps of Keystatic's
 * packages, which cost the dev server and the browser more than the code itself. They are left
 * out (the bundles stay readable: they are not minified); the project's own modules keep theirs.
 */
function dependenciesWithoutSourceMaps(): Plugin {
  return {
    name: 'editor:dependencies-without-source-maps',
    apply: 'serve',
    transform(code, id) {
      const { environment } = this;
      if (environment.mode !== 'dev' || !environment.depsOptimizer?.isOptimizedDepFile(id))
        return null;
      // A map with no mappings: Vite then inlines none (and makes up none).
      return { code, map: { mappings: '' } };
    },
  };
}

/** `npm run edit`'s Vite mode: `astro dev --mode edit`. */
const EDIT_MODE = 'edit';

/**
 * `npm run edit` runs React's production build in the browser: the editor and the pages it
 * previews. A marketer has no use for React's development checks, which made every move in the
 * editor cost twice the processor time (a slow laptop felt it, and so did the editor's tests).
 * `npm run dev`, for developers, keeps the development build and its warnings. Fast refresh stays
 * on and does nothing: a save reloads the previewed page (keepEditorOpenOnSave).
 *
 * So do the styles of Keystatic's UI (emotion's sheet, cache and serializer, each chosen by its
 * package's `development` condition, not by NODE_ENV). The development sheet writes each rule as a
 * `<style>` element of its own, 1,140 on an entry's page, which Chromium matched every element
 * against one by one; the production one adds them all to one sheet (10 elements in all), as in the
 * live site's editor. The development cache and serializer check every rule and every style as
 * they are made.
 */
function productionReactWhenEditing(): Plugin {
  return {
    name: 'editor:production-react',
    apply: 'serve',
    config(_config, { mode }) {
      if (mode !== EDIT_MODE) return;
      // Where npm put them (packages of @keystar/ui's): else emotion's development builds stay.
      const production = Object.entries({
        sheet: 'emotion-sheet.esm.js',
        cache: 'emotion-cache.browser.esm.js',
        serialize: 'emotion-serialize.esm.js',
      })
        .map(([name, file]) => ({
          find: new RegExp(`^@emotion/${name}$`),
          replacement: `${packagesFolder()}/@emotion/${name}/dist/${file}`,
        }))
        .filter(({ replacement }) => existsSync(replacement));
      return {
        // The project's own components call React's `jsx`, not the development build's `jsxDEV`.
        oxc: { jsx: { development: false } },
        resolve: { alias: production },
        // The packages Vite pre-bundles for the browser (React, Keystatic) as built for production.
        optimizeDeps: {
          rolldownOptions: { transform: { define: { 'process.env.NODE_ENV': '"production"' } } },
        },
      };
    },
  };
}

/** The folder the project's packages are really in, through any link. */
const packagesFolder = () =>
  dirname(realpathSync(fileURLToPath(new URL('../../../node_modules/astro', import.meta.url))));

export default function editor(): AstroIntegration {
  return {
    name: 'editor',
    hooks: {
      'astro:config:setup': async ({
        command,
        updateConfig,
        addMiddleware,
        injectRoute,
        injectScript,
      }) => {
        if (command !== 'dev') return;
        // Before any request loads Keystatic's API.
        tolerateFilesGoneWhileRead();
        writeSavesWhole();
        // Loaded here, not at the top: a build never imports Keystatic. An integration added with
        // updateConfig in this hook has its own setup run after this one (Astro 7 loops over the
        // integrations list as it grows).
        const { default: keystatic } = await import('@keystatic/astro');
        updateConfig({
          integrations: [keystatic()],
          vite: {
            // Keystatic writes a saved file in place (emptied, then written): without waiting for
            // the write to finish, the dev server read it half-written ("Error reading data from
            // testimonials.yaml") and kept serving the old content after the save.
            server: {
              watch: { awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 } },
              // The packages where they really are: the editor's tests run a copy of the project
              // whose node_modules links to this one's (scripts/editor-project.mjs).
              fs: { allow: [searchForWorkspaceRoot(process.cwd()), packagesFolder()] },
            },
            plugins: [
              idleConnectionsOutlastTheirHint(),
              assetsRunNoScript(),
              keepEditorOpenOnUpload(),
              picturesGoneWhileListed(),
              keepEditorOpenOnSave(),
              contentStoreSettles(),
              errorReachesLateTabs(),
              dependenciesWithoutSourceMaps(),
              productionReactWhenEditing(),
              editorHistory(),
              tabsFollowWrites(),
            ],
            optimizeDeps: {
              // The conflict view's (../browser/conflict-view.ts, loaded on a refused Save) writes
              // an entry as the editor does: bundled with the rest, else Vite bundled it at the
              // first conflict and reloaded every page.
              include: ['js-yaml'],
              rolldownOptions: { plugins: [exactListLength, keystaticFriction, keystaticSaves] },
            },
          },
        });
        injectScript(
          'page',
          `import ${JSON.stringify(fileURLToPath(new URL('../browser/site-reload.ts', import.meta.url)))};`,
        );
        addEditorServer({ injectRoute, addMiddleware });
        addMiddleware({
          order: 'post',
          entrypoint: new URL('./whole-pages.ts', import.meta.url),
        });
      },
      'astro:server:start': ({ address, logger }) => {
        const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        logger.info(`Visual editor: open http://${host}:${address.port}/keystatic`);
      },
    },
  };
}
