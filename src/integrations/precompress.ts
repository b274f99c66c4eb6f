/**
 * After the build, writes a brotli (.br) and a gzip (.gz) copy of every text
 * file of the client output, so that the server sends compressed files
 * without compressing on each request.
 *
 * Compressing the pages is most of a large build's work (about 17 ms of CPU a service page, see the
 * qualities below), so it starts while Astro is still prerendering: a middleware (precompress-pages.ts)
 * hands over each HTML page as it is rendered, and it is compressed at once, on the other core, while
 * the next pages render. After the build, each file is looked up by its bytes: a page compressed while
 * it was prerendered is written from that result (the same bytes give the same output, since
 * compressing depends on nothing else); anything else is compressed then.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { AstroIntegration } from 'astro';
import { compressible } from '../server/http/static-files.ts';
import { PRERENDERED_PAGE, type PageTaker } from './precompress-pages.ts';

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

async function compressBrotli(page: boolean, source: Buffer) {
  const max = brotliParams(
    constants.BROTLI_MAX_QUALITY,
    constants.BROTLI_DEFAULT_WINDOW,
    source.length,
  );
  if (!page) return brotli(source, { params: max });
  const fast = await brotli(source, { params: brotliParams(PAGE_QUALITY, 16, source.length) });
  if (fast.byteLength <= NEAR_ROUND_TRIP) return fast;
  const better = await brotli(source, {
    params: brotliParams(NEAR_BUDGET_QUALITY, 16, source.length),
  });
  return better.byteLength <= NEAR_ROUND_TRIP ? better : brotli(source, { params: max });
}

/**
 * Runs at most `width` compressions at once, in order. zlib compresses on libuv's thread pool (four
 * threads), so the main thread only hands the work over; the width keeps threads free for the build's
 * file writes, and keeps one core for Astro while it is still rendering pages.
 */
class Lanes {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  // No parameter property: Node loads the config's integrations by stripping their types only.
  width: number;
  constructor(width: number) {
    this.width = width;
  }

  run<T>(job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push(() => {
        this.#running += 1;
        job()
          .then(resolve, reject)
          .finally(() => {
            this.#running -= 1;
            this.#next();
          });
      });
      this.#next();
    });
  }

  resize(width: number) {
    this.width = width;
    this.#next();
  }

  #next() {
    while (this.#running < this.width && this.#waiting.length > 0) this.#waiting.shift()!();
  }
}

interface Compressed {
  br: Buffer;
  gz: Buffer;
}

const cores = Math.max(1, availableParallelism());
const lanes = new Lanes(cores);

/** A file's two compressed copies: a function of its bytes and of whether it is a page, nothing else. */
const compress = (page: boolean, source: Buffer): Promise<Compressed> =>
  lanes.run(async () => ({
    br: await compressBrotli(page, source),
    gz: await gz(source, { level: 9 }),
  }));

/** Pages compressed while they were prerendered, by their bytes (`keyOf`). */
const compressing = new Map<string, Promise<Compressed>>();
/** Copies of prerendered responses still being read. */
const reading = new Set<Promise<void>>();
const keyOf = (page: boolean, source: Buffer) =>
  `${page ? 'page' : 'file'}:${createHash('sha256').update(source).digest('hex')}`;

/** Queues a prerendered page (its response's copy) for compression while Astro renders the next. */
const startPage: PageTaker = (response) => {
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !type.startsWith('text/html') || !response.body) return;
  const read = response
    .clone()
    .arrayBuffer()
    .then((bytes) => {
      const source = Buffer.from(bytes);
      const key = keyOf(true, source);
      if (!compressing.has(key)) compressing.set(key, compress(true, source));
    })
    // A copy that could not be read only means the page is compressed after the build instead.
    .catch(() => undefined)
    .finally(() => reading.delete(read));
  reading.add(read);
};

async function* textFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* textFiles(path);
    else if (compressible.has(extname(entry.name).toLowerCase())) yield path;
  }
}

export async function precompressDir(dir: string, minBytes = 512) {
  await Promise.all(reading);
  const tasks: Promise<void>[] = [];
  let count = 0;
  let early = 0;
  for await (const file of textFiles(dir)) {
    tasks.push(
      (async () => {
        const source = await readFile(file);
        if (source.byteLength < minBytes) return;
        const page = file.endsWith('.html');
        const started = page ? compressing.get(keyOf(page, source)) : undefined;
        if (started) early += 1;
        const { br, gz: gzipped } = await (started ?? compress(page, source));
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
        count += 1;
      })(),
    );
  }
  await Promise.all(tasks);
  compressing.clear();
  return { count, early };
}

export default function precompress(): AstroIntegration {
  return {
    name: 'precompress',
    hooks: {
      'astro:config:setup': ({ command, addMiddleware }) => {
        if (command === 'build') {
          addMiddleware({
            entrypoint: fileURLToPath(new URL('./precompress-pages.ts', import.meta.url)),
            // Outermost, so that it sees the response as Astro writes it.
            order: 'pre',
          });
        }
      },
      'astro:build:start': () => {
        // Astro renders one page at a time on the main thread: a core for it until it is done.
        lanes.resize(Math.max(1, cores - 1));
        (globalThis as { [PRERENDERED_PAGE]?: PageTaker })[PRERENDERED_PAGE] = startPage;
      },
      // The pages (and the images) are done: every core for compressing.
      'astro:build:generated': () => lanes.resize(cores),
      'astro:build:done': async ({ dir, logger }) => {
        const started = performance.now();
        delete (globalThis as { [PRERENDERED_PAGE]?: PageTaker })[PRERENDERED_PAGE];
        const { count, early } = await precompressDir(fileURLToPath(dir));
        logger.info(
          `Compressed ${count} files (brotli and gzip) in ${Math.round(performance.now() - started)} ms, ${early} pages begun as they were prerendered.`,
        );
      },
    },
  };
}
