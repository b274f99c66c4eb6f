// @ts-check
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import node from '@astrojs/node';

/** Adds `client:interaction`: hydrate an island on its first use (see src/islands/hydrate-on-interaction.ts). */
/** @type {import('astro').AstroIntegration} */
const interactionDirective = {
  name: 'client-interaction-directive',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) =>
      addClientDirective({
        name: 'interaction',
        entrypoint: fileURLToPath(
          new URL('./src/islands/hydrate-on-interaction.ts', import.meta.url),
        ),
      }),
  },
};

export default defineConfig({
  // The public address, for canonical links, Open Graph and the sitemap.
  site: 'https://www.northgate-digital.example',
  // Every page is prerendered; only the enquiry endpoints opt out with `prerender = false`.
  output: 'static',
  adapter: node({ mode: 'standalone' }),
  integrations: [
    mdx(),
    react(),
    interactionDirective,
    sitemap({ filter: (page) => !page.includes('/thankyou') }),
  ],
  server: { host: '127.0.0.1', port: 4321 },
  build: { inlineStylesheets: 'always' },
  vite: {
    build: {
      rolldownOptions: {
        // MDX modules carry a "use astro:head-inject" directive that rolldown warns about for each file.
        checks: { moduleLevelDirective: false },
      },
    },
  },
});
