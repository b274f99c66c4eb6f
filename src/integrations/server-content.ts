/**
 * Keeps the content's MDX modules out of the on-demand server build. The middleware and the on-demand
 * routes read content (the brand, the availability, page copy) through 'astro:content', whose `render()`
 * imports every MDX entry from Astro's content-modules map: so the server build compiled every service
 * page's MDX a second time (the prerender build already does), about 6 s of a 2,000-page build, for
 * modules nothing on the server renders. Only service pages have MDX, and they are all prerendered.
 *
 * In the server build ('ssr' environment, `astro build` only, never `astro dev`, where that environment
 * renders every page), the map is replaced by one that says so if an on-demand route ever calls
 * `render()` on an MDX entry: Astro logs the error and the route renders without that entry's body.
 */
import type { AstroIntegration } from 'astro';

/** The file Astro generates with one `import()` per MDX entry (`astro:content-module-imports`). */
const CONTENT_MODULES = /[\\/]\.astro[\\/]content-modules\.mjs$/;

const serverContentModules = `export default new (class extends Map {
  get(file) {
    throw new Error(\`\${file}: MDX content is rendered at build time only; src/integrations/server-content.ts keeps it out of the on-demand server build\`);
  }
})();
`;

export default function serverContent(): AstroIntegration {
  return {
    name: 'server-content',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'server-content:no-mdx-modules',
                apply: 'build',
                enforce: 'pre',
                applyToEnvironment: (environment) => environment.name === 'ssr',
                load(id) {
                  return CONTENT_MODULES.test(id) ? serverContentModules : undefined;
                },
              },
            ],
          },
        });
      },
    },
  };
}
