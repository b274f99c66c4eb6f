/**
 * After the build, writes a brotli (.br) and a gzip (.gz) copy of every text
 * file of the client output, so that the server sends compressed files
 * without compressing on each request.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { compressible } from '../server/static-files.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* textFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(path);
    else if (compressible.has(extname(entry.name).toLowerCase())) yield path;
  }
}

export async function precompressDir(dir: string, minBytes = 512) {
  const tasks: Promise<void>[] = [];
  let count = 0;
  for await (const file of textFiles(dir)) {
    tasks.push(
      (async () => {
        const source = await readFile(file);
        if (source.byteLength < minBytes) return;
        const [br, gzipped] = await Promise.all([
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.byteLength,
            },
          }),
          gz(source, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        count += 1;
      })(),
    );
  }
  await Promise.all(tasks);
  return count;
}

export default function precompress(): AstroIntegration {
  return {
    name: 'precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now();
        const count = await precompressDir(fileURLToPath(dir));
        logger.info(`Compressed ${count} files (brotli and gzip) in ${Math.round(performance.now() - started)} ms.`);
      },
    },
  };
}
