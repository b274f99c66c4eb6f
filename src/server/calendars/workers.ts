/**
 * The worker threads that read the hosts' feeds (./worker.ts), and make a CalDAV answer's XML one
 * feed (./multistatus.ts), so that no feed or answer, however large or hostile, holds the server's
 * main thread: a worker reads one at a time, under a time limit (past it, the worker is stopped)
 * and a memory limit (its heap); at most `size` workers at once.
 * A read waits its turn in line, and its time limit starts when a worker takes it, so that a feed
 * that runs out its time never makes another's read fail. Idle workers stop after a while.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Busy } from './busy.ts';
import { log } from '../log.ts';
import { processWide } from '../process-wide.ts';

/** Tells ./worker.ts it runs as one of these workers. */
export const WORKER_DATA = 'agency-site calendar reader';

/** What a worker is asked: a feed's text, and the windows (a zone and an interval) to read. */
export interface ReadJob {
  text: string;
  windows: { timeZone: string; from: number; to: number }[];
  maxSteps: number | undefined;
  /** busy-times.ts's ownUidSuffix: the site's own calls, not read. */
  ownUidSuffix?: string | undefined;
}

/** What a worker makes one feed of: a calendar-query's answer (its bytes, moved), the collection's path. */
export interface JoinJob {
  multistatus: ArrayBuffer;
  collection: string;
}

/** The calendar objects of a CalDAV answer as one feed's text, or why not (no address in it). */
export type JoinReading = { ok: true; text: string } | { ok: false; reason: string };

/** Each window's busy times as [start, end, start, end, …] (transferred, not copied), or why not. */
export type ReadAnswer =
  | { ok: true; windows: { busy: Float64Array; events: number; warnings: string[] }[] }
  | { ok: false; reason: string };

/** A feed read: each window's busy times, or why it could not be read (no address in it). */
export type FeedReading =
  | { ok: true; windows: { busy: Busy[]; events: number; warnings: string[] }[] }
  | { ok: false; reason: string };

export interface ReadLimits {
  /** How long a worker may take over one feed, in ms. */
  timeMs: number;
  /** The heap a worker may use, in MB. */
  memoryMb: number;
  /** The most recurrence steps one window of a feed may take (undefined: ./busy-times.ts's). */
  maxSteps: number | undefined;
  /** The site's own calls' UIDs' end: their events are not read (ReadJob). */
  ownUidSuffix?: string | undefined;
}

/** A worker's heap for a feed of `maxBytes`: a feed's parsed events take up to some 25 times its text. */
export const workerMemoryMb = (maxBytes: number) => Math.ceil(64 + (maxBytes / 1024 / 1024) * 32);

/**
 * The worker's file. The build (dist/server/) holds its own copy of the server's modules, with no
 * worker.ts beside it: the source copy of this module, which ./main.ts loads before the build (and
 * Vite in `astro dev` and the tests, and the staff CLI), names it for both.
 */
const workerFile = processWide('calendar-worker', () => new URL('./worker.ts', import.meta.url));

/** How long a worker may take to load its modules before it is given up. */
const STARTING_MS = 30_000;

interface Job {
  job: ReadJob | JoinJob;
  /** What the job's message moves rather than copies. */
  transfer: ArrayBuffer[];
  done: (answer: ReadAnswer | JoinReading) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: ReturnType<typeof setTimeout>;
}

export class FeedReaders {
  readonly #limits: ReadLimits;
  readonly #size: number;
  readonly #idleMs: number;
  readonly #log: (line: string) => void;
  #queue: Job[] = [];
  #slots: Slot[] = [];

  constructor(options: {
    limits: ReadLimits;
    /** Workers at once: by default one on 2 cores, two on more (the server keeps a core). */
    size?: number;
    idleMs?: number;
    log?: (line: string) => void;
  }) {
    this.#limits = options.limits;
    this.#size = options.size ?? Math.max(1, Math.min(2, availableParallelism() - 1));
    this.#idleMs = options.idleMs ?? 10_000;
    this.#log = options.log ?? ((line) => log.warn(line));
  }

  /** Reads a feed's text over each window, in a worker. Never throws. */
  read(text: string, windows: ReadJob['windows']): Promise<FeedReading> {
    const { maxSteps, ownUidSuffix } = this.#limits;
    return this.#run({ text, windows, maxSteps, ownUidSuffix }, (answer) => {
      const read = answer as ReadAnswer;
      return read.ok ? { ok: true, windows: read.windows.map(fromArrays) } : read;
    });
  }

  /** Makes a CalDAV answer one feed's text, in a worker, under the same limits. Never throws. */
  join(multistatus: ArrayBuffer, collection: string): Promise<JoinReading> {
    const job = { multistatus, collection };
    return this.#run(job, (answer) => answer as JoinReading, [multistatus]);
  }

  #run<T>(
    job: Job['job'],
    settle: (answer: ReadAnswer | JoinReading) => T,
    transfer: ArrayBuffer[] = [],
  ): Promise<T> {
    return new Promise((done) => {
      this.#queue.push({ job, transfer, done: (answer) => done(settle(answer)) });
      this.#dispatch();
    });
  }

  /** Stops every worker; reads in line or under way fail. */
  async stop() {
    for (const { done } of this.#queue.splice(0)) done({ ok: false, reason: 'the server stops' });
    const slots = this.#slots.splice(0);
    for (const slot of slots) {
      clearTimeout(slot.timer);
      slot.job?.done({ ok: false, reason: 'the server stops' });
    }
    await Promise.all(slots.map(({ worker }) => worker.terminate()));
  }

  #dispatch() {
    while (this.#queue.length > 0) {
      const idle = this.#slots.find((slot) => slot.ready && !slot.job);
      if (idle) {
        this.#give(idle, this.#queue.shift()!);
        continue;
      }
      const starting = this.#slots.filter((slot) => !slot.ready).length;
      if (starting >= this.#queue.length || this.#slots.length >= this.#size) return;
      this.#start();
    }
  }

  #start() {
    let worker: Worker;
    try {
      worker = new Worker(workerFile, {
        workerData: WORKER_DATA,
        resourceLimits: { maxOldGenerationSizeMb: this.#limits.memoryMb, stackSizeMb: 4 },
      });
    } catch (error) {
      this.#cannotStart(error);
      return;
    }
    const slot: Slot = { worker, ready: false };
    this.#slots.push(slot);
    slot.timer = setTimeout(() => void this.#end(slot, 'its reader did not start'), STARTING_MS);
    slot.timer.unref();
    worker.on('message', (message: 'ready' | ReadAnswer | JoinReading) => {
      // (An answer that comes as the worker is stopped for its time: the read has failed.)
      if (!this.#slots.includes(slot)) return;
      clearTimeout(slot.timer);
      if (message === 'ready') slot.ready = true;
      else {
        const job = slot.job;
        slot.job = undefined;
        job?.done(message);
      }
      this.#rest(slot);
      this.#dispatch();
    });
    worker.on(
      'error',
      (error: Error & { code?: string }) =>
        void this.#end(
          slot,
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `reading it needed more than ${this.#limits.memoryMb} MB`
            : 'it could not be read',
          error,
        ),
    );
    worker.on('exit', () => void this.#end(slot, 'it could not be read'));
  }

  #give(slot: Slot, job: Job) {
    clearTimeout(slot.timer);
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(
      () => void this.#end(slot, `reading it took longer than ${this.#limits.timeMs / 1000} s`),
      this.#limits.timeMs,
    );
    slot.worker.postMessage(job.job, job.transfer);
  }

  /** An idle worker holds no process open, and stops if no read comes. */
  #rest(slot: Slot) {
    slot.worker.unref();
    slot.timer = setTimeout(() => void this.#end(slot, ''), this.#idleMs);
    slot.timer.unref();
  }

  /** Stops a worker: its read, if any, fails for `reason`. */
  async #end(slot: Slot, reason: string, error?: Error) {
    const index = this.#slots.indexOf(slot);
    if (index === -1) return;
    this.#slots.splice(index, 1);
    clearTimeout(slot.timer);
    if (slot.job) {
      slot.job.done({ ok: false, reason });
      slot.job = undefined;
    } else if (!slot.ready) this.#cannotStart(error ?? reason);
    await slot.worker.terminate();
    this.#dispatch();
  }

  /** A worker that cannot start would fail every read the same way: they fail now, said once. */
  #cannotStart(error: unknown) {
    this.#log(`Calendars: a worker to read the feeds could not start (${String(error)}).`);
    for (const { done } of this.#queue.splice(0))
      done({ ok: false, reason: 'its reader could not start' });
  }
}

const fromArrays = ({
  busy,
  ...window
}: {
  busy: Float64Array;
  events: number;
  warnings: string[];
}) => {
  const intervals: Busy[] = [];
  for (let i = 0; i + 1 < busy.length; i += 2)
    intervals.push({ start: busy[i]!, end: busy[i + 1]! });
  return { ...window, busy: intervals };
};
