import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** One <style> element a prerendered page, in the build (./single-style-pages.ts says why). */
export default function singleStyle(): AstroIntegration {
  return {
    name: 'single-style',
    hooks: {
      'astro:config:setup': ({ command, addMiddleware }) => {
        if (command === 'build')
          addMiddleware({
            entrypoint: fileURLToPath(new URL('./single-style-pages.ts', import.meta.url)),
            // Innermost, so that precompress.ts's middleware, outermost, sees the page as it is written.
            order: 'post',
          });
      },
    },
  };
}
