/**
 * Every entry of the content opens in the editor without an error, its pictures shown; the entry's
 * toolbar says its actions in words; a list item's id field says when another item has that id. It
 * only reads, and runs before the tests that save (`browse-` puts its file first), whose saves would
 * reload its pages.
 */
import { readdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from './fixtures';
import { open, visit } from './visit';
import { shownPictures } from '../support/pictures';

/** The singletons' names in the editor, from the data files' names (enquiry-services → enquiryServices). */
const singletons = readdirSync('src/content/data').map((file) =>
  file.replace(/\.yaml$/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()),
);
const entries = [
  ...readdirSync('src/content/services').map(
    (file) => `/keystatic/collection/services/item/${file.replace(/\.mdx$/, '')}`,
  ),
  ...readdirSync('src/content/pages').map(
    (file) => `/keystatic/collection/pages/item/${file.replace(/\.yaml$/, '')}`,
  ),
  ...singletons.map((name) => `/keystatic/singleton/${name}`),
];

test(`every entry opens in the editor without an error (${entries.length} entries)`, async ({
  page: browser,
}) => {
  // Some 1 s an entry alone; 58 s in a CI run for all of them, and over 120 s in a fresh run on a
  // machine running two other test phases beside it: 4 s an entry.
  test.setTimeout(entries.length * 10_000);
  const failures: string[] = [];
  // Two tabs at once: each mostly waits on the dev server and the editor's render.
  const tabs = [browser, await browser.context().newPage()];
  await Promise.all(
    tabs.map(async (tab, index) => {
      await visit(tab, '/keystatic');
      for (const address of entries.filter((_, i) => i % tabs.length === index)) {
        await open(tab, address);
        const form = tab.getByRole('button', { name: 'Save' });
        const alert = tab.getByRole('alert');
        await expect(form.or(alert).first()).toBeVisible();
        if (await alert.count()) failures.push(`${address}: ${await alert.first().textContent()}`);
        // Every picture it shows arrives (the entry's illustration, the icons of its lists): once
        // all have come, none is broken.
        await expect.poll(async () => (await shownPictures(tab))?.broken).toEqual([]);
      }
    }),
  );
  expect(failures).toEqual([]);
  // Keystatic's UI has its rules in one style sheet, as in a production build, not in a <style>
  // element each (some 1,100 after one entry, which the browser matched every element against:
  // productionReactWhenEditing, src/editor/dev-server/editor.ts).
  for (const tab of tabs)
    expect(await tab.evaluate(() => document.querySelectorAll('style').length)).toBeLessThan(50);
});

/**
 * The words a toolbar shows, button by button: the texts inside each button or link that take room
 * on the page (a visually hidden label, an accessible name alone, takes a pixel).
 */
const shownWords = (toolbar: Locator) =>
  toolbar.evaluate((group) =>
    [...(group.matches('button, a') ? [group] : group.querySelectorAll('button, a'))].flatMap(
      (control) =>
        [...control.querySelectorAll('*')]
          .filter((element) => element.children.length === 0 && element.textContent!.trim())
          .filter((element) => element.getBoundingClientRect().width > 8)
          .map((element) => element.textContent!.trim()),
    ),
  );

/** The entry's toolbar: the group of actions beside Save (not a text field's toolbar). */
const entryToolbar = (tab: Page) =>
  tab.getByRole('toolbar').filter({ has: tab.getByRole('button', { name: 'Actions' }) });

test('the toolbar of an entry says its actions in words, at 1280 and at 375 px', async ({
  page: browser,
}) => {
  await visit(browser, '/keystatic/collection/services/item/iphone');
  const toolbar = entryToolbar(browser);
  await expect
    .poll(() => shownWords(toolbar))
    .toEqual(['Preview', 'History', 'Reset changes', 'Delete entry…', 'Actions']);
  // What does not fit is in the menu, in words too.
  await toolbar.getByRole('button', { name: 'Actions' }).click();
  await expect(browser.getByRole('menuitem')).toHaveText([
    'Duplicate entry…',
    'Copy entry',
    'Paste entry',
  ]);
  await browser.keyboard.press('Escape');

  // A phone: the menu and Save, each a word (the menu alone is no longer a toolbar); every action
  // in the menu.
  await browser.setViewportSize({ width: 375, height: 800 });
  const menu = browser.getByRole('button', { name: 'Actions', exact: true });
  await expect.poll(() => shownWords(menu)).toEqual(['Actions']);
  expect(await shownWords(browser.getByRole('button', { name: 'Save' }))).toEqual(['Save']);
  await menu.click();
  await expect(browser.getByRole('menuitem')).toHaveText([
    'Preview',
    'History',
    'Reset changes',
    'Delete entry…',
    'Duplicate entry…',
    'Copy entry',
    'Paste entry',
  ]);
  await browser.keyboard.press('Escape');

  // A singleton's toolbar (its own, in Keystatic) too. (At 375 px the sidebar, which `open` looks
  // for, is closed.)
  await browser.setViewportSize({ width: 1280, height: 800 });
  await open(browser, '/keystatic/singleton/availability');
  await expect
    .poll(() => shownWords(browser.getByRole('toolbar').first()))
    .toEqual(['Reset', 'Copy entry', 'Paste entry', 'Preview', 'History']);
  await browser.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => shownWords(menu)).toEqual(['Actions']);
});

test("a host's id that another host has is said at the id field, as the dialog opens", async ({
  page: browser,
}) => {
  await visit(browser, '/keystatic/singleton/availability');
  await browser.getByRole('row', { name: 'Calls' }).click();
  const calls = browser.getByRole('dialog', { name: 'Edit item' });
  const hosts = calls.getByRole('group', { name: /^Hosts/ });
  await hosts.getByRole('row', { name: 'Ben Okafor' }).click();
  const ben = browser.getByRole('dialog', { name: 'Edit item' }).last();
  const id = ben.getByRole('textbox', { name: 'Id', exact: true });
  await expect(id).toHaveValue('ben');
  await expect(id).not.toHaveAttribute('aria-invalid', 'true');
  // Typed, not yet left: another host's id is said at once.
  await id.fill('anna');
  await expect(id).toHaveAttribute('aria-invalid', 'true');
  await expect(id).toHaveAccessibleDescription(
    /"anna" is the id of another item: each needs its own/,
  );
  await ben.getByRole('button', { name: 'Done' }).click();
  // Opened again from its row, the field says it as the dialog opens.
  await hosts.getByRole('row', { name: /^Ben Okafor/ }).click();
  const again = browser.getByRole('dialog', { name: 'Edit item' }).last();
  await expect(again.getByRole('textbox', { name: 'Id', exact: true })).toHaveAccessibleDescription(
    /"anna" is the id of another item/,
  );
  // Its own id back: no problem.
  await again.getByRole('textbox', { name: 'Id', exact: true }).fill('ben');
  await expect(again.getByRole('textbox', { name: 'Id', exact: true })).not.toHaveAttribute(
    'aria-invalid',
    'true',
  );
});
