/**
 * The editor's Preview on the live site (`EDITING=on`) while there is no preview to open: the
 * page an editor meets at /keystatic/preview is a staff page (its layout, its styles allowed by
 * the page's policy), for the build under way (202: its step and progress, a refresh without
 * script only), a build that failed (500: its last lines as text, a `<script>` in them shown, never
 * run) and a publish that would be refused (409). In Chromium, the page waits without reloading,
 * its progress moving in place and the focus kept, and goes on to the preview once it is ready.
 * The build is a stand-in (tests/support/fake-preview-build.mjs, a few seconds of Astro's lines);
 * ./live-editor.test.ts runs the real one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumArgs, chromiumShellPath } from '../../scripts/local.mjs';
import type { RunningServer } from '../support/server';
import { staffPage, startEditingServer } from './editing-server';

const root = join(import.meta.dirname, '../..');
const EDITOR = 'erin@agency.example';
const ANDROID = 'src/content/services/android.mdx';
/** How long the stand-in build runs: past the 3 s at which the page once reloaded itself. */
const BUILD_MS = 6_000;

const work = mkdtempSync(join(tmpdir(), 'preview-page-'));
/** The stand-in build waits before its pages' lines while `gate-1` is missing, after them while `gate-2` is. */
const gate = join(work, 'gate');
const letGo = (step: 1 | 2) => writeFileSync(`${gate}-${step}`, '');
letGo(1);
letGo(2);
const site = join(work, 'main', 'site');
let server: RunningServer;
let cookie: string;

/**
 * A server with editing on over a clone of the project in `work/<name>`, its builds `build`, the
 * editor signed in; Publishing's first visit has made the draft.
 */
async function editingServer(name: string, build: string) {
  const started = await startEditingServer(join(work, name), { build, editor: EDITOR });
  const publish = await fetch(`${started.server.url}/staff/publish`, {
    headers: { Cookie: started.cookie },
  });
  expect(publish.status).toBe(200);
  return started;
}

beforeAll(async () => {
  // A free port: TEST_PORT is the browser tests' server's, and other files here start servers at once.
  ({ server, cookie } = await editingServer(
    'main',
    `${process.execPath} ${join(root, 'tests/support/fake-preview-build.mjs')} ${BUILD_MS} ${gate}`,
  ));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const PREVIEW = '/keystatic/preview?page=%2Fandroid';
const get = (path: string) =>
  fetch(`${server.url}${path}`, { redirect: 'manual', headers: { Cookie: cookie } });

/** The draft's Android page with this title, as a Save writes it. */
function draftTitle(title: string) {
  const file = join(work, 'main', 'editing', 'draft', ANDROID);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, `title: ${title}`));
}

/** The preview's page until it answers otherwise than `status`: that answer. */
async function after(status: number) {
  let answer: Response;
  await expect
    .poll(
      async () => {
        answer = await get(PREVIEW);
        return answer.status === status ? (await answer.text(), status) : answer.status;
      },
      { timeout: 60_000, interval: 1_000 },
    )
    .not.toBe(status);
  return answer!;
}

it('says, as a staff page, that the preview is building, why its build failed (its lines as text), and why a publish would be refused', async () => {
  draftTitle('BREAK <script>window.broken = true</script> & more');
  const building = await get(PREVIEW);
  expect(building.status).toBe(202);
  const waiting = await staffPage(building);
  expect(waiting.page.querySelector('h1')?.textContent).toBe('Building the preview');
  expect(waiting.page.querySelector('progress')?.getAttribute('max')).toBe('100');
  expect(waiting.page.querySelector('[data-step]')?.textContent?.trim()).toMatch(/\w/);
  // A refresh only without script: with it, a screen reader is never sent to the page's start.
  const refreshes = [...waiting.page.querySelectorAll('meta[http-equiv="refresh"]')];
  expect(refreshes.map((meta) => meta.parentElement?.tagName)).toEqual(['NOSCRIPT']);

  const failed = await after(202);
  expect(failed.status).toBe(500);
  const why = await staffPage(failed);
  expect(why.page.querySelector('h1')?.textContent).toBe('The preview could not be built');
  expect(why.page.querySelector('pre')?.textContent).toContain(
    '[InvalidContentEntry] BREAK <script>window.broken = true</script> & more',
  );
  expect(why.html).not.toContain('<script>window.broken');
  expect(why.page.querySelector('a[href="/keystatic/preview?page=%2Fandroid"]')?.textContent).toBe(
    'Try again',
  );

  // The live site changed the same text since the draft began (as a roll back does): refused.
  execFileSync('git', ['checkout', '-q', '-b', 'published'], { cwd: site });
  const live = join(site, ANDROID);
  writeFileSync(live, readFileSync(live, 'utf8').replace(/^title: .*$/m, 'title: Live words'));
  execFileSync('git', ['commit', '-qam', 'Publish: Live words'], { cwd: site });
  execFileSync('git', ['checkout', '-q', '-'], { cwd: site });
  expect((await get(PREVIEW)).status).toBe(202);
  const refused = await after(202);
  expect(refused.status).toBe(409);
  const whyNot = await staffPage(refused);
  expect(whyNot.page.querySelector('h1')?.textContent).toBe(
    'Your changes cannot be added to the live site as it is now',
  );
  expect(whyNot.page.querySelector('main')?.textContent).toMatch(
    /live site changed in the same text/,
  );
  expect(whyNot.page.querySelector('a[href="/staff/publish"]')?.textContent).toBe(
    'Open Publishing',
  );
  execFileSync('git', ['branch', '-q', '-D', 'published'], { cwd: site });
}, 180_000);

it('waits in the browser without reloading, the progress moving and the focus kept, then opens the preview', async () => {
  draftTitle('Previewed in a browser');
  const browser = await chromium.launch({ executablePath: chromiumShellPath, args: chromiumArgs });
  try {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await context.addCookies([
      { name: 'staff', value: cookie.slice('staff='.length), url: server.url },
    ]);
    const tab = await context.newPage();
    const loads: string[] = [];
    tab.on('request', (request) => {
      if (request.isNavigationRequest()) loads.push(new URL(request.url()).pathname);
    });
    const refused: string[] = [];
    tab.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    // The build held before its pages and after them, however long this takes on a busy machine.
    rmSync(`${gate}-1`);
    rmSync(`${gate}-2`);
    await tab.goto(`${server.url}${PREVIEW}`);
    await expect(tab.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Building the preview',
    );
    // The staff's look: the system's sans-serif, the desk's dark bar.
    expect(await tab.evaluate(() => getComputedStyle(document.body).fontFamily)).not.toMatch(
      /^(serif|"?Times)/,
    );
    expect(
      await tab.locator('.staff__bar').evaluate((bar) => getComputedStyle(bar).backgroundColor),
    ).toBe('rgb(15, 27, 45)');
    const shown = () => tab.locator('[data-percent]').textContent();
    const first = await shown();
    await tab.evaluate(() => Object.assign(window, { sameDocument: true }));
    await tab.getByRole('link', { name: 'Back to the editor' }).focus();
    // Past a reload the page once made every 3 s, and past a few of its own questions.
    letGo(1);
    await expect.poll(shown, { timeout: 60_000, interval: 250 }).not.toBe(first);
    expect(await tab.evaluate(() => 'sameDocument' in window)).toBe(true);
    expect(await tab.evaluate(() => document.activeElement?.textContent)).toBe(
      'Back to the editor',
    );
    letGo(2);
    await tab.waitForURL(`${server.url}/android`, { timeout: 60_000 });
    expect(await tab.locator('#previewed').textContent()).toBe('Previewed in a browser');
    // The waiting page loaded once, then the preview: no reload between.
    expect(loads).toEqual(['/keystatic/preview', '/keystatic/preview', '/android']);
    expect(refused).toEqual([]);
  } finally {
    await browser.close();
  }
}, 120_000);

it('ends a preview’s build when the server stops: none runs on after a restart', async () => {
  // A build that writes nothing, so nothing but the server's stop ends it.
  const quiet = await editingServer('quiet', 'sleep 120');
  // The stand-in's processes: `sleep`, under `nice` and `ionice` (exec'd, the same process).
  const builds = () =>
    readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === 'sleep\0' + '120\0';
        } catch {
          return false; // Gone meanwhile.
        }
      });
  try {
    const building = await fetch(`${quiet.server.url}${PREVIEW}`, {
      redirect: 'manual',
      headers: { Cookie: quiet.cookie },
    });
    expect(building.status).toBe(202);
    await expect.poll(builds).toHaveLength(1);
  } finally {
    await quiet.server.stop();
  }
  await expect.poll(builds, { timeout: 5_000 }).toEqual([]);
}, 120_000);
