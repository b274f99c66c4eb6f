/**
 * Nothing a marketer saves is lost (src/editor/dev-server/history/): a change is undone from the
 * entry's History, a deleted page is brought back, and a page whose address changes keeps its old
 * address working, with its links offered to follow. In Chromium against `astro dev --mode edit`,
 * as staff do it, in the copy of the project whose content every test puts back (./content.ts).
 */
import { writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import {
  fileState,
  inProject,
  readIfThere,
  restore,
  saveEntry,
  snapshot,
  type Snapshot,
} from './content';
import { open, visit } from './visit';

let before: Snapshot;
test.beforeEach(() => {
  before = snapshot();
});
test.afterEach(() => {
  restore(before);
});

const read = readIfThere;

const service = 'src/content/services/ipad.mdx';
const redirects = 'src/content/data/redirects.yaml';

// A saved change undone from History, after seeing what comes back: in history-words.spec.ts, which
// reads History's words on the way.

test('a page deleted in the editor: its links are listed, its address sent on, and it comes back', async ({
  page,
  request,
}) => {
  await visit(page, '/keystatic/collection/services/item/ipad');
  await page.getByRole('button', { name: 'Delete entry…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete entry' });
  await expect(dialog).toContainText('You can bring it back later');
  await expect(dialog).not.toContainText('cannot be undone');
  // technologies.yaml links to /ipad.
  await expect(dialog.getByRole('listitem')).toContainText(["the About page's technologies: iPad"]);
  const where = dialog.getByRole('combobox', { name: /Send visitors of iPad App \(\/ipad\)/ });
  await expect(where).toHaveValue('/service');
  const planned = page.waitForResponse(
    (r) =>
      r.url().endsWith('/keystatic/history/plan') && !!r.request().postData()?.includes('/android'),
  );
  await where.selectOption('/android');
  await planned;
  await dialog.getByRole('button', { name: 'Yes, delete' }).click();
  await fileState(service, (text) => text === undefined);
  await fileState(redirects, (text) => /from: \/ipad\n\s+to: \/android/.test(text ?? ''));
  await expect
    .poll(async () => {
      const response = await request.get('/ipad', { maxRedirects: 0 });
      return `${response.status()} ${response.headers().location}`;
    })
    .toMatch(/^301 .*\/android$/);

  await page.goto('/keystatic/history');
  // (The pages other tests of this copy made and took away are listed too.)
  const deleted = page
    .getByRole('list', { name: 'Deleted entries' })
    .getByRole('listitem')
    .filter({ hasText: 'Service pages → ipad' });
  await expect(deleted).toHaveCount(1);
  await deleted.getByRole('link', { name: /See it and bring it back/ }).click();
  await expect(page.getByText('now sends visitors to /android')).toBeVisible();
  await page.getByRole('button', { name: 'Bring it back' }).click();
  await expect(page.getByRole('status')).toContainText('Brought back: Service pages → ipad');
  expect(read(service)).toBe(before.get(service)!.toString('utf8'));
  await fileState(redirects, (text) => !/from: \/ipad\b/.test(text ?? ''));
  await expect.poll(async () => (await request.get('/ipad')).status()).toBe(200);
  await expect(deleted).toHaveCount(0);
});

test("a page's address changed in the editor: the old address redirects, and its links can follow", async ({
  page,
  request,
}) => {
  const technologies = 'src/content/data/technologies.yaml';
  await visit(page, '/keystatic/collection/services/item/ipad');
  await page.getByRole('textbox', { name: 'Page address' }).fill('ipad-apps');
  await saveEntry(page);
  const moved = page.getByRole('dialog', { name: 'The page /ipad is now /ipad-apps' });
  await expect(moved).toBeVisible();
  await expect(moved.getByRole('listitem')).toContainText(["the About page's technologies: iPad"]);
  await fileState(redirects, (text) => /from: \/ipad\n\s+to: \/ipad-apps/.test(text ?? ''));
  // Meanwhile, the link to the old address still leads to the page.
  await expect
    .poll(async () => {
      const response = await request.get('/ipad', { maxRedirects: 0 });
      return `${response.status()} ${response.headers().location}`;
    })
    .toMatch(/^301 .*\/ipad-apps$/);
  await moved.getByRole('button', { name: 'Point them at /ipad-apps' }).click();
  await expect(moved.getByRole('status')).toHaveText('Done: the links now lead to /ipad-apps.');
  await fileState(technologies, (text) => !!text?.includes('href: /ipad-apps'));
  expect(read(technologies)?.replace('href: /ipad-apps', 'href: /ipad')).toBe(
    before.get(technologies)!.toString('utf8'),
  );
  await moved.getByRole('button', { name: 'Close' }).click();
  await expect(moved).toBeHidden();
  await open(page, '/keystatic/collection/services/item/ipad-apps');
});

test("what a stranger sends the History's addresses changes nothing and reads nothing outside the content", async ({
  request,
  baseURL,
}) => {
  const base = '/keystatic/history';
  const ours = { Origin: baseURL! };
  const commit = 'a'.repeat(40);
  // Another site cannot make a marketer's browser restore, move links or plan a redirect.
  for (const [path, form] of [
    [`${base}/collection/services/item/ipad`, { version: commit }],
    [`${base}/deleted`, { file: service, commit }],
    [`${base}/links`, { from: '/ipad', to: '/android' }],
  ] as const) {
    const response = await request.post(path, {
      form,
      headers: { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(response.status(), path).toBe(403);
  }
  for (const method of ['PUT', 'DELETE', 'PATCH'])
    expect((await request.fetch(base, { method, headers: ours })).ok(), method).toBe(false);
  // Paths out of the content, odd names and versions that are not one: not found, never a 500.
  for (const path of [
    `${base}/collection/services/item/..%2F..%2Fpackage`,
    `${base}/collection/services/item/ipad%00`,
    `${base}/singleton/__proto__`,
    `${base}/deleted?file=../../package.json&commit=${commit}`,
    `${base}/deleted?file=src%2Fcontent%2Fservices%2Fx%0d%0a.mdx&commit=${commit}`,
    `${base}/collection/services/item/ipad?version=${commit}`,
  ])
    expect((await request.get(path)).status(), path).toBe(404);
  expect(
    (
      await request.post(`${base}/deleted`, {
        form: { file: '../../package.json', commit },
        headers: ours,
      })
    ).status(),
  ).toBe(404);
  expect((await request.get(`${base}/links.json?to=/ipad%0d%0aX-Injected:1`)).status()).toBe(400);
  // Links point only at an address of this site, and only from an old address of redirects.yaml.
  writeFileSync(inProject(redirects), 'entries:\n  - from: /old-ipad\n    to: /ipad\n');
  for (const [from, to] of [
    ['/old-ipad', '//evil'],
    ['/old-ipad', '//evil.example'],
    ['/old-ipad', 'https://evil.example'],
    ['/old-ipad', '/a?b'],
    ['/ipad', '/android'],
  ])
    expect(
      (await request.post(`${base}/links`, { form: { from, to }, headers: ours })).status(),
      `${from} → ${to}`,
    ).toBe(400);
  expect(
    (
      await request.post(`${base}/plan`, {
        data: { file: 'src/content/services/../../package.json', to: '/' },
        headers: ours,
      })
    ).status(),
  ).toBe(400);
  // A query is shown only as the names the site knows.
  const page = await (await request.get(`${base}?restored=%3Cscript%3E&moved=%3Cscript%3E`)).text();
  expect(page).not.toContain('<script>');
  expect(restore(before)).toEqual([redirects]);
});
