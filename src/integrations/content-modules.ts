/**
 * How the content's MDX modules (one per service page) are bundled, for a build of thousands of them:
 *
 * - Not at all in the on-demand server build. The middleware and the on-demand routes read content (the
 *   brand, the availability, page copy) through 'astro:content', whose `render()` imports every MDX entry
 *   from Astro's content-modules map: so the server build compiled every service page's MDX a second
 *   time (the prerender build already does), about 6 s of a 2,000-page build, for modules nothing on the
 *   server renders. Only service pages have MDX, and they are all prerendered. In the server build ('ssr'
 *   environment, `astro build` only, never `astro dev`, where that environment renders every page), the
 *   map is replaced by one that says so if an on-demand route ever calls `render()` on an MDX entry:
 *   Astro logs the error and the route renders without that entry's body.
 * - In one chunk in the prerender build, instead of one chunk each: rolldown writes, and the prerendering
 *   loads, a thousand modules fewer for every thousand pages (about 1 s of a 2,000-page build). Only MDX
 *   that imports nothing: a component it imported could bring styles, which Astro gives the pages of a
 *   chunk. That build is Astro's own, deleted once the pages are written; the pages are the same.
 */
import { readFileSync } from 'node:fs';
import type { AstroIntegration } from 'astro';

/** The file Astro generates with one `import()` per MDX entry (`astro:content-module-imports`). */
const CONTENT_MODULES = /[\\/]\.astro[\\/]content-modules\.mjs$/;

const serverContentModules = `export default new (class extends Map {
  get(file) {
    throw new Error(\`\${file}: MDX content is rendered at build time only; src/integrations/content-modules.ts keeps it out of the on-demand server build\`);
  }
})();
`;

/** An MDX file of the content (not its `?astroPropagatedAssets` wrapper). */
export const CONTENT_MDX = /[\\/]src[\\/]content[\\/][^?]*\.mdx$/;
/** One of them that imports nothing. */
const importsNothing = (file: string) => !/^\s*import\s/m.test(readFileSync(file, 'utf8'));

export default function contentModules(): AstroIntegration {
  return {
    name: 'content-modules',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'content-modules:none-on-demand',
                apply: 'build',
                enforce: 'pre',
                applyToEnvironment: (environment) => environment.name === 'ssr',
                load(id) {
                  return CONTENT_MODULES.test(id) ? serverContentModules : undefined;
                },
              },
            ],
            environments: {
              prerender: {
                build: {
                  rolldownOptions: {
                    output: {
                      codeSplitting: {
                        groups: [
                          {
                            name: 'content',
                            test: (id) => CONTENT_MDX.test(id) && importsNothing(id),
                          },
                        ],
                      },
                    },
                  },
                },
              },
            },
          },
        });
      },
    },
  };
}
