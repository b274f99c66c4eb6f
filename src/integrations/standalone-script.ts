/**
 * Builds a browser script of src/client/ into a file of its own at a fixed address, after the
 * build: field data's (/field-vitals.js) and the dialog's first days (/first-times.js). A file at a
 * fixed address rather than one of Astro's chunks, because the first move that loads it must stay
 * inline (a script with a dynamic import of a chunk would be served as a file of its own, one more
 * request before the first tap), and an inline script cannot know a chunk's hashed name. Served
 * with revalidation, like every unhashed file.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export default function standaloneScript({
  name,
  source,
  address,
  enabled = true,
}: {
  name: string;
  /** The script's entry, a file URL. */
  source: URL;
  /** Where pages load it from, e.g. '/field-vitals.js'. */
  address: string;
  enabled?: boolean;
}): AstroIntegration {
  return {
    name,
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        if (!enabled) return;
        const { build } = await import('esbuild');
        const result = await build({
          entryPoints: [fileURLToPath(source)],
          outfile: fileURLToPath(new URL(`.${address}`, dir)),
          bundle: true,
          minify: true,
          format: 'esm',
          target: 'es2022',
          legalComments: 'none',
          // V8's compile hint: compile every function as the file loads (at idle, or as the dialog
          // opens) rather than at its first call. Field data's click and keydown listeners were
          // otherwise compiled in the task of a visitor's first tap, some 1 to 3 ms of it under a
          // slow phone's CPU (docs/benchmarks.md, 2026-12-05).
          banner: { js: '//# allFunctionsCalledOnLoad' },
          metafile: true,
        });
        const bytes = Object.values(result.metafile.outputs)[0]?.bytes ?? 0;
        logger.info(`Built ${address} (${(bytes / 1024).toFixed(1)} KB).`);
      },
    },
  };
}
