/**
 * Builds the field data script (src/client/field-vitals.ts, with web-vitals) into /field-vitals.js
 * after the build. A file of its own at a fixed address, rather than one of Astro's chunks, because
 * the first move that loads it must stay inline (a script with a dynamic import of a chunk would
 * be served as a file of its own, one more request before the first tap), and an inline script
 * cannot know a chunk's hashed name. Served with revalidation, like every unhashed file.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Where pages load it from (src/layouts/BaseLayout.astro). */
export const FIELD_VITALS_SCRIPT = '/field-vitals.js';

const source = fileURLToPath(new URL('../client/field-vitals.ts', import.meta.url));

export default function fieldVitals({ enabled }: { enabled: boolean }): AstroIntegration {
  return {
    name: 'field-vitals',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        if (!enabled) return;
        const { build } = await import('esbuild');
        const result = await build({
          entryPoints: [source],
          outfile: fileURLToPath(new URL(`.${FIELD_VITALS_SCRIPT}`, dir)),
          bundle: true,
          minify: true,
          format: 'esm',
          target: 'es2022',
          legalComments: 'none',
          metafile: true,
        });
        const bytes = Object.values(result.metafile.outputs)[0]?.bytes ?? 0;
        logger.info(`Built ${FIELD_VITALS_SCRIPT} (${(bytes / 1024).toFixed(1)} KB).`);
      },
    },
  };
}
