/**
 * The queue of durable work beyond e-mail: a kind of job the schema has never heard of is queued,
 * claimed and run by its handler, once, across processes; a failure for now is tried again after
 * its backoff; a kind a process has no handler for waits for one that has. On both engines, with
 * the tests' clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobQueue, type JobHandler } from '../../src/server/jobs/queue';
import type { EnquiryStore, Job } from '../../src/server/store/types';
import { backends, type Backend } from '../support/store-backends';

describe.each(Object.keys(backends) as (keyof typeof backends)[])('jobs on %s', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  const clock = { now: 0 };
  beforeEach(async () => {
    clock.now = Date.parse('2027-01-05T09:00:00Z');
    backend = await backends[kind]();
    store = backend.store;
  });
  afterEach(() => backend.cleanup());

  /** A queue on `over` whose only handler is `handler`, of kind 'calendar-write'. */
  const queueOf = (over: EnquiryStore, handler: JobHandler, log?: (line: string) => void) =>
    new JobQueue({
      store: over,
      handlers: new Map([['calendar-write', handler]]),
      pollMs: 60_000,
      retryBaseMs: 60_000,
      now: () => clock.now,
      ...(log && { log }),
    });
  const queueWrites = (hosts: string[], dueAt = clock.now) =>
    store.transaction((tx) =>
      tx.queue(hosts.map((host) => ({ kind: 'calendar-write', dueAt, payload: { host } }))),
    );

  it('runs a new kind by its handler, with its payload, once across two processes', async () => {
    await queueWrites(['ana', 'ben', 'cleo', 'dev', 'eve', 'fay']);
    const ran: string[] = [];
    const handler: JobHandler = async (job) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      ran.push((job.payload as { host: string }).host);
      return { done: true };
    };
    const other = await backend.open();
    await Promise.all([queueOf(store, handler).drain(), queueOf(other, handler).drain()]);
    expect(ran.sort()).toEqual(['ana', 'ben', 'cleo', 'dev', 'eve', 'fay']);
    expect(await store.claimDue(clock.now + 86_400_000, 100, 0)).toEqual([]);
  });

  it('tries a failure for now again after its backoff, and gives up one for good', async () => {
    await queueWrites(['ana', 'ben']);
    const attempts: [string, number][] = [];
    const lines: string[] = [];
    const handler: JobHandler = async ({ payload, attempts: n }: Job) => {
      const { host } = payload as { host: string };
      attempts.push([host, n]);
      if (host === 'ben') return { failed: 'no such calendar', log: `ben: no such calendar` };
      return n === 0 ? { retry: 'calendar down', log: 'ana: calendar down' } : { done: true };
    };
    const queue = queueOf(store, handler, (line) => lines.push(line));
    await queue.drain();
    expect(attempts.sort()).toEqual([
      ['ana', 0],
      ['ben', 0],
    ]);
    // Within the backoff (a minute, less a fifth): nothing is due.
    clock.now += 47_000;
    await queue.drain();
    expect(attempts).toHaveLength(2);
    clock.now += 30_000;
    await queue.drain();
    expect(attempts).toContainEqual(['ana', 1]);
    expect(attempts).toHaveLength(3);
    expect(lines).toEqual(expect.arrayContaining(['ana: calendar down', 'ben: no such calendar']));
    expect(await store.countFailed()).toBe(1);
    expect(await store.claimDue(clock.now + 86_400_000, 100, 0)).toEqual([]);
  });

  it('leaves a kind with no handler here for later, and runs the rest', async () => {
    await store.transaction((tx) =>
      tx.queue([
        { kind: 'publish', dueAt: clock.now, payload: { page: '/services/web' } },
        { kind: 'calendar-write', dueAt: clock.now, payload: { host: 'ana' } },
      ]),
    );
    const ran: unknown[] = [];
    await queueOf(store, async (job) => (ran.push(job.payload), { done: true })).drain();
    expect(ran).toEqual([{ host: 'ana' }]);
    // Not given up: a process with its handler runs it once its wait is over.
    expect(await store.countFailed()).toBe(0);
    const [waiting] = await store.claimDue(clock.now + 86_400_000, 100, 0);
    expect(waiting).toMatchObject({ kind: 'publish', payload: { page: '/services/web' } });
  });

  it('refuses a kind that is not a short name, and stores nothing of its transaction', async () => {
    for (const bad of ['', 'Calendar', 'mail; DROP TABLE jobs', 'x'.repeat(41), 'café'])
      await expect(store.transaction((tx) => tx.queue([{ kind: bad, dueAt: 0 }]))).rejects.toThrow(
        /Not a kind of job/,
      );
    expect(await store.claimDue(clock.now, 100, 0)).toEqual([]);
  });
});
