// The project the editor's browser tests work in: a copy of this one in the temporary folder, so that
// their saves and uploads never touch the working tree, their `astro dev` is not the developer's own
// (Astro allows one dev server per project), and `npm test` can run them beside the phases that read
// src/content (./project-copy.mjs makes it).
//
// Usage: node scripts/editor-project.mjs --copy NAME[=PORT] ... [--ready PATH] -- <astro dev arguments>
// makes a fresh copy for each NAME and runs `astro dev` in each (with `--port PORT`) until stopped;
// once each answers PATH (`/` by default), it says "Dev servers ready". playwright.editor.config.ts
// runs its two copies, `first` and `second`, from one command: they start together, in about the
// time of one (Playwright starts its web servers one after the other). The tests find a copy with
// `editorProject(NAME)`.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyProject } from './project-copy.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Where a copy of this project lives: one per clone and name, so that two clones' runs do not meet.
 * Its dev server's output is also written beside it, to `<copy>.log` (outside the copy, whose files
 * the dev server watches), for a failed test to quote (tests/editor/content.ts, `devServerLog`).
 */
export const editorProject = (name = 'editing') =>
  join(
    tmpdir(),
    `editor-test-${createHash('sha1').update(root).digest('hex').slice(0, 10)}-${name}`,
  );

/** Whether nothing listens on `port` of `host` yet (Astro would take the next port, silently). */
const portFree = (host, port) =>
  new Promise((done) => {
    const probe = createServer()
      .once('error', () => done(false))
      .listen(port, host, () => probe.close(() => done(true)));
  });

/** Runs `astro dev` in a fresh copy named `name`; the copy and its log go when it stops. */
function devServer(name, args) {
  const copy = editorProject(name);
  copyProject(root, copy);
  const log = createWriteStream(`${copy}.log`);
  const server = spawn(
    process.execPath,
    [join(root, 'node_modules/astro/bin/astro.mjs'), 'dev', ...args],
    { cwd: copy, stdio: ['inherit', 'pipe', 'pipe'] },
  );
  server.stdout.on('data', (chunk) => (process.stdout.write(chunk), log.write(chunk)));
  server.stderr.on('data', (chunk) => (process.stderr.write(chunk), log.write(chunk)));
  const exited = new Promise((done) =>
    server.on('exit', (code, signal) => {
      rmSync(copy, { recursive: true, force: true });
      rmSync(`${copy}.log`, { force: true });
      done(code ?? (signal ? 1 : 0));
    }),
  );
  return { server, exited };
}

/** Until `url` answers as Playwright's `webServer.url` must: with a status below 404. */
async function answers(url) {
  for (;;) {
    const response = await fetch(url).catch(() => undefined);
    await response?.body?.cancel();
    if (response && response.status < 404) return;
    await new Promise((later) => setTimeout(later, 250));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = process.argv.slice(2, process.argv.indexOf('--'));
  const args = process.argv.slice(process.argv.indexOf('--') + 1);
  const valueOf = (option) => options.filter((_, i) => options[i - 1] === option);
  const copies = (valueOf('--copy').length ? valueOf('--copy') : ['editing']).map((spec) => {
    const [name, port] = spec.split('=');
    return { name, port };
  });
  const host = args.includes('--host') ? args[args.indexOf('--host') + 1] : 'localhost';
  for (const { name, port } of copies)
    if (port && !(await portFree(host, Number(port)))) {
      console.error(`${host}:${port}, for the copy ${name}, is already in use.`);
      process.exit(1);
    }
  const servers = copies.map(({ name, port }) =>
    devServer(name, port ? [...args, '--port', port] : args),
  );
  let stopping = false;
  const stop = (signal) => {
    stopping = true;
    for (const { server } of servers) server.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
  // One server that stops on its own stops the others: the run cannot go on without it.
  for (const { exited } of servers) void exited.then(() => stopping || stop('SIGINT'));
  const path = valueOf('--ready')[0] ?? '/';
  void Promise.all(copies.map(({ port }) => port && answers(`http://${host}:${port}${path}`))).then(
    () => stopping || console.log(`Dev servers ready: ${copies.map((c) => c.name).join(', ')}`),
  );
  const codes = await Promise.all(servers.map(({ exited }) => exited));
  process.exit(codes.find((code) => code !== 0) ?? 0);
}
