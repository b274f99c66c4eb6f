/**
 * Publishing from the browser against the built server, with a real `astro build`, as an editor's
 * morning goes: the editor signs in by the e-mailed link, saves a change in the editor (its helper
 * process, a Save as Keystatic's tab posts it), sees the change listed in words, previews it (the
 * one real build, while visitors' pages and /healthz answer, none failed), presses Publish (twice
 * at once: one release), which uses the preview's build of that same content, and the page is live
 * within 90 s, visitors served throughout; the publish is a commit by the member; a roll back
 * restores the page within 10 s and survives a restart. A member who is not an editor gets 403 at
 * every write. The editor's own UI in Chromium, and the rest of its preview (a new page, a
 * redirect, shown to editors alone): tests/integration/live-editor.test.ts. A publish of content
 * other than the preview's builds anew: tests/store/publishing.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { stoppedAfterEach } from './stopped-after-each';
import { post, read, signIn } from './staff-sign-in';

const root = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'publish-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const EDITOR = 'erin@agency.example';
const servers = stoppedAfterEach({
  STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
  STAFF_EMAILS: 'office@agency.example',
  STAFF_EDITORS: EDITOR,
  EDITING: 'on',
  EDITING_DIR: join(work, 'editing'),
  EDITING_POLL_MS: '500',
  SITE_REPO_DIR: join(work, 'site'),
});

/** A file's git blob id: the version the editor's tab names when it saves. */
const blobSha = (text: string) =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0${text}`)
    .digest('hex');

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: join(work, 'site'), encoding: 'utf8' }).trim();

/** The repository the server runs from: this project's committed files, its packages linked. */
function siteRepository() {
  execFileSync('git', ['clone', '-q', root, join(work, 'site')]);
  symlinkSync(join(root, 'node_modules'), join(work, 'site', 'node_modules'));
}

/** Visitors asking a page and /healthz in turn until `done`: each answer's status and time. */
async function visitors(url: string, done: () => boolean) {
  const seen: { status: number; ms: number }[] = [];
  const visitor = async () => {
    while (!done()) {
      for (const path of ['/android', '/healthz']) {
        const started = performance.now();
        const answer = await fetch(`${url}${path}`).catch(() => undefined);
        await answer?.arrayBuffer();
        seen.push({ status: answer?.status ?? 0, ms: performance.now() - started });
      }
    }
  };
  await Promise.all([visitor(), visitor()]);
  return seen;
}

const p99 = (times: number[]) => times.sort((a, b) => a - b)[Math.floor(times.length * 0.99)]!;

it('publishes an editor’s change live, then rolls it back, with visitors served throughout', async () => {
  siteRepository();
  const env = { ENQUIRY_DB: join(work, 'data', 'enquiries.sqlite') };
  const { server, mails } = await servers.startWithMail(env);
  const office = await signIn(server, mails, 'office@agency.example');
  const asOffice = { Cookie: office.cookie };
  expect(
    read(await (await fetch(`${server.url}/staff`, { headers: asOffice })).text()),
  ).not.toContain('Publishing');
  expect((await fetch(`${server.url}/staff/publish`, { headers: asOffice })).status).toBe(403);
  expect((await post(`${server.url}/staff/publish`, { action: 'publish' }, asOffice)).status).toBe(
    403,
  );

  const { cookie } = await signIn(server, mails, EDITOR);
  const as = { Cookie: cookie };
  const desk = await (await fetch(`${server.url}/staff`, { headers: as })).text();
  expect(desk).toContain('href="/staff/publish"');
  expect(desk).toContain('href="/keystatic"');
  const page = async () => (await fetch(`${server.url}/staff/publish`, { headers: as })).text();
  expect(read(await page())).toContain('Nothing yet: the draft is the same as the live site.');

  // In the editor (its helper process, once it listens), the editor saves a new title for the
  // Android page, on the version the tab opened, as Keystatic's tab posts a Save.
  const service = 'src/content/services/android.mdx';
  const file = join(work, 'editing', 'draft', service);
  await expect
    .poll(async () => (await fetch(`${server.url}/keystatic`, { headers: as })).status, {
      timeout: 30_000,
    })
    .toBe(200);
  const opened = readFileSync(file, 'utf8');
  const before = /^title: (.*)$/m.exec(opened)![1]!;
  const saved = await fetch(`${server.url}/api/keystatic/update`, {
    method: 'POST',
    headers: {
      ...as,
      Origin: server.url,
      'Content-Type': 'application/json',
      'no-cors': '1',
      'x-editor-base': JSON.stringify({ [service]: blobSha(opened) }),
    },
    body: JSON.stringify({
      additions: [
        {
          path: service,
          contents: Buffer.from(
            opened.replace(/^title: .*$/m, 'title: Android Apps Built to Last'),
          ).toString('base64'),
        },
      ],
      deletions: [],
    }),
  });
  expect(saved.status).toBe(200);
  expect(read(await page())).toMatch(/Changed:\s*Android Apps Built to Last\s*\(\/android\)/);
  expect(await (await fetch(`${server.url}/android`)).text()).not.toContain(
    'Android Apps Built to Last',
  );

  // The editor previews the draft: built once, visitors served meanwhile.
  let previewed = false;
  const asked = Date.now();
  const seenWhileBuilt = visitors(server.url, () => previewed || Date.now() - asked > 150_000);
  await expect
    .poll(
      async () =>
        (
          await fetch(`${server.url}/keystatic/preview?page=%2Fandroid`, {
            headers: as,
            redirect: 'manual',
          })
        ).status,
      { timeout: 150_000, interval: 1_000 },
    )
    .toBe(303);
  previewed = true;
  const servedWhileBuilt = await seenWhileBuilt;
  expect(servedWhileBuilt.filter((s) => s.status !== 200)).toEqual([]);
  expect(p99(servedWhileBuilt.map((s) => s.ms))).toBeLessThan(250);
  const inPreview = await fetch(`${server.url}/android`, {
    headers: { Cookie: `${cookie}; editor-preview=1` },
  });
  expect(await inPreview.text()).toContain('Android Apps Built to Last');

  const pressed = Date.now();
  const presses = await Promise.all(
    [1, 2].map(() => post(`${server.url}/staff/publish`, { action: 'publish' }, as)),
  );
  expect(presses.map((p) => p.status)).toEqual([303, 303]);
  expect(presses.map((p) => p.headers.get('location')).sort()).toEqual([
    '/staff/publish?done=already#progress',
    '/staff/publish?done=queued#progress',
  ]);
  const progress = await page();
  expect(progress).toMatch(/<meta http-equiv="refresh" content="3"/);
  expect(progress).toMatch(/<progress id="publish-progress" max="100" value="\d+"/);

  let live = false;
  const seen = visitors(server.url, () => live || Date.now() - pressed > 150_000);
  await expect
    .poll(
      async () =>
        (await (await fetch(`${server.url}/android`)).text()).includes(
          'Android Apps Built to Last',
        ),
      {
        timeout: 150_000,
        interval: 500,
      },
    )
    .toBe(true);
  live = true;
  const served = await seen;
  expect(Date.now() - pressed).toBeLessThan(90_000);
  expect(served.filter((s) => s.status !== 200)).toEqual([]);
  expect(p99(served.map((s) => s.ms))).toBeLessThan(250);
  expect(git('log', '-1', '--format=%ae|%s', 'published')).toBe(
    `${EDITOR}|Publish: Changed Android Apps Built to Last (/android)`,
  );
  expect(read(await page())).toMatch(/Live\s*\(100%\)/);
  // Published with the preview's build: no second build. (The job says so as it ends.)
  await expect
    .poll(() => server.output(), { timeout: 30_000 })
    .toMatch(/Published release \d+ \(publish \d+, with the preview’s build\)/);

  // Roll back to the site as deployed: live within 10 s, and after a restart still.
  const deployed = /name="release" value="(\d+)"/.exec(await page())![1]!;
  const rolled = Date.now();
  expect(
    (await post(`${server.url}/staff/publish`, { action: 'rollback', release: deployed }, as))
      .status,
  ).toBe(303);
  await expect
    .poll(async () => (await (await fetch(`${server.url}/android`)).text()).includes(before), {
      timeout: 10_000,
      interval: 200,
    })
    .toBe(true);
  expect(Date.now() - rolled).toBeLessThan(10_000);
  expect(git('log', '-1', '--format=%ae|%s', 'published')).toMatch(
    new RegExp(`^${EDITOR}\\|Roll back to release ${deployed} `),
  );
  expect(read(await page())).toContain('The live site changed since your draft began');
  // Both in the audit log, by the member.
  const audit = read(await (await fetch(`${server.url}/staff`, { headers: as })).text());
  expect(audit).toMatch(new RegExp(`${EDITOR} started publish \\d+`));
  expect(audit).toContain(`${EDITOR} rolled back to release ${deployed}`);

  await server.stop();
  const again = await servers.start({ ...env, PORT: new URL(server.url).port });
  expect(await (await fetch(`${again.url}/android`)).text()).toContain(before);
  expect(again.output()).toMatch(/Serving release \d+\./);
}, 300_000);
