/**
 * After the build, writes a brotli (.br) and a gzip (.gz) copy of every text
 * file of the client output, so that the server sends compressed files
 * without compressing on each request.
 *
 * Compressing the pages is most of a large build's work (about 17 ms of CPU a service page, see the
 * qualities in precompress-worker.ts), so it starts while Astro is still prerendering: a middleware
 * (precompress-pages.ts) hands over each HTML page as it is rendered, and worker threads (one per core)
 * compress it while the next pages render, on what Astro's one rendering thread leaves of the machine.
 * After the build, each file is looked up by its bytes: a page compressed while it was prerendered is
 * written from that result (the same bytes give the same output, since compressing depends on
 * nothing else); anything else is compressed then.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AstroIntegration } from 'astro';
import { PRERENDERED_PAGE, type PageTaker } from './precompress-pages.ts';
import {
  WORKER_DATA,
  type CompressDone,
  type CompressJob,
  type Compressed,
} from './precompress-worker.ts';

export { NEAR_ROUND_TRIP } from './precompress-worker.ts';

/**
 * The text formats worth compressing: a .br and a .gz are written beside each, which the server
 * (src/server/http/static-files.ts) sends whenever it finds them.
 */
const compressible = new Set([
  '.html',
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.svg',
  '.xml',
  '.txt',
  '.webmanifest',
]);

interface Waiting {
  job: CompressJob;
  resolve: (result: Compressed) => void;
  reject: (error: unknown) => void;
}

/** Files sent ahead to each worker: it goes on to the next without waiting for the main thread. */
const AHEAD = 4;

interface PoolWorker {
  worker: Worker;
  /** The files sent to it and not yet back, by job id. */
  sent: Map<number, Waiting>;
}

/**
 * Worker threads (precompress-worker.ts), `width` of them, taking files in order. Each
 * is sent a few files ahead: the main thread, rendering a page, may take several milliseconds to come
 * back to its messages, and a worker that waited for it each time would idle. A worker with files
 * keeps the process alive; an idle one does not.
 */
class CompressPool {
  readonly #width: number;
  #nextId = 0;
  readonly #queue: Waiting[] = [];
  readonly #workers: PoolWorker[] = [];

  constructor(width: number) {
    this.#width = width;
  }

  /** Compresses a file after those queued before it, or before them all when `first`. */
  run(page: boolean, source: Uint8Array, first = false): Promise<Compressed> {
    return new Promise((resolve, reject) => {
      const waiting = { job: { id: this.#nextId++, page, source }, resolve, reject };
      if (first) this.#queue.unshift(waiting);
      else this.#queue.push(waiting);
      this.#next();
    });
  }

  /** Stops the idle workers; the pool starts new ones if it is given more files. */
  async close() {
    const idle = this.#workers.filter(({ sent }) => sent.size === 0);
    for (const entry of idle) this.#workers.splice(this.#workers.indexOf(entry), 1);
    await Promise.all(idle.map(({ worker }) => worker.terminate()));
  }

  #next() {
    while (this.#queue.length > 0) {
      const inUse = this.#workers.slice(0, this.#width);
      let target = inUse.reduce<PoolWorker | undefined>(
        (least, entry) => (!least || entry.sent.size < least.sent.size ? entry : least),
        undefined,
      );
      if (inUse.length < this.#width && (!target || target.sent.size > 0)) target = this.#start();
      if (!target || target.sent.size >= AHEAD) return;
      const waiting = this.#queue.shift()!;
      target.sent.set(waiting.job.id, waiting);
      target.worker.ref();
      // A file's bytes are handed over, not copied, when they are an ArrayBuffer of their own: the
      // main thread has no more use for them.
      const { source } = waiting.job;
      const own =
        source.buffer instanceof ArrayBuffer &&
        source.byteOffset === 0 &&
        source.byteLength === source.buffer.byteLength;
      target.worker.postMessage(waiting.job, own ? [source.buffer as ArrayBuffer] : []);
    }
  }

  #start(): PoolWorker {
    const worker = new Worker(new URL('./precompress-worker.ts', import.meta.url), {
      workerData: WORKER_DATA,
    });
    const entry: PoolWorker = { worker, sent: new Map() };
    this.#workers.push(entry);
    worker.on('message', ({ id, br, gz }: CompressDone) => {
      const waiting = entry.sent.get(id)!;
      entry.sent.delete(id);
      if (entry.sent.size === 0) worker.unref();
      waiting.resolve({ br, gz });
      this.#next();
    });
    worker.on('error', (error) => {
      this.#workers.splice(this.#workers.indexOf(entry), 1);
      for (const waiting of entry.sent.values()) waiting.reject(error);
      this.#next();
    });
    return entry;
  }
}

const cores = Math.max(1, availableParallelism());
const pool = new CompressPool(cores);

/** Pages compressed while they were prerendered, by their bytes (`keyOf`). */
const compressing = new Map<string, Promise<Compressed>>();
/** Copies of prerendered responses still being read. */
const reading = new Set<Promise<void>>();
const keyOf = (source: Uint8Array) => createHash('sha256').update(source).digest('hex');

/** Queues a prerendered page (its response's copy) for compression while Astro renders the next. */
const startPage: PageTaker = (response) => {
  const type = response.headers.get('content-type') ?? '';
  // Astro writes a redirect's page itself; any other page (the 404 too) is the body as it is.
  const redirect = response.status >= 300 && response.status < 400;
  if (redirect || !type.startsWith('text/html') || !response.body) return;
  const read = response
    .clone()
    .arrayBuffer()
    .then((bytes) => {
      const source = new Uint8Array(bytes);
      const key = keyOf(source);
      if (!compressing.has(key)) compressing.set(key, pool.run(true, source));
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
        const started = page ? compressing.get(keyOf(source)) : undefined;
        if (started) early += 1;
        // Scripts, styles, the sitemap and the service worker get the slowest quality: they go before
        // the pages still queued, so that the last seconds are not one of them on one core.
        const { br, gz } = await (started ?? pool.run(page, source, !page));
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        count += 1;
      })(),
    );
  }
  try {
    await Promise.all(tasks);
  } finally {
    compressing.clear();
    await pool.close();
  }
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
        (globalThis as { [PRERENDERED_PAGE]?: PageTaker })[PRERENDERED_PAGE] = startPage;
      },
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
