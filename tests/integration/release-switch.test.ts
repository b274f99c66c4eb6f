/**
 * The server follows the live release without a restart: the `current` link switched (as a publish
 * or a roll back does) is served from the next request on, by the new build's handler and files;
 * the requests around the switch all succeed, quickly; a process started later starts on the live
 * release, unless dist/ was built after it (a deploy of new code).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { createSiteServer } from '../../src/server/http/server';
import { liveSite, type LiveSite } from '../../src/server/releases/live-site';
import { releasePaths, switchTo } from '../../src/server/releases/folders';

const folders: string[] = [];
const running: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const one of running.splice(0)) await one.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A build whose page and handler say `words`, made at `time` (seconds). */
function build(dir: string, words: string, time: number) {
  mkdirSync(join(dir, 'client'), { recursive: true });
  mkdirSync(join(dir, 'server'), { recursive: true });
  writeFileSync(join(dir, 'client/index.html'), `<!doctype html><title>${words}</title>`);
  const entry = join(dir, 'server/entry.mjs');
  writeFileSync(
    entry,
    `export const handler = (req, res) => setImmediate(() => res.end(${JSON.stringify(words)}));\n`,
  );
  utimesSync(entry, time, time);
}

function site() {
  const root = mkdtempSync(join(tmpdir(), 'release-switch-'));
  folders.push(root);
  const config = readConfig({
    EDITING: 'on',
    EDITING_DIR: join(root, 'editing'),
    DIST_DIR: join(root, 'dist'),
  });
  const paths = releasePaths(config.editing);
  return { root, config, paths };
}

async function serve(live: LiveSite) {
  const server = createSiteServer({ site: live.current, limits: readConfig({}).connections });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push({
    close: async () => {
      live.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const quiet = { info: () => {}, error: (line: string) => expect.fail(line) };

it('serves the switched release from the next request, with no request failed or slow', async () => {
  const { config, paths } = site();
  build(config.distDir, 'deployed', 1000);
  build(join(paths.releasesDir, '1'), 'release one', 2000);
  build(join(paths.releasesDir, '2'), 'release two', 3000);
  await switchTo(paths, 1);
  const live = await liveSite(config, quiet, 3_600_000);
  const url = await serve(live);
  expect(await (await fetch(`${url}/`)).text()).toContain('release one');
  expect(await (await fetch(`${url}/dynamic`)).text()).toBe('release one');

  // Four visitors, each asking a page and a rendered address in turn, while the link switches.
  const seen: { status: number; body: string; ms: number }[] = [];
  let switched = false;
  const visitor = async () => {
    for (let i = 0; i < 60 || !switched; i++) {
      const started = performance.now();
      const answer = await fetch(`${url}/${i % 2 ? 'dynamic' : ''}`);
      seen.push({
        status: answer.status,
        body: await answer.text(),
        ms: performance.now() - started,
      });
    }
  };
  const visitors = Promise.all([visitor(), visitor(), visitor(), visitor()]);
  await switchTo(paths, 2);
  await live.check();
  switched = true;
  await visitors;

  expect(seen.filter((s) => s.status !== 200)).toEqual([]);
  expect(new Set(seen.map((s) => s.body.replace(/.*<title>|<\/title>/g, '')))).toEqual(
    new Set(['release one', 'release two']),
  );
  const times = seen.map((s) => s.ms).sort((a, b) => a - b);
  expect(times[Math.floor(times.length * 0.99)]).toBeLessThan(250);
  expect(await (await fetch(`${url}/`)).text()).toContain('release two');
  expect(await (await fetch(`${url}/dynamic`)).text()).toBe('release two');
});

it('starts on the live release, or on dist/ when it was built after it', async () => {
  const { config, paths } = site();
  build(config.distDir, 'deployed', 1000);
  build(join(paths.releasesDir, '1'), 'release one', 2000);
  await switchTo(paths, 1);
  const url = await serve(await liveSite(config, quiet, 3_600_000));
  expect(await (await fetch(`${url}/dynamic`)).text()).toBe('release one');

  // Built after the link was switched: a deploy.
  const later = Date.now() / 1000 + 60;
  utimesSync(join(config.distDir, 'server/entry.mjs'), later, later);
  const lines: string[] = [];
  const after = await serve(
    await liveSite(config, { ...quiet, info: (l) => lines.push(l) }, 3_600_000),
  );
  expect(await (await fetch(`${after}/dynamic`)).text()).toBe('deployed');
  expect(lines.join('\n')).toMatch(/made after the live release 1/);

  const off = readConfig({ EDITING_DIR: paths.editingDir, DIST_DIR: config.distDir });
  utimesSync(join(config.distDir, 'server/entry.mjs'), 1000, 1000);
  const withoutEditing = await serve(await liveSite(off, quiet, 3_600_000));
  expect(await (await fetch(`${withoutEditing}/dynamic`)).text()).toBe('deployed');
});

it('keeps serving the build it has when the live release will not load, and says so once', async () => {
  const { config, paths } = site();
  build(join(paths.releasesDir, '1'), 'release one', 2000);
  await switchTo(paths, 1);
  const errors: string[] = [];
  const live = await liveSite(config, { info: () => {}, error: (l) => errors.push(l) }, 3_600_000);
  const url = await serve(live);
  // A release whose server imports a package its folder cannot find (its node_modules missing).
  build(join(paths.releasesDir, '2'), 'release two', 3000);
  writeFileSync(join(paths.releasesDir, '2/server/entry.mjs'), `import 'no-such-package';\n`);
  await switchTo(paths, 2);
  for (let i = 0; i < 3; i++) await live.check();
  expect(await (await fetch(`${url}/dynamic`)).text()).toBe('release one');
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(
    /^Could not switch to the live release 2 \(still serving the one before\)/,
  );
});
