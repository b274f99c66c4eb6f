/** Starts the production server (`npm start`'s src/server/main.ts over dist/) for a test, on loopback. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../scripts/local.mjs';
import { openStore } from '../../src/server/store/index';
import type { StoredEnquiry } from '../../src/server/store/types';

export { freePort };

export interface RunningServer {
  url: string;
  database: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs, as in a crash. */
  kill9(): Promise<void>;
}

/** Where a test's databases go: its file's folder (./test-databases.ts), else one for the process. */
let processFolder: string | undefined;
function databasesFolder() {
  if (process.env.TEST_DATABASES) return process.env.TEST_DATABASES;
  // Vitest ends its workers without their 'exit' event: the folder would outlive the run.
  if (process.env.VITEST)
    throw new Error("Name tests/support/test-databases.ts in this vitest project's setupFiles.");
  if (!processFolder) {
    const folder = mkdtempSync(join(tmpdir(), 'enquiries-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    processFolder = folder;
  }
  return processFolder;
}

export const newDatabasePath = () =>
  join(mkdtempSync(join(databasesFolder(), 'database-')), 'enquiries.sqlite');

const compileCache = process.env.NODE_COMPILE_CACHE ?? resolve('node_modules/.cache/node-compile');

/**
 * The servers still running, killed as this process exits (a browser test's worker) or, under
 * vitest, whose workers end without that event, as the test file ends (./test-databases.ts): one
 * whose test ran out of time before stopping it (or whose stop threw) was left listening, its
 * process orphaned, for the whole run.
 */
const running = new Set<ChildProcess>();
export const killRunningServers = () => running.forEach((child) => child.kill('SIGKILL'));
process.once('exit', killRunningServers);
function killedOnExit(child: ChildProcess) {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  // A port of the test's choosing (a site's address, to reopen the same origin), or a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const database = env.ENQUIRY_DB ?? newDatabasePath();
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ENQUIRY_DB: database,
      RATE_LIMIT: 'off',
      // The tests book many calls from one address; the cap has tests of its own.
      BOOKING_CAP: 'off',
      // Node keeps each module's compiled code here: the next servers (and the CLI they run) start
      // on it, about a quarter less processor time than compiling the build's modules anew.
      NODE_COMPILE_CACHE: compileCache,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killedOnExit(child);
  let log = '';
  const url = `http://127.0.0.1:${port}`;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const stopWith = async (signal: NodeJS.Signals) => {
    if (exited()) return;
    const done = once(child, 'exit');
    child.kill(signal);
    await done;
  };
  // Started when it says so (it logs the line once it listens), or gone: no polling.
  const started = new Promise<boolean>((resolve) => {
    const read = (chunk: Buffer) => {
      log += chunk;
      if (log.includes('Serving the site')) resolve(true);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    // 'close': after its last output, which says why it stopped.
    child.once('close', () => resolve(false));
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    // 40 s: under test:stress a start took over 20 s. Said after the loop's next read of the pipes,
    // not at once: a timer that fires late (this process was busy) comes before the output that
    // waited meanwhile, which may be the start line.
    timer = setTimeout(() => setImmediate(() => resolve('timeout')), 40_000);
  });
  const outcome = await Promise.race([started, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    await stopWith('SIGKILL');
    throw new Error(`The server did not start:\n${log}`);
  }
  if (!outcome) throw new Error(`The server exited while starting:\n${log}`);
  // Its first page is the readiness check. A 408 says the server's own loop, busy on a loaded
  // machine with its first page's work, came to our head after a test's short HEADERS_TIMEOUT_MS:
  // asked again, it answers.
  let first = await fetch(`${url}/`);
  for (let retry = 0; first.status === 408 && retry < 3; retry++) {
    await first.arrayBuffer();
    first = await fetch(`${url}/`);
  }
  if (!first.ok) {
    await stopWith('SIGKILL');
    throw new Error(`The server answered its first page with ${first.status}:\n${log}`);
  }
  return {
    url,
    database,
    child,
    output: () => log,
    stop: () => stopWith('SIGTERM'),
    kill9: () => stopWith('SIGKILL'),
  };
}

export const validEnquiry = {
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  contact: '+44 20 7946 0958',
  service: 'Web Development,Technical Consultancy',
  project: 'A booking platform for 12 clinics.',
};

/** Posts a form as a fetch from the site's own page would. */
export function postForm(
  url: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of ([] as string[]).concat(value)) body.append(name, item);
  }
  return fetch(url, {
    method: 'POST',
    body,
    headers: { Accept: 'application/json', ...headers },
    redirect: 'manual',
  });
}

/** What a server's store holds, read as the staff CLI reads it (a SQLite file, or a PostgreSQL URL). */
export async function readStore(location: string): Promise<StoredEnquiry[]> {
  const store = await openStore(
    location.startsWith('postgres')
      ? { databaseUrl: location, databasePath: '' }
      : { databasePath: location },
    { readOnly: true },
  );
  try {
    return await store.all();
  } finally {
    await store.close();
  }
}
