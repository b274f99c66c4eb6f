/**
 * After the build, writes a brotli (.br) and a gzip (.gz) copy of every text
 * file of the client output, so that the server sends compressed files
 * without compressing on each request.
 *
 * Compressing the pages is most of a large build's work (about 17 ms of CPU a service page, see the
 * qualities in precompress-worker.ts), so it starts while Astro is still prerendering: a middleware
 * (precompress-pages.ts) hands over each HTML page as it is rendered, and a worker thread compresses it
 * on the core that Astro's one rendering thread leaves idle, while the next pages render; once the pages
 * are done, a worker per core. After the build, each file is looked up by its bytes: a page compressed
 * while it was prerendered is written from that result (the same bytes give the same output, since
 * compressing depends on nothing else); anything else is compressed then.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AstroIntegration } from 'astro';
import { compressible } from '../server/http/static-files.ts';
import { PRERENDERED_PAGE, type PageTaker } from './precompress-pages.ts';
import {
  WORKER_DATA,
  type CompressDone,
  type CompressJob,
  type Compressed,
} from './precompress-worker.ts';

export { NEAR_ROUND_TRIP } from './precompress-worker.ts';

interface Waiting {
  job: CompressJob;
  resolve: (result: Compressed) => void;
  reject: (error: unknown) => void;
}

/**
 * Worker threads (precompress-worker.ts), at most `width` of them busy, taking files in order. An idle
 * worker does not keep the process alive; one with a file does.
 */
class CompressPool {
  #width: number;
  #nextId = 0;
  readonly #queue: Waiting[] = [];
  readonly #idle: Worker[] = [];
  readonly #busy = new Map<Worker, Waiting>();

  constructor(width: number) {
    this.#width = width;
  }

  run(page: boolean, source: Uint8Array): Promise<Compressed> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ job: { id: this.#nextId++, page, source }, resolve, reject });
      this.#next();
    });
  }

  resize(width: number) {
    this.#width = Math.max(1, width);
    this.#next();
  }

  /** Stops the workers (idle ones at once, busy ones after their file); the pool can start new ones. */
  async close() {
    const idle = this.#idle.splice(0);
    await Promise.all(idle.map((worker) => worker.terminate()));
  }

  #next() {
    while (this.#queue.length > 0 && this.#busy.size < this.#width) {
      const worker = this.#idle.pop() ?? this.#start();
      const waiting = this.#queue.shift()!;
      this.#busy.set(worker, waiting);
      worker.ref();
      worker.postMessage(waiting.job);
    }
  }

  #start() {
    const worker = new Worker(new URL('./precompress-worker.ts', import.meta.url), {
      workerData: WORKER_DATA,
    });
    worker.on('message', ({ br, gz }: CompressDone) => {
      const waiting = this.#busy.get(worker)!;
      this.#busy.delete(worker);
      worker.unref();
      this.#idle.push(worker);
      waiting.resolve({ br, gz });
      this.#next();
    });
    worker.on('error', (error) => {
      const waiting = this.#busy.get(worker);
      this.#busy.delete(worker);
      const idle = this.#idle.indexOf(worker);
      if (idle >= 0) this.#idle.splice(idle, 1);
      waiting?.reject(error);
      this.#next();
    });
    return worker;
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
  if (response.status !== 200 || !type.startsWith('text/html') || !response.body) return;
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
        const { br, gz } = await (started ?? pool.run(page, source));
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
        // Astro renders one page at a time on the main thread: a core for it until it is done.
        pool.resize(cores - 1);
        (globalThis as { [PRERENDERED_PAGE]?: PageTaker })[PRERENDERED_PAGE] = startPage;
      },
      // The pages (and the images) are done: a worker per core.
      'astro:build:generated': () => pool.resize(cores),
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
