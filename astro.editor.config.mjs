// @ts-check
/**
 * The visual editor's production build, for the live site (`EDITING=on`): Keystatic, its schema and
 * the editor's server pieces (src/editor/dev-server/helper-build.ts), nothing of the site's pages.
 * `npm run build` builds it into dist-editor/; src/server/staff/editing.ts runs it as a helper
 * process behind the staff sign-in, its working folder at the draft.
 */
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import node from '@astrojs/node';
import editorHelper from './src/editor/dev-server/helper-build.ts';
import { EDITOR_ASSETS } from './src/domain/editing.ts';

export default defineConfig({
  site: 'https://www.northgate-digital.example',
  output: 'server',
  // A folder with no pages, middleware or content of the site's: only the editor's routes.
  srcDir: './src/editor/helper',
  publicDir: './src/editor/helper/public',
  outDir: './dist-editor',
  // The server's own Vite cache and .astro files, apart from the site's build.
  cacheDir: './node_modules/.vite-editor',
  adapter: node({ mode: 'middleware', bodySizeLimit: 16 * 1024 * 1024 }),
  integrations: [react(), editorHelper()],
  // The scripts and styles at an address of their own, which the site's server hands to the helper.
  build: { assets: EDITOR_ASSETS },
  devToolbar: { enabled: false },
  // Keystatic with its UI is one script of some 2.8 MB (0.8 MB gzipped), loaded by signed-in staff
  // alone; split, the editor would load the same at its start. Vite's 500 kB warning said so on every
  // build and deploy: its line is this script's size and some room, so that a jump still warns.
  vite: { build: { chunkSizeWarningLimit: 3500 } },
  // Only the site's server reaches the helper (a private socket): it says the public scheme and
  // host it checked (X-Forwarded-Proto, X-Forwarded-Host), so that the editor's same-origin checks
  // compare with the address the browser used.
  security: { allowedDomains: [{ protocol: 'http' }, { protocol: 'https' }] },
});
