/**
 * Work to finish before the process exits on SIGTERM or SIGINT (./main.ts): field data's queued
 * measurements, for one. The site's handler runs inside the build (dist/server/entry.mjs), which
 * holds its own copy of every server module, so the list is one for the process (./process-wide.ts),
 * which both copies find.
 */
import { log } from './log.ts';
import { processWide } from './process-wide.ts';

type Task = () => Promise<void>;

const tasks = processWide('shutdown', () => new Set<Task>());
const state = processWide('stopping', () => ({ stopping: false }));

/** Says that this process is stopping: /healthz answers 503 from now on, so balancers leave it. */
export function markStopping(): void {
  state.stopping = true;
}

/** Whether this process is stopping (SIGTERM received). */
export const isStopping = (): boolean => state.stopping;

/** Runs `task` when the server stops. */
export function onShutdown(task: Task): void {
  tasks.add(task);
}

/** Runs every task, waiting at most `ms`; a task that fails is logged, not thrown. */
export async function finishBeforeExit(ms: number): Promise<void> {
  const all = Promise.all(
    [...tasks].map((task) => task().catch((error) => log.error('While stopping:', error))),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([all, late]);
  clearTimeout(timer);
}
