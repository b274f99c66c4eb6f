/**
 * Two server processes on one PostgreSQL database that share no folder (two "machines": each its
 * own EDITING_DIR and its own clone of the site): a publish made on one is served by the other
 * within 30 s, the release travelling through the store; a roll back too; the other, restarted,
 * starts on the live release; Publishing itself is the first machine's (the other says so). The build is a stand-in (tests/support/fake-build.mjs: this
 * project's dist/ with the page's new title); ./live-editor.test.ts runs the real one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres } from '../../scripts/postgres.mjs';
import { stoppedAfterEach } from './stopped-after-each';
import { freePort } from '../support/server';
import { post, signIn } from './staff-sign-in';

const root = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'publish-postgres-'));
let postgres: Awaited<ReturnType<typeof startPostgres>>;
beforeAll(async () => {
  postgres = await startPostgres({ durable: false });
}, 60_000);
afterAll(async () => {
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
});

const EDITOR = 'erin@agency.example';
const servers = stoppedAfterEach({
  STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
  STAFF_EDITORS: EDITOR,
  EDITING: 'on',
  EDITING_POLL_MS: '500',
  PUBLISH_BUILD_COMMAND: `${process.execPath} ${join(root, 'tests/support/fake-build.mjs')}`,
});

/** A machine's own folders: a clone of the site (its packages linked) and its editing folder. */
function machine(name: string) {
  const site = join(work, name, 'site');
  execFileSync('git', ['clone', '-q', root, site]);
  symlinkSync(join(root, 'node_modules'), join(site, 'node_modules'));
  return { SITE_REPO_DIR: site, EDITING_DIR: join(work, name, 'editing') };
}

const published = async (url: string) =>
  /<p id="published">([^<]*)<\/p>/.exec(await (await fetch(`${url}/android`)).text())?.[1];

it('serves a publish and a roll back on both machines, through the store', async () => {
  const DATABASE_URL = await postgres.createStore();
  const [a, b] = [machine('a'), machine('b')];
  const { server, mails } = await servers.startWithMail({ DATABASE_URL, ...a });
  // Its own address on http, as the first's: the session cookie is then the same plain one.
  const port = String(await freePort());
  const otherEnv = { DATABASE_URL, ...b, PORT: port, SITE_URL: `http://127.0.0.1:${port}` };
  let other = await servers.start(otherEnv);
  const { cookie } = await signIn(server, mails, EDITOR);
  const as = { Cookie: cookie };
  expect((await fetch(`${server.url}/staff/publish`, { headers: as })).status).toBe(200);

  const file = join(a.EDITING_DIR, 'draft', 'src/content/services/android.mdx');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Android on Every Machine'),
  );
  expect((await post(`${server.url}/staff/publish`, { action: 'publish' }, as)).status).toBe(303);
  await expect
    .poll(() => published(server.url), { timeout: 30_000, interval: 200 })
    .toBe('Android on Every Machine');
  const live = Date.now();
  await expect
    .poll(() => published(other.url), { timeout: 30_000, interval: 200 })
    .toBe('Android on Every Machine');
  expect(Date.now() - live).toBeLessThan(30_000);

  // Publishing is the first machine's (its repository holds the commits): the other one says so.
  const elsewhere = await fetch(`${other.url}/staff/publish`, { headers: as });
  expect(elsewhere.status).toBe(409);
  expect(await elsewhere.text()).toMatch(/publishing is done on the machine that published it/);
  const page = await (await fetch(`${server.url}/staff/publish`, { headers: as })).text();
  const deployed = /name="release" value="(\d+)"/.exec(page)![1]!;
  const rolled = await post(
    `${server.url}/staff/publish`,
    { action: 'rollback', release: deployed },
    as,
  );
  expect(rolled.status).toBe(303);
  await expect
    .poll(() => published(server.url), { timeout: 10_000, interval: 200 })
    .toBeUndefined();
  await expect.poll(() => published(other.url), { timeout: 30_000, interval: 200 }).toBeUndefined();

  // A restart starts on the live release: the publish, rolled back to again from the first machine.
  const again = /name="release" value="(\d+)"/g;
  const ids = [
    ...(await (await fetch(`${server.url}/staff/publish`, { headers: as })).text()).matchAll(again),
  ].map((m) => m[1]!);
  const publish = ids.find((id) => id !== deployed)!;
  expect(
    (await post(`${server.url}/staff/publish`, { action: 'rollback', release: publish }, as))
      .status,
  ).toBe(303);
  await other.stop();
  other = await servers.start(otherEnv);
  await expect
    .poll(() => published(other.url), { timeout: 30_000, interval: 200 })
    .toBe('Android on Every Machine');
}, 180_000);
