/**
 * Publishing's page followed while a publish builds, against the production server with
 * EDITING=on: one server and one first publish for both parts, which cost more to start than
 * their tests take. The build is a stand-in (tests/support/fake-build.mjs: this project's dist/),
 * held under way until the test lets it go; ./live-editor.test.ts runs the real one.
 *
 * Over HTTP, as each open tab's PublishFollow.astro asks it every 3 s: while what the page shows
 * is the same, its ETag sent back is answered 304, no page made and no git process started (a
 * `git` first on the server's PATH counts them); a colleague's Save, or the build moving on, and
 * the same ask gets the new page. Never a 304 to another member, to a forged tag, or to one
 * signed out.
 *
 * In Chromium, as the editor who pressed Publish lives it: the page they land on follows the
 * publish to "Live" with no reload of theirs, with script and without it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumShellPath } from '../../scripts/local.mjs';
import type { RunningServer } from '../support/server';
import { heldBuild, sessionCookie, startEditingServer, until as untilDone } from './editing-server';
import { post, read } from './staff-sign-in';

const EDITOR = 'erin@northgate-digital.example';
const COLLEAGUE = 'colm@northgate-digital.example';
const OFFICE = 'office@northgate-digital.example';
/** The page each publish here changes (its title: the stand-in build shows it). */
const PUBLISHED = 'src/content/services/android.mdx';
/** The page a colleague saves while a publish builds. */
const SAVED = 'src/content/services/ipad.mdx';

let work: string;
let server: RunningServer;
let cookie: string;
/** A colleague's session, another editor's. */
let colleague: string;
/** The stand-in build, held under way until let go. */
let build: ReturnType<typeof heldBuild>;
/** A line per git process the server (or its editor's helper) started. */
let gitLog: string;
/** The colleague's page as the site has it, before their Save. */
let savedAsLive: string;

const draftFile = (path: string) => join(work, 'editing', 'draft', path);
/** A change of the draft: the Android page's name. */
const rename = (title: string) =>
  writeFileSync(
    draftFile(PUBLISHED),
    readFileSync(draftFile(PUBLISHED), 'utf8').replace(/^title: .*$/m, `title: ${title}`),
  );
const hold = () => build.hold();
const letGo = () => build.letGo();

/** How many git processes the server has started so far. */
const gitRuns = () => readFileSync(gitLog, 'utf8').split('\n').filter(Boolean).length;

/** Publishing's page asked as PublishFollow asks it, with the ETag of the copy it has, if any. */
const ask = (who: string, tag?: string) =>
  fetch(`${server.url}/staff/publish`, {
    redirect: 'manual',
    headers: { Cookie: who, Accept: 'text/html', ...(tag && { 'If-None-Match': tag }) },
  });

/** Publishing's page as the editor reads it, as text. */
const pageText = async () => read(await (await ask(cookie)).text());

/** Waits until `done()`, saying the server's output and the page if it never is. */
const until = (done: () => Promise<boolean>, timeoutMs = 150_000) =>
  untilDone(done, timeoutMs, async () => `${server.output()}\nThe page: ${await pageText()}`);

/**
 * No publish under way, and the draft moved onto the last one (which follows its going live): a
 * change written before would be written over.
 */
const settled = async () => /Last publish[\s\S]*Nothing yet/.test(await pageText());

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'publish-follow-'));
  build = heldBuild(work);
  gitLog = join(work, 'git.log');
  const bin = join(work, 'bin');
  mkdirSync(bin);
  const git = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${gitLog}'\nexec '${git}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  writeFileSync(gitLog, '');
  // A free port: TEST_PORT is the browser tests' server's, and other files here start servers at once.
  ({ server, cookie } = await startEditingServer(work, {
    build: build.command,
    editor: EDITOR,
    env: {
      PATH: `${bin}:${process.env.PATH}`,
      STAFF_EDITORS: `${EDITOR},${COLLEAGUE}`,
      STAFF_EMAILS: OFFICE,
      EDITING_POLL_MS: '500',
      JOBS_POLL_MS: '100',
    },
  }));
  colleague = await sessionCookie(server, COLLEAGUE);
  // The first publish, its build held under way: the deploy is release 1, this publish release 2.
  await until(async () => (await pageText()).includes('Your draft changes'), 60_000);
  savedAsLive = readFileSync(draftFile(SAVED), 'utf8');
  rename('Android, Held');
  const pressed = await post(
    `${server.url}/staff/publish`,
    { action: 'publish' },
    { Cookie: cookie },
  );
  if (pressed.status !== 303) throw new Error(`Publish answered ${pressed.status}`);
  await until(async () => /Building the pages/.test(await pageText()), 60_000);
}, 180_000);

afterAll(async () => {
  build?.letGo();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The page with its ETag, once asking again with that ETag is answered 304 (nothing moving). */
async function steady(who: string) {
  let page = { tag: '', text: '' };
  await until(async () => {
    const answer = await ask(who, page.tag || undefined);
    if (answer.status === 304) return true;
    expect(answer.status).toBe(200);
    page = { tag: answer.headers.get('ETag') ?? '', text: read(await answer.text()) };
    return false;
  }, 60_000);
  return page;
}

describe('asked again while a publish builds, over HTTP', () => {
  // The first publish is under way as they begin, its build held.
  it('answers the same page 304 while a publish builds, running no git, and any change with the page', async () => {
    const held = await steady(cookie);
    expect(held.tag).toMatch(/^W\/"[\w-]+"$/);
    expect(held.text).toMatch(/Publishing now\s*Building the pages/);
    // The page made anew runs git (the count sees it); the same page asked again runs none.
    const before = gitRuns();
    expect((await ask(cookie)).status).toBe(200);
    expect(gitRuns()).toBeGreaterThan(before);
    for (let turn = 0; turn < 3; turn++) {
      const runs = gitRuns();
      const again = await ask(cookie, held.tag);
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('ETag')).toBe(held.tag);
      expect(again.headers.get('Cache-Control')).toBe('no-store');
      expect(gitRuns()).toBe(runs);
    }

    // A colleague's Save, in the editor, while it builds: the same ask gets the page with it.
    await until(async () => server.output().includes('The visual editor is served'), 60_000);
    const opened = readFileSync(draftFile(SAVED), 'utf8');
    const saved = await fetch(`${server.url}/api/keystatic/update`, {
      method: 'POST',
      headers: {
        Cookie: colleague,
        Origin: server.url,
        'Content-Type': 'application/json',
        'no-cors': '1',
        // The version the colleague's tab opened (a blob's sha), as Keystatic's tab tells a Save.
        'x-editor-base': JSON.stringify({
          [SAVED]: createHash('sha1')
            .update(`blob ${Buffer.byteLength(opened)}\0${opened}`)
            .digest('hex'),
        }),
      },
      body: JSON.stringify({
        additions: [
          {
            path: SAVED,
            contents: Buffer.from(
              opened.replace(/^title: .*$/m, 'title: iPad, Saved Meanwhile'),
            ).toString('base64'),
          },
        ],
        deletions: [],
      }),
    });
    expect(saved.status).toBe(200);
    const afterSave = await ask(cookie, held.tag);
    expect(afterSave.status).toBe(200);
    expect(read(await afterSave.text())).toMatch(/iPad, Saved Meanwhile/);
    const meanwhile = await steady(cookie);
    expect(meanwhile.tag).not.toBe(held.tag);

    // The build let go: the same ask gets the page that moved on, then follows it to Live.
    letGo();
    let moved: Response | undefined;
    await until(async () => (moved = await ask(cookie, meanwhile.tag)).status === 200, 60_000);
    expect(read(await moved!.text())).not.toMatch(/Building the pages \(15%\)/);
    const live = await steady(cookie);
    expect(live.text).toMatch(/Last publish\s*Live \(100%\)/);
  }, 180_000);

  it('never answers 304 to a forged tag, to another member, or to one signed out or not an editor', async () => {
    const { tag } = await steady(cookie);
    const forged = [
      '*',
      tag.replace(/.(?="$)/, (last) => (last === 'A' ? 'B' : 'A')),
      tag.slice(2, -1),
      `W/"${'A'.repeat(8_000)}"`,
      Array.from({ length: 500 }, (_, i) => `W/"${i}"`).join(', '),
      `W/"\u00ff\u00fe", ,,, "" W/ W/W/${tag}x`,
    ];
    for (const sent of forged) {
      const answer = await ask(cookie, sent);
      expect(answer.status).toBe(200);
      expect(read(await answer.text())).toMatch(/Releases/);
    }
    // Named among many, it is the page's: 304, as RFC 9110 says.
    expect((await ask(cookie, `W/"other", ${tag}, "more"`)).status).toBe(304);

    // A colleague's own page is another, though it shows the same publish.
    const theirs = await ask(colleague, tag);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('ETag')).not.toBe(tag);
    expect((await ask(`staff=${'n'.repeat(43)}`, tag)).status).toBe(303);
    expect((await ask(await sessionCookie(server, OFFICE), tag)).status).toBe(403);
  }, 120_000);
});

describe('followed in Chromium by the editor who pressed Publish', () => {
  let browser: Browser;

  // Whatever the tests above left: the first publish live (release 2), and the draft the live
  // site's, the colleague's Save taken back, so that each press here publishes its own change.
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: chromiumShellPath, args: chromiumArgs });
    letGo();
    writeFileSync(draftFile(SAVED), savedAsLive);
    await until(settled);
  }, 180_000);

  // A test that stopped halfway leaves no publish under way to the next.
  afterEach(async () => {
    letGo();
    await until(settled);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
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
});
