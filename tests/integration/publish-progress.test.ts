/**
 * Publishing's page as the editor who pressed Publish lives it, in Chromium, against the
 * production server with EDITING=on: the page they land on follows the publish to "Live" with no
 * reload of theirs, with script and without it. The build is a stand-in (tests/support/fake-build.mjs:
 * this project's dist/), held under way until the test lets it go; ./live-editor.test.ts runs the
 * real one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { chromiumArgs, chromiumShellPath } from '../../scripts/local.mjs';
import type { RunningServer } from '../support/server';
import { heldBuild, startEditingServer, until as untilDone } from './editing-server';
import { post, read } from './staff-sign-in';

const EDITOR = 'erin@northgate-digital.example';
const SERVICE = 'src/content/services/android.mdx';

let work: string;
let server: RunningServer;
let browser: Browser;
let cookie: string;
/** The stand-in build, held under way until let go. */
let build: ReturnType<typeof heldBuild>;

const draftFile = () => join(work, 'editing', 'draft', SERVICE);
/** A change of the draft: the Android page's name. */
const rename = (title: string) =>
  writeFileSync(
    draftFile(),
    readFileSync(draftFile(), 'utf8').replace(/^title: .*$/m, `title: ${title}`),
  );
const hold = () => build.hold();
const letGo = () => build.letGo();

/** Publishing's page as the editor reads it, as text. */
const pageText = async () =>
  read(await (await fetch(`${server.url}/staff/publish`, { headers: { Cookie: cookie } })).text());

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'publish-progress-'));
  build = heldBuild(work);
  letGo();
  // A free port: TEST_PORT is the browser tests' server's, and other files here start servers at once.
  ({ server, cookie } = await startEditingServer(work, {
    build: build.command,
    editor: EDITOR,
    env: { EDITING_POLL_MS: '500', JOBS_POLL_MS: '100' },
  }));
  browser = await chromium.launch({ executablePath: chromiumShellPath, args: chromiumArgs });
  // A first publish: the deploy is then release 1, and the publish release 2, live.
  await until(async () => (await pageText()).includes('Your draft changes'));
  rename('Android by Erin');
  const pressed = await post(
    `${server.url}/staff/publish`,
    { action: 'publish' },
    { Cookie: cookie },
  );
  if (pressed.status !== 303) throw new Error(`Publish answered ${pressed.status}`);
  await until(settled);
}, 300_000);

/**
 * No publish under way, and the draft moved onto the last one (which follows its going live): a
 * change written before would be written over.
 */
const settled = async () =>
  /Last publish[\s\S]*(Nothing yet|No change of your own)/.test(await pageText());

/** Waits until `done()`, saying the server's output and the page if it never is. */
const until = (done: () => Promise<boolean>, timeoutMs = 150_000) =>
  untilDone(done, timeoutMs, async () => `${server.output()}\nThe page: ${await pageText()}`);

// A test that stopped halfway leaves no publish under way to the next.
afterEach(async () => {
  letGo();
  await until(settled);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/**
 * The editor's tab, with script or without; how many times it loaded a page, and how many of its
 * asks for Publishing were answered 304 (nothing new, no page made).
 */
async function editorTab(javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  context.setDefaultTimeout(30_000);
  await context.addCookies([{ name: 'staff', value: cookie.split('=')[1]!, url: server.url }]);
  const tab = await context.newPage();
  const loads = { count: 0, unchanged: 0 };
  tab.on('load', () => void loads.count++);
  tab.on('response', (answer) => {
    if (answer.status() === 304 && new URL(answer.url()).pathname === '/staff/publish')
      loads.unchanged++;
  });
  return { tab, loads };
}

/** Publish pressed on the page, with the build held: the tab lands on the publish under way. */
async function pressPublish(tab: Page, title: string) {
  hold();
  rename(title);
  await tab.goto(`${server.url}/staff/publish`);
  await tab.getByRole('button', { name: 'Publish', exact: true }).click();
  await tab.waitForURL(/\/staff\/publish\?done=queued#progress$/);
  await expect.poll(() => tab.locator('#progress').innerText()).toBe('Publishing now');
}

const shown = (tab: Page) => tab.locator('main').innerText();

it('takes the page of the editor who pressed Publish to "Live", keeping a focused Roll back focused', async () => {
  const { tab, loads } = await editorTab(true);
  await pressPublish(tab, 'Android, Followed');
  const landed = loads.count;
  const rollBack = tab.getByRole('button', { name: 'Roll back to release 1' });
  await rollBack.focus();
  // Several of the page's updates: the build has begun meanwhile, and the focus stayed.
  await expect.poll(() => shown(tab), { timeout: 20_000 }).toMatch(/Building the pages/);
  for (let update = 0; update < 3; update++) {
    await tab.waitForTimeout(2_000);
    expect(await rollBack.evaluate((button) => button === document.activeElement)).toBe(true);
  }
  // Asked again while the build was held, the page was the same: 304s, no page made.
  await expect.poll(() => loads.unchanged, { timeout: 20_000 }).toBeGreaterThan(0);
  letGo();
  await expect.poll(() => shown(tab), { timeout: 60_000 }).toMatch(/Last publish\s*Live/);
  expect(await shown(tab)).toMatch(/Release 3 \(live now\): Changed Android, Followed/);
  // In place: no reload, the focus where it was, and the words of the press gone with the publish.
  expect(loads.count).toBe(landed);
  expect(await rollBack.evaluate((button) => button === document.activeElement)).toBe(true);
  expect(await shown(tab)).not.toMatch(/Publishing has started/);
  await tab.context().close();
}, 120_000);

it('reloads the page of the editor who pressed Publish without script, until it is "Live"', async () => {
  const { tab, loads } = await editorTab(false);
  await pressPublish(tab, 'Android, Reloaded');
  const landed = loads.count;
  expect(await shown(tab)).toMatch(/Publishing has started/);
  await expect.poll(() => loads.count, { timeout: 20_000 }).toBeGreaterThan(landed);
  // The words of the press were said once, as it landed.
  expect(await shown(tab)).not.toMatch(/Publishing has started/);
  letGo();
  await expect.poll(() => shown(tab), { timeout: 60_000 }).toMatch(/Last publish\s*Live/);
  expect(await shown(tab)).toMatch(/\(live now\): Changed Android, Reloaded/);
  await tab.context().close();
}, 120_000);

it('says Roll back waits while a publish is under way, and refuses a press', async () => {
  const { tab } = await editorTab(true);
  await pressPublish(tab, 'Android, Waited For');
  const rollBack = tab.getByRole('button', { name: 'Roll back to release 1' });
  await expect.poll(() => rollBack.getAttribute('aria-disabled')).toBe('true');
  expect(
    await rollBack.evaluate((button) => button.ariaDescribedByElements?.[0]?.textContent),
  ).toMatch(/Roll back waits while a publish is under way/);
  // Pressed with script: nothing is sent. Posted all the same (a page without script): refused.
  await rollBack.focus();
  await tab.keyboard.press('Enter');
  await tab.waitForTimeout(500);
  expect(tab.url()).toMatch(/\?done=queued#progress$/);
  const pressed = await post(
    `${server.url}/staff/publish`,
    { action: 'rollback', release: '1' },
    { Cookie: cookie },
  );
  expect(pressed.headers.get('location')).toBe('/staff/publish?done=rollback-waits#done');
  letGo();
  await expect.poll(() => rollBack.getAttribute('aria-disabled'), { timeout: 60_000 }).toBeNull();
  expect(await shown(tab)).toMatch(/\(live now\): Changed Android, Waited For/);
  expect(await shown(tab)).not.toMatch(/Roll back waits/);
  await tab.context().close();
}, 120_000);

it('says a roll back since the last publish, by whom and when', async () => {
  const live = await pageText();
  expect(live).toMatch(/Last publish\s*Live \(100%\)/);
  const pressed = await post(
    `${server.url}/staff/publish`,
    { action: 'rollback', release: '1' },
    { Cookie: cookie },
  );
  expect(pressed.headers.get('location')).toBe('/staff/publish?done=rolled-back#done');
  const after = await pageText();
  expect(after).toMatch(/Last publish\s*Live, then rolled back \(100%\)/);
  expect(after).toMatch(
    /Rolled back by erin@northgate-digital\.example, \d+ \w+ \d{4}, \d\d:\d\d: release \d+ is live now\./,
  );
});
