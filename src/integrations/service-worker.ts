/**
 * Builds the service worker (src/offline/worker.ts) into /sw.js after the site: Workbox's
 * `getManifest` lists what to precache with a revision for each file, esbuild bundles the worker
 * with Workbox's runtime, and the list, the build's pages and its on-demand routes (as Astro
 * resolved them: the files of src/pages with `prerender = false`) are written into it. Runs before
 * precompress, so /sw.js is served compressed like every other file.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { parse as parseYaml } from 'yaml';
import type { Redirect } from '../domain/redirects.ts';

const workerSource = fileURLToPath(new URL('../offline/worker.ts', import.meta.url));

/** What a second visit needs offline: the fallback pages, the favicon and the islands' code. */
const precached = ['offline/index.html', '404.html', 'favicon.png', '_astro/*.js'];

/** `offline/index.html` is served at /offline, `404.html` at /404. */
const pagePath = (file: string) =>
  '/' +
  file
    .replace(/(^|\/)index\.html$/, '')
    .replace(/\.html$/, '')
    .replace(/\/$/, '');

async function* htmlFiles(dir: string, root = dir): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(path, root);
    else if (entry.name === 'index.html') yield relative(root, path).split(sep).join('/');
  }
}

/**
 * The redirects of the build's redirects.yaml (checked by then: the build refuses a bad one), for
 * the worker to answer an old address without a connection as the server does with one.
 */
async function builtRedirects(root: URL): Promise<Redirect[]> {
  const text = await readFile(new URL('src/content/data/redirects.yaml', root), 'utf8');
  const entries = (parseYaml(text) as { entries?: Redirect[] } | null)?.entries;
  return (entries ?? []).map(({ from, to }) => ({ from, to }));
}

export async function buildServiceWorker(
  clientDir: string,
  redirects: Redirect[] = [],
  onDemand: string[] = [],
) {
  // Loaded here, not with the config: workbox-build takes half a second to import.
  const [{ build }, { getManifest }] = await Promise.all([
    import('esbuild'),
    import('workbox-build'),
  ]);
  const { manifestEntries, warnings } = await getManifest({
    globDirectory: clientDir,
    globPatterns: precached,
    // Hashed names are their own revision.
    dontCacheBustURLsMatching: /^_astro\//,
    manifestTransforms: [
      async (entries) => ({
        manifest: entries.map((entry) => ({
          ...entry,
          url: entry.url.endsWith('.html') ? pagePath(entry.url) : `/${entry.url}`,
        })),
        warnings: [],
      }),
    ],
  });
  const pages: string[] = [];
  for await (const file of htmlFiles(clientDir)) pages.push(pagePath(file));
  pages.sort();

  const manifest = JSON.stringify(manifestEntries);
  const buildId = `sw-${createHash('sha256').update(manifest).update(pages.join()).update(JSON.stringify(redirects)).digest('hex').slice(0, 12)}`;
  const result = await build({
    entryPoints: [workerSource],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    define: {
      // Workbox's production build: no logging, no assertions.
      'process.env.NODE_ENV': '"production"',
      __BUILD_ID__: JSON.stringify(buildId),
      __PAGES__: JSON.stringify(pages),
      __ON_DEMAND__: JSON.stringify(onDemand),
      __REDIRECTS__: JSON.stringify(redirects),
      'self.__WB_MANIFEST': manifest,
    },
  });
  const code = result.outputFiles[0]!.text;
  await writeFile(join(clientDir, 'sw.js'), code);
  return { buildId, entries: manifestEntries.length, bytes: code.length, warnings };
}

export default function serviceWorker(): AstroIntegration {
  let root: URL;
  /** The site's own routes rendered on demand, by pattern ('/schedule', '/[...redirect]'). */
  let onDemand: string[] = [];
  return {
    name: 'service-worker',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = config.root;
      },
      'astro:routes:resolved': ({ routes }) => {
        onDemand = routes
          .filter((route) => route.origin === 'project' && !route.isPrerendered)
          .map((route) => route.pattern);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now();
        const { entries, bytes, warnings } = await buildServiceWorker(
          fileURLToPath(dir),
          await builtRedirects(root),
          onDemand,
        );
        for (const warning of warnings) logger.warn(warning);
        logger.info(
          `Built sw.js (${Math.round(bytes / 1024)} KB, ${entries} files precached) in ${Math.round(performance.now() - started)} ms.`,
        );
      },
    },
  };
}
