/**
 * The production server with the live site's editing on (EDITING=on), over a clone of this project
 * in a folder of the test's, its builds a stand-in's: and an editor's session on it, started in its
 * store as the sign-in makes one (tests of the built server: ./live-editor.test.ts signs in too);
 * and a staff page checked as a browser would apply it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { JSDOM } from 'jsdom';
import { expect } from 'vitest';
import { readConfig } from '../../src/server/config';
import { storedHash } from '../../src/server/staff/access';
import { openStore } from '../../src/server/store/index';
import { freePort, startServer } from '../support/server';

const root = join(import.meta.dirname, '../..');

/** A session of `email` started in the server's store, as the sign-in does: its cookie. */
export async function sessionCookie(server: { database: string }, email: string) {
  const token = `${email.split('@')[0]}-${'x'.repeat(43)}`.slice(0, 43);
  const store = await openStore(readConfig({ ENQUIRY_DB: server.database }));
  try {
    await store.staff.startSession(storedHash(token), email, Date.now());
  } finally {
    await store.close();
  }
  return `staff=${token}`;
}

/**
 * The server over a clone in `folder/site`, its editing in `folder/editing`, its builds `build`
 * (a command line), on a free port, `editor` an editor signed in: the server, the clone and the
 * editor's cookie.
 */
export async function startEditingServer(
  folder: string,
  { build, editor, env = {} }: { build: string; editor: string; env?: Record<string, string> },
) {
  const site = join(folder, 'site');
  execFileSync('git', ['clone', '-q', root, site]);
  symlinkSync(join(root, 'node_modules'), join(site, 'node_modules'));
  mkdirSync(join(folder, 'editing'), { mode: 0o700 });
  const port = String(await freePort());
  const server = await startServer({
    PORT: port,
    SITE_URL: `http://127.0.0.1:${port}`,
    EDITING: 'on',
    EDITING_DIR: join(folder, 'editing'),
    SITE_REPO_DIR: site,
    STAFF_EDITORS: editor,
    STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
    PUBLISH_BUILD_COMMAND: build,
    ...env,
  });
  return { server, site, cookie: await sessionCookie(server, editor) };
}

/** A staff page, its styles allowed by its policy: what a browser would apply. */
export async function staffPage(answer: Response) {
  expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  expect(answer.headers.get('cache-control')).toContain('no-store');
  const html = await answer.text();
  const page = new JSDOM(html).window.document;
  expect(page.querySelector('.staff__bar')?.textContent).toContain('desk');
  const styles = [...page.querySelectorAll('style')].map((style) => style.textContent ?? '');
  expect(styles.join('')).toMatch(/\.staff__bar/);
  const policy = answer.headers.get('content-security-policy') ?? '';
  const styleSrc = policy.split(';').find((part) => part.trim().startsWith('style-src')) ?? '';
  for (const style of styles)
    expect(styleSrc).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  return { html, page };
}

/**
 * The stand-in build (tests/support/fake-build.mjs: this project's dist/) as a build command, held
 * under way while the file `gate` (in `folder`) is missing: `hold()` and `letGo()`.
 */
export function heldBuild(folder: string) {
  const gate = join(folder, 'gate');
  return {
    command: `${process.execPath} ${join(root, 'tests/support/fake-build.mjs')} ${gate}`,
    hold: () => rmSync(gate, { force: true }),
    letGo: () => writeFileSync(gate, ''),
  };
}

/**
 * Waits until `done()` (expect.poll is for tests only); past `timeoutMs`, fails with what `said()`
 * tells of the server and its page.
 */
export async function until(
  done: () => Promise<boolean>,
  timeoutMs: number,
  said: () => Promise<string> | string,
) {
  for (const end = Date.now() + timeoutMs; !(await done()); await sleep(250))
    if (Date.now() > end) throw new Error(`Not done after ${timeoutMs} ms: ${await said()}`);
}
