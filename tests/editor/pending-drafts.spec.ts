/**
 * Pending uploads survive a closed tab as long as the draft that names them (issue 55, item 7): a
 * picture uploaded into an entry that is not saved, the tab closed, is there when the entry is
 * opened again (its draft restored), even after the day an unnamed upload is kept, and the Save then
 * writes it. In Chromium at 1280 px against `astro dev --mode edit`, in the copy of the project
 * whose content each test puts back (./content.ts).
 */
import { existsSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import {
  changed,
  inProject,
  openFirstTile,
  restore,
  saveEntry,
  snapshot,
  type Snapshot,
} from './content';
import { expect, test, type Page } from './fixtures';
import { visit } from './visit';

let before: Snapshot;
test.beforeEach(() => {
  before = snapshot();
});
test.afterEach(() => {
  restore(before);
  for (const name of [icon.name, 'editor-draft-other'])
    rmSync(inProject(`.astro/editor-uploads/icons/${name}.svg`), { force: true });
});

const icon = {
  file: 'Editor Draft Ring.svg',
  name: 'editor-draft-ring',
  bytes: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="6"/></svg>\n',
  ),
};
const service = 'src/content/services/iphone.mdx';
const pending = () => inProject(`.astro/editor-uploads/icons/${icon.name}.svg`);

test('an upload survives a closed tab as long as the draft that names it, and its Save writes it', async ({
  page,
  context,
}) => {
  await test.step('a picture uploaded into a tile, not saved', async () => {
    await visit(page, '/keystatic/collection/services/item/iphone');
    const tile = await openFirstTile(page);
    const chooser = page.waitForEvent('filechooser');
    await tile.getByRole('button', { name: 'Upload an icon…' }).click();
    await (
      await chooser
    ).setFiles({ name: icon.file, mimeType: 'image/svg+xml', buffer: icon.bytes });
    await expect(tile.getByText(`Added "${icon.name}", and chosen.`)).toBeVisible();
    await tile.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText('Unsaved')).toBeVisible();
    expect(existsSync(pending())).toBe(true);
  });

  let again: Page;
  await test.step('the tab closed without saving; days later, an upload elsewhere sweeps what no draft holds', async () => {
    await page.close();
    // Three days on, as far as the upload's age goes.
    const old = (Date.now() - 3 * 86_400_000) / 1000;
    utimesSync(pending(), old, old);
    again = await context.newPage();
    const origin = new URL(test.info().project.use.baseURL!).origin;
    const other = await again.request.post(
      `/api/editor/images?${new URLSearchParams({ folder: 'icons', file: 'editor-draft-other.svg' })}`,
      { data: icon.bytes, headers: { 'content-type': 'application/octet-stream', origin } },
    );
    expect(other.status()).toBe(201);
    expect(existsSync(pending())).toBe(true);
  });

  await test.step('the entry opened again: its draft, and the picture in its field', async () => {
    await visit(again, '/keystatic/collection/services/item/iphone');
    await expect(again.getByText('Unsaved', { exact: true })).toBeVisible();
    const tile = await openFirstTile(again);
    await expect(tile.getByRole('button', { name: / Icon$/ })).toHaveAccessibleName(
      `${icon.name} Icon`,
    );
    const thumbnail = tile.locator(`img[src*="preview=${icon.name}"]`).last();
    await expect(thumbnail).toBeVisible();
    await expect(tile.getByText(/There is no icon named/)).toHaveCount(0);
    await tile.getByRole('button', { name: 'Done' }).click();
  });

  await test.step('Save writes the entry and moves the picture into the icons', async () => {
    await saveEntry(again);
    expect(await changed(before, service)).toContain(`icon: ${icon.name}\n`);
    expect(readFileSync(inProject(`src/assets/icons/${icon.name}.svg`)).equals(icon.bytes)).toBe(
      true,
    );
    expect(existsSync(pending())).toBe(false);
  });
});
