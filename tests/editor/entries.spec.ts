/**
 * Every entry of the content opens in the editor without an error. It only reads: it runs against
 * the dev server of its own copy of the project (the `reading` project of
 * playwright.editor.config.ts), beside the tests that save, whose saves never reload its pages.
 */
import { readdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { open, visit } from './visit';

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
  test.setTimeout(120_000);
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
      }
    }),
  );
  expect(failures).toEqual([]);
});
