/**
 * Publishing's page asked again while a publish builds, as each open tab's PublishFollow.astro does
 * every 3 s, over HTTP against the production server with EDITING=on: while what the page shows is
 * the same, its ETag sent back is answered 304, no page made and no git process started (a `git`
 * first on the server's PATH counts them); a colleague's Save, or the build moving on, and the same
 * ask gets the new page. Never a 304 to another member, to a forged tag, or to one signed out. The
 * build is a stand-in (tests/support/fake-build.mjs), held under way until the test lets it go;
 * ./publish-progress.test.ts follows the same in Chromium.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '../support/server';
import { heldBuild, sessionCookie, startEditingServer, until as untilDone } from './editing-server';
import { post, read } from './staff-sign-in';

const EDITOR = 'erin@northgate-digital.example';
const COLLEAGUE = 'colm@northgate-digital.example';
const OFFICE = 'office@northgate-digital.example';
const PUBLISHED = 'src/content/services/android.mdx';
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

const draftFile = (path: string) => join(work, 'editing', 'draft', path);
const letGo = () => build.letGo();

/** How many git processes the server has started so far. */
const gitRuns = () => readFileSync(gitLog, 'utf8').split('\n').filter(Boolean).length;

/** Publishing's page asked as PublishFollow asks it, with the ETag of the copy it has, if any. */
const ask = (who: string, tag?: string) =>
  fetch(`${server.url}/staff/publish`, {
    redirect: 'manual',
    headers: { Cookie: who, Accept: 'text/html', ...(tag && { 'If-None-Match': tag }) },
  });

/** Waits until `done()`, saying the server's output if it never is. */
const until = (done: () => Promise<boolean>) => untilDone(done, 60_000, () => server.output());

/** The page with its ETag, once asking again with that ETag is answered 304 (nothing moving). */
async function steady(who: string) {
  let page = { tag: '', text: '' };
  await until(async () => {
    const answer = await ask(who, page.tag || undefined);
    if (answer.status === 304) return true;
    expect(answer.status).toBe(200);
    page = { tag: answer.headers.get('ETag') ?? '', text: read(await answer.text()) };
    return false;
  });
  return page;
}

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
  // A change of the draft, published with its build held under way.
  await until(async () => read(await (await ask(cookie)).text()).includes('Your draft changes'));
  const text = readFileSync(draftFile(PUBLISHED), 'utf8');
  writeFileSync(draftFile(PUBLISHED), text.replace(/^title: .*$/m, 'title: Android, Held'));
  const pressed = await post(
    `${server.url}/staff/publish`,
    { action: 'publish' },
    { Cookie: cookie },
  );
  if (pressed.status !== 303) throw new Error(`Publish answered ${pressed.status}`);
  await until(async () => /Building the pages/.test(read(await (await ask(cookie)).text())));
}, 120_000);

afterAll(async () => {
  build?.letGo();
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

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
  await until(async () => server.output().includes('The visual editor is served'));
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
  await until(async () => (moved = await ask(cookie, meanwhile.tag)).status === 200);
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
