/**
 * The content files the editor tests change, and putting them back. The tests work in a copy of the
 * project (scripts/editor-project.mjs, where playwright.editor.config.ts runs `astro dev`), never in
 * the working tree; a test takes a snapshot of the copy's src/content and src/assets (where uploads
 * go) before it saves anything and restores it afterwards, pass or fail (files it changed get their
 * bytes back, files it created are removed), so that each test starts from the same content.
 * Paths are the project's ('src/content/…'); `inProject` gives the copy's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  expect,
  test,
  type APIRequestContext,
  type ConsoleMessage,
  type Page,
  type Request,
} from '@playwright/test';
import { editorProject } from '../../scripts/editor-project.mjs';

/**
 * The copy of the project whose dev server the running test uses: its Playwright project's
 * `metadata.copy` (playwright.editor.config.ts).
 */
export const project = (): string => editorProject(test.info().project.metadata.copy as string);
/** A path of the project ('src/content/…') in the copy. */
export const inProject = (path: string) => join(project(), path);

/** The last lines its dev server wrote (scripts/editor-project.mjs), without blank lines and `noise`. */
function devServerLog(lines: number, noise?: RegExp): string {
  try {
    return readFileSync(`${project()}.log`, 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !noise?.test(line))
      .slice(-lines)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

const readOr = (path: string, otherwise: string) => {
  try {
    return readFileSync(inProject(path), 'utf8');
  } catch {
    return otherwise;
  }
};

/**
 * What a failure says when the dev server still answers 404 for a page the editor created: whether
 * its content store has the entry; whether /service, a page rendered anew on each request, already
 * links to it (if so, the content the dev server runs has the page, and what is stale is the paths
 * Astro keeps for the dynamic route); the file as saved; and what the dev server logged, without the
 * three lines each request of the poll adds (which filled the last lines and hid what came before).
 */
export async function notServedReport(
  request: APIRequestContext,
  slug: string,
  file: string,
): Promise<string> {
  const store = readOr('.astro/data-store.json', '');
  const index = await request.get('/service').then(
    async (response) =>
      `answers ${response.status()}, ${(await response.text()).includes(`href="/${slug}"`) ? 'with' : 'without'} a link to /${slug}`,
    (error: unknown) => `could not be read: ${String(error)}`,
  );
  const poll = new RegExp(`\\[404\\] /${slug}|requested path ./${slug}.|Possible dynamic routes`);
  return [
    `The dev server's content store (.astro/data-store.json) ${store.includes(slug) ? 'names' : 'does not name'} ${slug}.`,
    `/service ${index}.`,
    `${file} as saved:\n${readOr(file, '(missing)')}`,
    `The dev server's log, last lines:\n${devServerLog(60, poll)}`,
  ].join('\n\n');
}

const roots = ['src/content', 'src/assets'];

const allFiles = (folder: string): string[] =>
  readdirSync(inProject(folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? allFiles(join(folder, entry.name)) : [join(folder, entry.name)],
  );

export type Snapshot = Map<string, Buffer>;

export const snapshot = (): Snapshot =>
  new Map(roots.flatMap(allFiles).map((path) => [path, readFileSync(inProject(path))]));

/** Puts src/content and src/assets back as they were; returns the files it changed back or removed. */
export function restore(before: Snapshot): string[] {
  const touched: string[] = [];
  for (const path of roots.flatMap(allFiles)) {
    if (!before.has(path)) {
      rmSync(inProject(path));
      touched.push(path);
    }
  }
  for (const [path, bytes] of before) {
    let now: Buffer | undefined;
    try {
      now = readFileSync(inProject(path));
    } catch {}
    if (!now || !now.equals(bytes)) {
      writeFileSync(inProject(path), bytes);
      touched.push(path);
    }
  }
  return touched;
}

/** `git diff -U0` of a file against its bytes in the snapshot: the lines removed and added. */
export function diffLines(before: Snapshot, path: string) {
  const dir = mkdtempSync(join(tmpdir(), 'editor-diff-'));
  try {
    const old = join(dir, 'before');
    writeFileSync(old, before.get(path)!);
    let output = '';
    try {
      output = execFileSync(
        'git',
        ['diff', '--no-index', '--no-color', '-U0', old, inProject(path)],
        {
          encoding: 'utf8',
        },
      );
    } catch (error) {
      output = (error as { stdout: string }).stdout; // exit 1: the files differ
    }
    const lines = output.split('\n').filter((line) => !/^(---|\+\+\+) /.test(line));
    return {
      removed: lines.filter((line) => line.startsWith('-')).map((line) => line.slice(1)),
      added: lines.filter((line) => line.startsWith('+')).map((line) => line.slice(1)),
      hunks: lines.filter((line) => line.startsWith('@@')).length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * How long a test waits for the editor's write to reach the disk (a Save, a link move, History's
 * record): some seconds beside `npm test`'s other phases on a slow machine, where 15 s ran out.
 */
export const WRITE_WAIT_MS = 40_000;

/** A file of the copy as it is now; undefined if it is not there. */
export const readIfThere = (path: string) =>
  existsSync(inProject(path)) ? readFileSync(inProject(path), 'utf8') : undefined;

/** Waits until a file of the copy reads as `expected` says (or, with undefined, is gone). */
export const fileState = (path: string, expected: (text: string | undefined) => boolean) =>
  expect.poll(() => expected(readIfThere(path)), { timeout: WRITE_WAIT_MS }).toBe(true);

/** Waits until a file's bytes differ from the snapshot's (the editor has saved it). */
export async function changed(before: Snapshot, path: string, timeout = WRITE_WAIT_MS) {
  const start = Date.now();
  let last: Buffer | undefined;
  for (;;) {
    let now: Buffer | undefined;
    try {
      now = readFileSync(inProject(path));
    } catch {}
    // Keystatic writes with fs.writeFile, which empties the file before it writes: a change counts
    // once the file has text and reads the same twice in a row.
    if (now?.length && !now.equals(before.get(path) ?? Buffer.alloc(0))) {
      if (last?.equals(now)) return now.toString('utf8');
      last = now;
    } else last = undefined;
    if (Date.now() - start > timeout) throw new Error(`${path} was not saved in ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * How long a Save may take to be answered: seconds, even beside `npm test`'s other phases. Past it,
 * the test says whether the tab sent the Save and what the dev server logged last (a Save left
 * unanswered for the test's five minutes, twice under two CPU burners, had said neither).
 */
const SAVE_ANSWER_MS = 120_000;

const isSave = (request: Request) =>
  new URL(request.url()).pathname === '/api/keystatic/update' && request.method() === 'POST';

/**
 * Counts the Saves `tab` sends from now on: a Save the tab's own checks refuse sends none, and is
 * known to have written nothing as soon as the tab says so (no wait for a write that never comes).
 */
export function savesSent(tab: Page) {
  let sent = 0;
  tab.on('request', (request) => void (isSave(request) && sent++));
  return () => sent;
}

/**
 * What the dev server answered the Save that `click` makes in `tab`: its status. Unanswered, the
 * error says whether the tab sent it, what the tab logged and showed (its screenshot attached), and
 * the dev server's last lines.
 */
export async function saveAnswer(tab: Page, click: () => Promise<unknown>): Promise<number> {
  const seen: string[] = [];
  const onRequest = (request: Request) => {
    if (isSave(request)) seen.push(`Save sent at ${new Date().toISOString()}`);
  };
  const onFailed = (request: Request) => {
    if (isSave(request)) seen.push(`Save failed: ${request.failure()?.errorText}`);
  };
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() !== 'debug') seen.push(`console.${message.type()}: ${message.text()}`);
  };
  tab.on('request', onRequest).on('requestfailed', onFailed).on('console', onConsole);
  const answered = tab.waitForResponse((response) => isSave(response.request()), {
    timeout: SAVE_ANSWER_MS,
  });
  // A click that fails is the error to report, not the answer that then never comes.
  answered.catch(() => {});
  try {
    await click();
    return (await answered).status();
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'TimeoutError') throw error;
    // A tab that cannot be drawn any more still gets its message.
    await tab
      .screenshot()
      .then((body) =>
        test.info().attach('the tab, its Save unanswered', { body, contentType: 'image/png' }),
      )
      .catch(() => {});
    const shown = await tab
      .locator('body')
      .ariaSnapshot({ timeout: 5_000 })
      .catch((reason: unknown) => `(not read: ${reason})`);
    throw new Error(
      [
        `No answer to the Save in ${SAVE_ANSWER_MS / 1000} s, at ${tab.url()}. The tab since the click:\n${seen.join('\n') || '(no Save sent, nothing logged)'}`,
        `What the tab shows:\n${shown.slice(0, 6_000)}`,
        `The dev server's log, last lines:\n${devServerLog(80)}`,
      ].join('\n\n'),
      { cause: error },
    );
  } finally {
    tab.off('request', onRequest).off('requestfailed', onFailed).off('console', onConsole);
  }
}

/** A service page's first tile, opened in its dialog from the entry the tab shows. */
export async function openFirstTile(tab: Page) {
  await tab
    .getByRole('group', { name: /^Tiles/ })
    .getByRole('row')
    .first()
    .click();
  return tab.getByRole('dialog', { name: 'Edit item' });
}

/** Clicks the entry's Save and waits for the dev server to answer it: written (200). */
export const saveEntry = async (tab: Page) =>
  expect(await saveAnswer(tab, () => clickSave(tab))).toBe(200);

/** The editor's Save button, clicked. */
export const clickSave = (tab: Page) =>
  tab.getByRole('button', { name: 'Save', exact: true }).click();

/**
 * Saves the entry open in `tab` (written, and Keystatic no longer says "Unsaved"); returns the text
 * of `path` once it has changed from `before`.
 */
export async function saveFile(tab: Page, before: Snapshot, path: string) {
  await saveEntry(tab);
  await expect(tab.getByText('Unsaved')).toBeHidden();
  return changed(before, path);
}
