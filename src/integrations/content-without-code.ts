/**
 * The build refuses a content file whose MDX text holds code (../shared/mdx-text.ts), before
 * @astrojs/mdx compiles it: nothing of it is ever run, in `astro dev`, `npm run build` or the live
 * editor's draft build on the server.
 */
import type { AstroIntegration } from 'astro';
import { mdxCodeProblem } from '../shared/mdx-text.ts';
import { CONTENT_MDX } from './content-modules.ts';

export default function contentWithoutCode(): AstroIntegration {
  return {
    name: 'content-without-code',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'content-without-code',
                enforce: 'pre',
                transform(code, id) {
                  // The file itself, as @astrojs/mdx compiles it; not Astro's wrappers of it.
                  if (!CONTENT_MDX.test(id)) return;
                  const problem = mdxCodeProblem(code);
                  if (problem) this.error(`${id}: ${problem}.`);
                },
              },
            ],
          },
        });
      },
    },
  };
}
