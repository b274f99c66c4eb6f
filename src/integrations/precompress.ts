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
import { compressible } from '../server/http/static-files.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Pages are many, each different: quality 9 with a 64 KB window compresses one in about 2 ms, where
 * 10 and 11 take 25 and 65 ms for 6% and 8% less; thousands of pages would spend minutes on it. So a
 * page gets quality 10 only when quality 9 leaves it near the one-round-trip budget (a first
 * response of 14 KB, headers included), and 11 if 10 is not enough: the service pages sit near the
 * line, and a build of thousands of them must stay fast. The few shared assets (scripts, styles,
 * images) always get the maximum.
 */
const PAGE_QUALITY = 9;
const NEAR_BUDGET_QUALITY = 10;
/**
 * Brotli bytes above which a page is compressed again at a higher quality: less than 1,300 bytes
 * of the 14 KB would be left for the response's headers, which take up to about 1,190 with the CSP
 * (a hash for each inline first move: seven on a service page), with room for one more script's
 * hash (the serving test checks every page's first response).
 */
export const NEAR_ROUND_TRIP = 14 * 1024 - 1_300;

const brotliParams = (quality: number, window: number, size: number) => ({
  [constants.BROTLI_PARAM_QUALITY]: quality,
  [constants.BROTLI_PARAM_LGWIN]: window,
  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  [constants.BROTLI_PARAM_SIZE_HINT]: size,
});

async function compressBrotli(file: string, source: Buffer) {
  const max = brotliParams(
    constants.BROTLI_MAX_QUALITY,
    constants.BROTLI_DEFAULT_WINDOW,
    source.length,
  );
  if (!file.endsWith('.html')) return brotli(source, { params: max });
  const fast = await brotli(source, { params: brotliParams(PAGE_QUALITY, 16, source.length) });
  if (fast.byteLength <= NEAR_ROUND_TRIP) return fast;
  const better = await brotli(source, {
    params: brotliParams(NEAR_BUDGET_QUALITY, 16, source.length),
  });
  return better.byteLength <= NEAR_ROUND_TRIP ? better : brotli(source, { params: max });
}

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
          compressBrotli(file, source),
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
        logger.info(
          `Compressed ${count} files (brotli and gzip) in ${Math.round(performance.now() - started)} ms.`,
        );
      },
    },
  };
}
