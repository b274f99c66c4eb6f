/**
 * A deleted page is never lost, and redirects change only when the editor says so
 * (src/editor/dev-server/history/: lineages.ts, bring-back.ts, recorder.ts): a deleted page stays
 * under Deleted entries whatever later takes its address, the History of the page there now is its
 * own, and it comes back under its own address or another, its redirects handled and said;
 * bringing it back offers to point back the links that were moved away; a rename onto an old
 * address says what happens to its visitors, and no other redirect changes. In Chromium against
 * `astro dev --mode edit`, as a marketer does it, in the copy of the project whose content every
 * test puts back (./content.ts).
 */
import { load } from 'js-yaml';
import { writeFileSync } from 'node:fs';
import { violations } from '../support/axe';
import {
  fileState,
  inProject,
  readIfThere,
  restore,
  saveEntry,
  snapshot,
  type Snapshot,
} from './content';
import { expect, inBothWidths, test, viewportAt, type Locator, type Page } from './fixtures';
import { open, visit } from './visit';

let before: Snapshot;
test.beforeEach(() => {
  before = snapshot();
});
test.afterEach(() => {
  restore(before);
});

const REDIRECTS = 'src/content/data/redirects.yaml';
const TECHNOLOGIES = 'src/content/data/technologies.yaml';
const SETTINGS = 'src/content/data/settings.yaml';
const service = (slug: string) => `src/content/services/${slug}.mdx`;

/** The entries of redirects.yaml's text. */
const redirects = (text: string | undefined) =>
  (load(text ?? '') as { entries?: { from: string; to: string }[] } | null)?.entries ?? [];

const read = readIfThere;

/** A technology's link in technologies.yaml, by its id. */
const technologyHref = (id: string) =>
  new RegExp(`- id: ${id}\\n(?:.*\\n)*?\\s+href: (\\S+)`).exec(read(TECHNOLOGIES) ?? '')?.[1];

/**
 * Opens an entry of the editor at a width: loaded at 1280 px (the editor's sidebar, which a visit
 * waits for, is closed at 375 px), then looked at in `width`; `how` is `open` in a tab where the
 * editor is loaded already.
 */
async function openAt(page: Page, address: string, width: number, how = visit) {
  await page.setViewportSize(viewportAt(1280));
  await how(page, address);
  await page.setViewportSize(viewportAt(width));
}

/** The toolbar's action, beside Save at 1280 px, in its Actions menu at 375 px. */
async function action(page: Page, name: string, width: number) {
  if (width >= 1280) return page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('button', { name: 'Actions', exact: true }).click();
  await page.getByRole('menuitem', { name }).click();
}

/** Deletes a service page in the editor, its visitors sent to `to`; returns the dialog that follows. */
async function deletePage(page: Page, slug: string, to: string, width: number) {
  await openAt(page, `/keystatic/collection/services/item/${slug}`, width);
  await action(page, 'Delete entry…', width);
  const dialog = page.getByRole('alertdialog', { name: 'Delete entry' });
  const where = dialog.getByRole('combobox', {
    name: new RegExp(`Send visitors of (.+ \\()?/${slug}\\b`),
  });
  const planned = page.waitForResponse(
    (r) =>
      r.url().endsWith('/keystatic/history/plan') && !!r.request().postData()?.includes(`"${to}"`),
  );
  await where.selectOption(to);
  await planned;
  expect(await violations(page, '[role="alertdialog"]')).toEqual([]);
  await dialog.getByRole('button', { name: 'Yes, delete' }).click();
  await fileState(service(slug), (text) => text === undefined);
  await fileState(REDIRECTS, (text) =>
    new RegExp(`from: /${slug}\\n\\s+to: ${to}\\n`).test(text ?? ''),
  );
  const told = page.getByRole('dialog', { name: `The page /${slug} was deleted` });
  await expect(told).toBeVisible();
  return told;
}

/** The deleted entries listed in History, those deleted from `address`. */
const deletedFrom = (page: Page, address: string) =>
  page
    .getByRole('list', { name: 'Deleted entries' })
    .getByRole('listitem')
    .filter({ hasText: `was at ${address},` });

/** Every saved version listed on an entry's History, each one's page of changes as text. */
async function versionTexts(page: Page, versions: Locator) {
  const links = await versions
    .getByRole('link', { name: /See the changes and restore/ })
    .evaluateAll((all) => all.map((a) => (a as HTMLAnchorElement).href));
  const texts: string[] = [];
  for (const link of links) texts.push(await (await page.request.get(link)).text());
  return texts;
}

test('a deleted page whose address another page takes is still found, and comes back under another (at 375 px, each view looked at in 1280 too)', async ({
  page,
  request,
}) => {
  // Zend deleted on a phone's width (its toolbar's Actions menu), its visitors sent to PHP; the
  // dialog after says so, in these words.
  const told = await deletePage(page, 'zend', '/php', 375);
  await inBothWidths(page, async () => {
    await expect(told).toContainText('“Zend Framework” was deleted');
    await expect(told).toContainText('Visitors and links to /zend are sent on to /php');
    await expect(told).not.toContainText('is now');
    expect(await violations(page, 'dialog[open]')).toEqual([]);
  });
  await told.getByRole('button', { name: 'Not now' }).click();

  // Yii renamed to zend: the field says, before Save, what happens to the visitors of /zend.
  // In the tab the deletion left the editor open in.
  await openAt(page, '/keystatic/collection/services/item/yii', 375, open);
  const address = page.getByRole('textbox', { name: 'Page address' });
  await address.fill('zend');
  await expect(address).toHaveAccessibleDescription(
    /\/zend sends its visitors on to \/php now \(Redirects\): saved at this address, this page takes them, and that redirect is removed/,
  );
  await saveEntry(page);
  const moved = page.getByRole('dialog', { name: 'The page /yii is now /zend' });
  await inBothWidths(page, async () => {
    await expect(moved).toContainText(
      'Until now, /zend sent its visitors on to /php (a redirect in Redirects). “Yii” is at /zend now, so they see it: that redirect was removed.',
    );
    // The Zend badge of Technologies linked to /zend: it would lead to Yii now. It can keep going to PHP.
    await expect(moved).toContainText(
      'One entry links to /zend, which led on to /php until now and leads to this page now:',
    );
    expect(await violations(page, 'dialog[open]')).toEqual([]);
  });
  await moved.getByRole('button', { name: 'Point them at /php' }).click();
  await expect(moved.getByRole('status')).toHaveText('Done: the links now lead to /php.');
  await fileState(TECHNOLOGIES, () => technologyHref('zend') === '/php');
  expect(technologyHref('yii')).toBe('/yii');
  // Yii's own link to /yii is the other offer, left for now.
  await moved.getByRole('button', { name: 'Not now' }).click();
  // The only redirect that changed is the one said: /zend → /php gone, /yii → /zend added.
  await fileState(REDIRECTS, (text) => /from: \/yii\n\s+to: \/zend\n/.test(text ?? ''));
  expect(redirects(read(REDIRECTS))).toEqual([
    ...redirects(before.get(REDIRECTS)!.toString('utf8')),
    { from: '/yii', to: '/zend' },
  ]);

  // Deleted entries lists Zend, by its name and the address it had.
  await page.goto('/keystatic/history');
  // (Newest first: a run of this test that failed half-way may have left one deleted too.)
  const zend = deletedFrom(page, '/zend').first();
  await inBothWidths(page, async () => {
    await expect(zend.getByRole('strong')).toHaveText('Zend Framework');
    await expect(zend.getByRole('link', { name: /See it and bring it back/ })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
  const seeIt = await zend
    .getByRole('link', { name: /See it and bring it back/ })
    .getAttribute('href');

  // The History of zend is Yii's own: it says Zend was there before, and none of its versions is Zend's.
  await page.goto('/keystatic/history/collection/services/item/zend');
  const versions = page.getByRole('list', { name: 'Saved versions, newest first' });
  await inBothWidths(page, async () => {
    await expect(
      page.getByText(/Another page had this address before: Zend Framework/),
    ).toBeVisible();
    await expect(versions.getByRole('listitem').first()).toContainText('Current version');
    expect(await violations(page)).toEqual([]);
  });
  for (const text of await versionTexts(page, versions)) expect(text).not.toContain('Zend');

  // Zend comes back, under another address: said before, and after.
  const fromHistory = page.getByRole('link', { name: 'see it and bring it back' });
  await expect(fromHistory).toHaveAttribute('href', seeIt!);
  await fromHistory.click();
  const name = page.getByRole('textbox', { name: 'Page address' });
  await inBothWidths(page, async () => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bring back Zend Framework');
    await expect(page.getByText('/zend is now the address of another page: Yii (')).toBeVisible();
    await expect(name).toHaveValue('zend-2');
    await expect(
      page.getByText('When it was deleted, links of these entries were pointed elsewhere'),
    ).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
  // Its own address is refused, said at the field.
  await name.fill('zend');
  await page.getByRole('button', { name: 'Bring it back' }).click();
  await inBothWidths(page, async () => {
    await expect(name).toHaveAccessibleDescription(/Another page is at \/zend now/);
    expect(await violations(page)).toEqual([]);
  });
  const at = 'zend-framework';
  await name.fill(at);
  await page.getByRole('button', { name: 'Bring it back' }).click();
  const notice = page.getByRole('status');
  await expect(notice).toContainText(`Brought back: Service pages → ${at}, at /${at}.`);
  await expect(notice).toContainText(
    `Its own address, /zend, is now another page's, Yii: it came back at /${at}.`,
  );
  await fileState(service(at), (text) => !!text?.includes(`slug: ${at}\ntitle: Zend Framework`));
  expect(read(service('zend'))).toMatch(/slug: zend\ntitle: Yii\n/);
  // No longer deleted: the overview's link to it is gone.
  await expect(page.locator(`a[href="${seeIt}"]`)).toHaveCount(0);
  // The Zend badge, pointed at PHP when Yii took /zend, can follow Zend to its new address.
  await page.getByRole('button', { name: `Point them back at /${at}` }).click();
  await expect(page.getByRole('status')).toContainText(`the links lead to /${at} again`);
  expect(technologyHref('zend')).toBe(`/${at}`);
  expect(technologyHref('yii')).toBe('/yii');
  await inBothWidths(page, async () => expect(await violations(page)).toEqual([]));

  await expect.poll(async () => (await request.get(`/${at}`)).status()).toBe(200);
  const yii = await request.get('/zend', { maxRedirects: 0 });
  expect(yii.status()).toBe(200);
  expect(await yii.text()).toContain('Yii');
  // Its History runs on from before it was deleted.
  await page.goto(`/keystatic/history/collection/services/item/${at}`);
  await expect(
    page.getByRole('list', { name: 'Saved versions, newest first' }).getByRole('listitem'),
  ).toContainText([`Brought back Zend Framework at /${at}`]);
});

test('bringing a deleted page back undoes its redirect, and offers its links back', async ({
  page,
  request,
}) => {
  // Laravel deleted, its visitors and links sent to Symfony ("Point them at").
  const told = await deletePage(page, 'laravel', '/symfony', 1280);
  await expect(told).toContainText('still link to /laravel');
  await told.getByRole('button', { name: 'Point them at /symfony' }).click();
  await expect(told.getByRole('status')).toHaveText('Done: the links now lead to /symfony.');
  // What no longer holds is no longer said above "Done".
  await expect(told).not.toContainText('still link');
  await fileState(SETTINGS, (text) => !!text && !text.includes('href: /laravel'));
  await told.getByRole('button', { name: 'Close' }).click();

  await page.goto('/keystatic/history');
  await deletedFrom(page, '/laravel')
    .getByRole('link', { name: /See it and bring it back/ })
    .click();
  await expect(page.getByRole('textbox', { name: 'Page address' })).toHaveValue('laravel');
  await expect(
    page.getByText(
      'Its address /laravel now sends visitors to /symfony: that redirect goes, so the page is shown there again.',
    ),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Bring it back' }).click();
  await expect(page.getByRole('status')).toContainText(
    '/laravel no longer sends visitors to /symfony: that redirect is removed',
  );
  expect(read(service('laravel'))).toBe(before.get(service('laravel'))!.toString('utf8'));
  await fileState(
    REDIRECTS,
    (text) =>
      JSON.stringify(redirects(text)) ===
      JSON.stringify(redirects(before.get(REDIRECTS)!.toString('utf8'))),
  );
  // The footer's and the technologies' Laravel links, pointed at Symfony when it went, come back.
  const offer = page.getByRole('region', { name: 'Links that were pointed elsewhere' });
  await expect(offer.getByRole('listitem')).toHaveText([/^Settings/, /^Technologies/]);
  await offer.getByRole('button', { name: 'Point them back at /laravel' }).click();
  await expect(page.getByRole('status')).toContainText('Done: the links lead to /laravel again');
  expect(read(SETTINGS)).toBe(before.get(SETTINGS)!.toString('utf8'));
  expect(read(TECHNOLOGIES)).toBe(before.get(TECHNOLOGIES)!.toString('utf8'));
  await expect.poll(async () => (await request.get('/laravel')).status()).toBe(200);
});

test('a hand-made redirect stays through a rename, and the new pages of History refuse strangers', async ({
  page,
  request,
  baseURL,
}) => {
  const handMade = [
    '  - from: /old-zend\n    to: /zend\n',
    '  - from: /spring-offer\n    to: /php#pricing\n',
    '  - from: /flutter-apps\n    to: /flutter\n',
  ];
  writeFileSync(inProject(REDIRECTS), `entries:\n${handMade.join('')}`);
  await openAt(page, '/keystatic/collection/services/item/flutter', 1280);
  await page.getByRole('textbox', { name: 'Page address' }).fill('flutter-development');
  await saveEntry(page);
  await expect(
    page.getByRole('dialog', { name: 'The page /flutter is now /flutter-development' }),
  ).toBeVisible();
  // The one that led to /flutter follows it; the others are as they were; one is added.
  await fileState(
    REDIRECTS,
    (text) =>
      text ===
      `entries:\n${handMade[0]}${handMade[1]}  - from: /flutter-apps\n    to: /flutter-development\n  - from: /flutter\n    to: /flutter-development\n`,
  );

  // Another site cannot make a marketer's browser bring a page back or point links back.
  for (const [path, form] of [
    ['/keystatic/history/deleted', { file: service('zend'), commit: 'a'.repeat(40), name: 'x' }],
    ['/keystatic/history/links-back', { save: 'a'.repeat(40) }],
  ] as const) {
    const response = await request.post(path, {
      form,
      headers: { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(response.status(), path).toBe(403);
  }
  // Ours, with what is no bring-back: not found, never a 500.
  for (const save of ['a'.repeat(40), 'HEAD', '../x', ''])
    expect(
      (
        await request.post('/keystatic/history/links-back', {
          form: { save },
          headers: { Origin: baseURL! },
        })
      ).status(),
      save,
    ).toBe(404);
  const page404 = await request.get(
    `/keystatic/history?brought=${'a'.repeat(40)}&linked-back=%3Cscript%3E`,
  );
  expect(await page404.text()).not.toContain('<script>');
});
