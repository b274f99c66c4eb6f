/**
 * The editor refuses at Save what `npm run build` refuses (issue 55, item 4): a link to no page, a
 * redirect that loops, chains or hides a live page, each said at its field in the build's words; a
 * Save the fields could not judge refused by the dev server all the same; a restore that would break
 * a page says which, and asks first. In Chromium at 1280 px against `astro dev --mode edit`, in the
 * copy of the project whose content each test puts back (./content.ts).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { violations } from '../support/axe';
import {
  clickSave,
  inProject,
  restore,
  saveAnswer,
  saveFile,
  savesSent,
  snapshot,
  type Snapshot,
} from './content';
import { expect, test, type Locator, type Page } from './fixtures';
import { open, visit } from './visit';

let before: Snapshot;
test.beforeEach(() => {
  before = snapshot();
});
test.afterEach(() => {
  restore(before);
});

const technologies = 'src/content/data/technologies.yaml';
const redirects = 'src/content/data/redirects.yaml';
const home = 'src/content/pages/home.yaml';
const unchanged = (path: string) =>
  expect(readFileSync(inProject(path)).equals(before.get(path)!)).toBe(true);
const textbox = (scope: Page | Locator, name: string) =>
  scope.getByRole('textbox', { name, exact: true });

/** What the build says of a link to no page. */
const noPage = (href: string) =>
  `"${href}" is not a page of the site (a service page renamed or removed?)`;

/** Saves the entry open, expecting it written. */
const save = (page: Page, path: string) => saveFile(page, before, path);

/** A field left with a value: it is marked, and says `problem` under it. */
async function refusedAt(field: Locator, value: string, problem: string | RegExp) {
  await field.fill(value);
  await field.press('Tab');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(
    typeof problem === 'string' ? new RegExp(RegExp.escape(problem)) : problem,
  );
}

test('what the build refuses is refused at Save: a link to no page, a redirect that loops, chains or hides a page, each at its field; a restore that would break a page asks first', async ({
  page,
}) => {
  // Three nested dialogs, some ten saves and restores.
  test.setTimeout(600_000);

  // A link to no page.
  const refused = page.getByRole('alert').filter({ hasText: /^Not saved:/ });
  const dialog = page.getByRole('dialog', { name: 'Edit item' });

  await test.step('at the field, as it is left; a page of the site is named under it', async () => {
    await visit(page, '/keystatic/singleton/technologies');
    await page.getByRole('row', { name: 'iPad', exact: true }).click();
    const link = textbox(dialog, 'Link');
    await expect(link).toHaveAccessibleDescription(/Leads to: iPad App/);
    await refusedAt(link, '/ipad-pro', noPage('/ipad-pro'));
    expect(await violations(page, '[role="dialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('row', { name: /^iPad — needs fixing: / })).toContainText(
      noPage('/ipad-pro'),
    );
  });

  await test.step('Save names the item by its name and the field, and writes nothing', async () => {
    const sent = savesSent(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(refused).toHaveText(
      `Not saved: Technologies → iPad → Link: ${noPage('/ipad-pro')}`,
    );
    expect(sent()).toBe(0);
    unchanged(technologies);
  });

  await test.step('a link to another page is taken, and the page it leads to named', async () => {
    await page.getByRole('row', { name: /^iPad/ }).click();
    const link = textbox(dialog, 'Link');
    await link.fill('/android');
    await link.press('Tab');
    await expect(link).not.toHaveAttribute('aria-invalid', 'true');
    await expect(link).toHaveAccessibleDescription(/Leads to: Android App/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
  });

  await test.step('a Save the fields could not judge (the pages not known to them) is refused by the dev server, in the same words', async () => {
    await page.route('**/api/editor/site', (route) => route.abort());
    await page.reload();
    await expect(page.getByRole('row', { name: 'iPad', exact: true })).toBeVisible({
      timeout: 60_000,
    });
    await page.getByRole('row', { name: 'iPad', exact: true }).click();
    await textbox(dialog, 'Link').fill('/ipad-pro');
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(await saveAnswer(page, () => clickSave(page))).toBe(422);
    await expect(
      page.getByText(`Not saved: Technologies → iPad → Link: ${noPage('/ipad-pro')}`),
    ).toBeVisible();
    await expect(page.getByText('Unsaved', { exact: true })).toBeVisible();
    unchanged(technologies);
    await page.unroute('**/api/editor/site');
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await expect(page.getByText('Unsaved', { exact: true })).toBeHidden();
  });

  // A restore that would break a page: asked first.
  await test.step('a redirect saved, and a link of the home page sent through it', async () => {
    await visit(page, '/keystatic/singleton/redirects');
    const list = page.getByRole('group', { name: /^Redirects \(old addresses\)/ });
    await list.getByRole('button', { name: 'Add', exact: true }).click();
    const adding = page.getByRole('dialog', { name: 'Add item' });
    await textbox(adding, 'From (old address)').fill('/old-php');
    await textbox(adding, 'To (new address)').fill('/php');
    await adding.getByRole('button', { name: 'Add', exact: true }).click();
    await save(page, redirects);
    await open(page, '/keystatic/collection/pages/item/home');
    // Sections → the section → Items → the item → Links → the link: each a row and a dialog.
    for (const [list, row] of [
      ['Sections', 'One team for the whole product'],
      ['Items', 'Web Development'],
      ['Links', 'PHP'],
    ] as const)
      await page
        .getByRole('group', { name: new RegExp(`^${list}`) })
        .last()
        .getByRole('row', { name: row, exact: true })
        .click();
    const link = textbox(page.getByRole('dialog').last(), 'Link');
    await link.fill('/old-php');
    await link.press('Tab');
    await expect(link).not.toHaveAttribute('aria-invalid', 'true');
    for (let open = 3; open > 0; open--) {
      await page.getByRole('dialog').last().getByRole('button', { name: 'Done' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(open - 1);
    }
    await save(page, home);
  });

  const consequences = page.getByRole('heading', {
    level: 1,
    name: 'Restoring this version would break the site',
  });
  await test.step('restoring the Redirects as they were names the page it would break and the old address, and asks', async () => {
    await page.goto('/keystatic/history/singleton/redirects');
    const versions = page.getByRole('list', { name: 'Saved versions, newest first' });
    await versions
      .getByRole('link', { name: /See the changes and restore/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await expect(consequences).toBeVisible();
    const broken = page.getByRole('region', { name: 'Make a page show an error' });
    await expect(broken.getByRole('listitem').first()).toContainText('Home (/)');
    await expect(broken).toContainText(
      `Page copy → home → Sections → One team for the whole product → Items → Web Development → Links → PHP → Link: ${noPage('/old-php')}`,
    );
    await expect(
      page.getByRole('region', { name: 'Leave an old address answering "page not found"' }),
    ).toContainText('/old-php (its visitors are sent to /php now)');
    expect(await violations(page)).toEqual([]);
    expect(readFileSync(inProject(home), 'utf8')).toContain('href: /old-php\n');
    expect(readFileSync(inProject(redirects), 'utf8')).toContain('from: /old-php');
  });

  await test.step('Cancel leaves everything as it is; Restore anyway restores', async () => {
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Restore this version' })).toBeVisible();
    expect(readFileSync(inProject(redirects), 'utf8')).toContain('from: /old-php');
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await page.getByRole('button', { name: 'Restore anyway' }).click();
    await expect(page.getByRole('status')).toContainText('Restored');
    expect(readFileSync(inProject(redirects), 'utf8')).not.toContain('/old-php');
  });

  await test.step('a restore that breaks nothing asks nothing', async () => {
    await page.goto('/keystatic/history/singleton/redirects');
    const versions = page.getByRole('list', { name: 'Saved versions, newest first' });
    await versions
      .getByRole('link', { name: /See the changes and restore/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Restore this version' }).click();
    await expect(page.getByRole('status')).toContainText('Restored');
    await expect(consequences).toHaveCount(0);
    expect(readFileSync(inProject(redirects), 'utf8')).toContain('from: /old-php');
  });

  // A redirect that loops, chains or hides a page.
  const list = page.getByRole('group', { name: /^Redirects \(old addresses\)/ });

  await test.step('a redirect to itself, as it is added: said at the field, and not added', async () => {
    await visit(page, '/keystatic/singleton/redirects');
    await expect(list.getByRole('row', { name: '/old-php → PHP (/php)' })).toBeVisible();
    await list.getByRole('button', { name: 'Add', exact: true }).click();
    const adding = page.getByRole('dialog', { name: 'Add item' });
    await textbox(adding, 'From (old address)').fill('/spring-offer');
    await refusedAt(
      textbox(adding, 'To (new address)'),
      '/spring-offer',
      '/spring-offer leads to itself: a loop',
    );
    expect(await violations(page, '[role="dialog"]')).toEqual([]);
    await adding.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(adding).toBeVisible();
    await textbox(adding, 'To (new address)').fill('/laravel');
    await adding.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(adding).toBeHidden();
    // Each address with its page's name.
    await expect(
      list.getByRole('row', { name: '/spring-offer → Laravel (/laravel)' }),
    ).toBeVisible();
  });

  await test.step('an old address that is a page of the site; a loop made in place: its row says so, and Save names it', async () => {
    await list.getByRole('row', { name: '/spring-offer → Laravel (/laravel)' }).click();
    const editing = page.getByRole('dialog', { name: 'Edit item' });
    await refusedAt(
      textbox(editing, 'From (old address)'),
      '/laravel',
      '/laravel is a page of the site: a redirect would hide it',
    );
    await textbox(editing, 'From (old address)').fill('/spring-offer');
    await refusedAt(
      textbox(editing, 'To (new address)'),
      '/spring-offer#form',
      '/spring-offer leads to itself: a loop',
    );
    await editing.getByRole('button', { name: 'Done' }).click();
    await expect(
      list.getByRole('row', { name: /^\/spring-offer → \/spring-offer#form — needs fixing: / }),
    ).toBeVisible();
    const sent = savesSent(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(refused).toHaveText(
      'Not saved: Redirects (old addresses) → “/spring-offer → /spring-offer#form” → To (new address): /spring-offer leads to itself: a loop',
    );
    expect(sent()).toBe(0);
    expect(readFileSync(inProject(redirects), 'utf8')).not.toContain('/spring-offer');
    await list.getByRole('row', { name: /^\/spring-offer → \/spring-offer#form/ }).click();
    await textbox(editing, 'To (new address)').fill('/laravel');
    await editing.getByRole('button', { name: 'Done' }).click();
  });

  await test.step('a chain: a new address that is itself redirected, and one old address twice', async () => {
    await list.getByRole('button', { name: 'Add', exact: true }).click();
    const adding = page.getByRole('dialog', { name: 'Add item' });
    await textbox(adding, 'From (old address)').fill('/old-spring');
    await refusedAt(
      textbox(adding, 'To (new address)'),
      '/spring-offer',
      '/spring-offer is itself redirected: send this one straight to /laravel',
    );
    await refusedAt(
      textbox(adding, 'From (old address)'),
      '/spring-offer',
      '/spring-offer is redirected more than once (to /laravel, to /spring-offer): keep one',
    );
    await textbox(adding, 'From (old address)').fill('/old-spring');
    await textbox(adding, 'To (new address)').fill('/laravel');
    await adding.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(adding).toBeHidden();
  });

  await test.step('mended, it saves', async () => {
    await save(page, redirects);
    expect(parse(readFileSync(inProject(redirects), 'utf8'))).toEqual({
      entries: [
        { from: '/old-php', to: '/php' },
        { from: '/spring-offer', to: '/laravel' },
        { from: '/old-spring', to: '/laravel' },
      ],
    });
  });
});
