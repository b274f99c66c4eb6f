/**
 * The server follows the live release without a restart: the `current` link switched (as a publish
 * or a roll back does) is served from the next request on, by the new build's handler and files;
 * the requests around the switch all succeed, none held while the new build loads; a process
 * started later starts on the live release, unless dist/ was built after it (a deploy of new code).
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

/**
 * A build whose page and handler say `words`, made at `time` (seconds); its handler's module takes
 * `loadMs` to load (a real build's takes a moment: a switch must not hold requests meanwhile).
 */
function build(dir: string, words: string, time: number, loadMs = 0) {
  mkdirSync(join(dir, 'client'), { recursive: true });
  mkdirSync(join(dir, 'server'), { recursive: true });
  writeFileSync(join(dir, 'client/index.html'), `<!doctype html><title>${words}</title>`);
  const entry = join(dir, 'server/entry.mjs');
  writeFileSync(
    entry,
    (loadMs ? `await new Promise((resolve) => setTimeout(resolve, ${loadMs}));\n` : '') +
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

it('serves the switched release from the next request, with no request failed or held', async () => {
  const { config, paths } = site();
  build(config.distDir, 'deployed', 1000);
  build(join(paths.releasesDir, '1'), 'release one', 2000);
  // The new release's handler takes this long to load: the requests meanwhile go to the old one.
  const loadMs = 2000;
  build(join(paths.releasesDir, '2'), 'release two', 3000, loadMs);
  await switchTo(paths, 1);
  const live = await liveSite(config, quiet, 3_600_000);
  const url = await serve(live);
  expect(await (await fetch(`${url}/`)).text()).toContain('release one');
  expect(await (await fetch(`${url}/dynamic`)).text()).toBe('release one');

  // Four visitors, each asking a page and a rendered address in turn, while the link switches.
  type Seen = { status: number; release: string; started: number; ended: number };
  const seen: Seen[] = [];
  let switched = false;
  const visitor = async () => {
    // Until each has asked for both addresses since the switch.
    for (let i = 0, since = 0; i < 60 || since < 2; i++) {
      if (switched) since++;
      const started = performance.now();
      const answer = await fetch(`${url}/${i % 2 ? 'dynamic' : ''}`);
      const release = (await answer.text()).replace(/.*<title>|<\/title>/g, '');
      seen.push({ status: answer.status, release, started, ended: performance.now() });
      await sleep(5);
    }
  };
  const visitors = Promise.all([visitor(), visitor(), visitor(), visitor()]);
  await sleep(50);
  const switching = performance.now();
  await switchTo(paths, 2);
  await live.check();
  const live2 = performance.now();
  switched = true;
  await visitors;

  expect(seen.filter((s) => s.status !== 200)).toEqual([]);
  expect(live2 - switching).toBeGreaterThan(loadMs - 50);
  // While the new release loaded, the old one kept answering, at once: none was held for the switch
  // (a held request would have ended only as the load did). Times said on a loaded machine are the
  // machine's; what is counted here is not.
  const duringLoad = seen.filter((s) => s.started > switching && s.ended < live2 - loadMs / 4);
  expect(duringLoad.length).toBeGreaterThan(20);
  expect(new Set(duringLoad.map((s) => s.release))).toEqual(new Set(['release one']));
  const heldForTheSwitch = seen.filter(
    (s) => s.started > switching && s.started < switching + loadMs / 4 && s.ended > live2,
  );
  expect(heldForTheSwitch).toEqual([]);
  // From the switch on, the new release only.
  const after = seen.filter((s) => s.started > live2);
  expect(after.length).toBeGreaterThan(0);
  expect(new Set(after.map((s) => s.release))).toEqual(new Set(['release two']));
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
