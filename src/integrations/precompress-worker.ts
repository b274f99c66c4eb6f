/**
 * How precompress.ts compresses one file, and the worker thread it does it in. Each worker compresses
 * one file at a time, synchronously: the main thread, busy prerendering, never stands between the
 * steps of a compression (as it did with zlib's asynchronous calls, which come back to it after
 * each chunk).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

function compressBrotli(page: boolean, source: Uint8Array) {
  const max = brotliParams(
    constants.BROTLI_MAX_QUALITY,
    constants.BROTLI_DEFAULT_WINDOW,
    source.length,
  );
  if (!page) return brotliCompressSync(source, { params: max });
  const fast = brotliCompressSync(source, {
    params: brotliParams(PAGE_QUALITY, 16, source.length),
  });
  if (fast.byteLength <= NEAR_ROUND_TRIP) return fast;
  const better = brotliCompressSync(source, {
    params: brotliParams(NEAR_BUDGET_QUALITY, 16, source.length),
  });
  return better.byteLength <= NEAR_ROUND_TRIP
    ? better
    : brotliCompressSync(source, { params: max });
}

export interface Compressed {
  br: Uint8Array;
  gz: Uint8Array;
}

/** A file's brotli and gzip copies: a function of its bytes and of whether it is a page, nothing else. */
export const compressFile = (page: boolean, source: Uint8Array): Compressed => ({
  br: compressBrotli(page, source),
  gz: gzipSync(source, { level: 9 }),
});

export interface CompressJob {
  id: number;
  page: boolean;
  source: Uint8Array;
}

export interface CompressDone extends Compressed {
  id: number;
}

/** What precompress.ts passes as `workerData`, so that importing this file elsewhere starts nothing. */
export const WORKER_DATA = 'precompress-worker';

if (parentPort && workerData === WORKER_DATA) {
  const port = parentPort;
  port.on('message', ({ id, page, source }: CompressJob) => {
    const { br, gz } = compressFile(page, source);
    // Copies of their own, so that their memory can be handed over whole.
    const [brCopy, gzCopy] = [new Uint8Array(br), new Uint8Array(gz)];
    const done: CompressDone = { id, br: brCopy, gz: gzCopy };
    port.postMessage(done, [brCopy.buffer as ArrayBuffer, gzCopy.buffer as ArrayBuffer]);
  });
}
