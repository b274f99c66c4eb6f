/**
 * The visual editor as a production build, for the live site's helper process: `npm run build`
 * builds it with astro.editor.config.mjs into dist-editor/, and src/server/ runs it with
 * `EDITING=on`, its working folder at the draft. The same Keystatic, schema, rewrites of
 * Keystatic's code and server pieces (./server-pieces.ts) as `npm run edit` (./editor.ts), without
 * what only a dev server has: no Vite client, no module graph, no /@fs/.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { EDITOR_ASSETS } from '../../domain/editing.ts';
import { exactListLength } from './editor.ts';
import { keystaticFriction } from './keystatic-rewrites.ts';
import { keystaticSaves } from './keystatic-saves.ts';
import { addEditorServer } from './server-pieces.ts';
import { BUILT_TAB_SCRIPT, editorEventsPath } from '../routes.ts';

/** The rewrites `npm run edit` makes as Vite pre-bundles Keystatic, made here as the build reads it. */
/** The editor's schema (keystatic.config.ts) as Keystatic's modules import it, as @keystatic/astro resolves it. */
const keystaticConfig = {
  name: 'editor:keystatic-config',
  resolveId(this: { resolve: (id: string, importer: string) => unknown }, id: string) {
    return id === 'virtual:keystatic-config' ? this.resolve('./keystatic.config', './a') : null;
  },
};

const rewritten = [exactListLength, keystaticFriction, keystaticSaves].map(
  ({ name, transform }) => ({ name, enforce: 'pre' as const, transform }),
);

export default function editorHelper(): AstroIntegration {
  return {
    name: 'editor-helper',
    hooks: {
      'astro:config:setup': ({ updateConfig, injectRoute, addMiddleware }) => {
        updateConfig({ vite: { plugins: [keystaticConfig, ...rewritten] } });
        // Keystatic's routes as @keystatic/astro adds them: its page with the editor tab's script,
        // its API with its tree read rewritten (./keystatic-reads.ts).
        injectRoute({
          pattern: '/keystatic/[...params]',
          entrypoint: new URL('./KeystaticPage.astro', import.meta.url),
          prerender: false,
        });
        injectRoute({
          pattern: '/api/keystatic/[...params]',
          entrypoint: new URL('./keystatic-api.ts', import.meta.url),
          prerender: false,
        });
        // The history recorded around every Save, first: as the dev server's plugin does.
        addMiddleware({
          order: 'pre',
          entrypoint: new URL('./history/recording.ts', import.meta.url),
        });
        injectRoute({
          pattern: editorEventsPath,
          entrypoint: new URL('./server-events.ts', import.meta.url),
          prerender: false,
        });
        addEditorServer({ injectRoute, addMiddleware });
      },
      // The tab's script at a fixed address (`BUILT_TAB_SCRIPT`), importing the page's bundle of it.
      'astro:build:done': async ({ dir }) => {
        const folder = new URL(`${EDITOR_ASSETS}/`, dir);
        const bundled = (await readdir(folder)).find((name) =>
          /^KeystaticPage\.astro_astro_type_script_index_0_lang\.[\w-]+\.js$/.test(name),
        );
        if (!bundled)
          throw new Error(
            `The editor tab's script is not in the build (${fileURLToPath(folder)}).`,
          );
        await writeFile(new URL(BUILT_TAB_SCRIPT.slice(1), dir), `import './${bundled}';\n`);
      },
    },
  };
}
