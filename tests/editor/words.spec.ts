/**
 * The editor's words (issue 55, item 9): the lists name the address column and mark the entries
 * that hold drafts; the page address's hint says what it takes; an emptied required text says it is
 * required; a picture that replaces another asks for its alt text; a photo too large is made
 * smaller to fit, an icon that is no SVG says what to do; leaving with unsaved changes asks first;
 * the Delete dialog names where each link is on the site and each page by its name; a content
 * mistake's page on the dev site is plain, each item by its name, the stack trace folded away. In
 * Chromium at 1280 px against `astro dev --mode edit`, in the copy of the project whose content each
 * test puts back (./content.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { violations } from '../support/axe';
import {
  changed,
  inProject,
  openFirstTile,
  restore,
  saveEntry,
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

const textbox = (scope: Page | Locator, name: string) =>
  scope.getByRole('textbox', { name, exact: true });

/** Chooses an option of one of Keystatic's pickers by typing its name, as with a keyboard. */
async function choose(page: Page, scope: Page | Locator, label: string, option: string) {
  const picker = scope.getByRole('button', { name: new RegExp(` ${label}$`) });
  await picker.click();
  const list = page.getByRole('listbox', { name: label });
  await expect(list).toBeVisible();
  await expect(async () => {
    await page.keyboard.type(option);
    await expect(list.getByRole('option', { name: option, exact: true })).toBeFocused({
      timeout: 3_000,
    });
  }).toPass({ intervals: [1_100], timeout: 30_000 });
  await page.keyboard.press('Enter');
  await expect(picker).toHaveAccessibleName(`${option} ${label}`);
}

/** A photograph of noise, `width` × `height`, as a PNG made by the browser: some megabytes. */
async function noisyPhoto(page: Page, width: number, height: number) {
  const base64 = await page.evaluate(
    async ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext('2d')!;
      const pixels = context.createImageData(w, h);
      for (let i = 0; i < pixels.data.length; i++)
        pixels.data[i] = i % 4 === 3 ? 255 : (Math.random() * 256) | 0;
      context.putImageData(pixels, 0, 0);
      const blob = await new Promise<Blob>((done) => canvas.toBlob((b) => done(b!), 'image/png'));
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000)
        binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary);
    },
    [width, height] as const,
  );
  return Buffer.from(base64, 'base64');
}

test("the editor's words: where a link is on the site and each page by its name, a content mistake's plain page, the list's column and drafts, the address's hint, a required alt text, a new picture's prompt, a photo made to fit, an icon's refusal, and leaving with unsaved changes", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const service = 'src/content/services/iphone.mdx';

  await test.step('the Delete dialog says where each link to the page is on the site, and offers each page by its name', async () => {
    await visit(page, '/keystatic/collection/services/item/laravel');
    await page.getByRole('button', { name: 'Delete entry…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete entry' });
    await expect(dialog.getByRole('listitem')).toHaveText([
      "the footer's Popular services: Laravel",
      "the About page's technologies: Laravel",
    ]);
    await expect(dialog).not.toContainText('.yaml');
    const where = dialog.getByRole('combobox', { name: /Send visitors of Laravel \(\/laravel\)/ });
    await expect(where.locator('option:checked')).toHaveText(
      'Technologies and Services (/service)',
    );
    await expect(where.locator('option[value="/ipad"]')).toHaveText('iPad App (/ipad)');
    expect(await violations(page, '[role="alertdialog"]')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step("a content mistake's page on the dev site is plain: each mistake where the editor shows it, its item by name, a way to the editor, the stack trace folded away", async () => {
    const technologies = inProject('src/content/data/technologies.yaml');
    writeFileSync(
      technologies,
      readFileSync(technologies, 'utf8').replace('href: /ipad\n', 'href: /ipad-pro\n'),
    );
    await expect
      .poll(async () => (await page.request.get('/about')).status(), { timeout: 20_000 })
      .toBe(500);
    // In a tab of its own, as a preview: the editor's tab is not reloaded by the site's changes.
    const site = await page.context().newPage();
    await visit(site, '/about');
    await expect(
      site.getByRole('heading', { level: 1, name: 'A content mistake stops this page' }),
    ).toBeVisible();
    await expect(site.getByRole('listitem').first()).toContainText(
      'Technologies → iPad → Link: "/ipad-pro" is not a page of the site (a service page renamed or removed?)',
    );
    await expect(site.getByRole('link', { name: 'Open it in the editor' })).toHaveAttribute(
      'href',
      '/keystatic/singleton/technologies',
    );
    // For a developer, folded: the file and field, and the stack trace, only once opened.
    const developer = site.locator('details');
    await expect(developer).not.toHaveAttribute('open');
    await expect(
      site.getByText('(src/content/data/technologies.yaml: entry "ipad", href)'),
    ).toBeHidden();
    // (The dev site may reload the page once more as it settles after the file's change: axe again.)
    await expect(async () => expect(await violations(site)).toEqual([])).toPass({
      timeout: 30_000,
    });
    await developer.locator('summary').click();
    await expect(developer).toContainText('src/content/data/technologies.yaml: entry "ipad", href');
    await expect(developer).toContainText(/\bat .+\.(ts|js|astro)/);
    // Mended (as the editor would save it), the page shows again by itself.
    restore(before);
    await expect(
      site.getByRole('heading', { level: 1, name: 'A content mistake stops this page' }),
    ).toBeHidden({
      timeout: 20_000,
    });
    await expect(site.getByRole('heading', { level: 1, name: 'Meet the company' })).toBeVisible();
    await site.close();
  });

  await test.step('the list of service pages: its address column says "Page address"', async () => {
    // In the editor's tab of the first step, still loaded: the site's changes do not reload it.
    await open(page, '/keystatic/collection/services');
    await expect(page.getByRole('columnheader', { name: 'Page address' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Slug' })).toHaveCount(0);
  });

  await test.step("the page address's hint says hyphens are taken", async () => {
    await open(page, '/keystatic/collection/services/item/iphone');
    await expect(textbox(page, 'Page address')).toHaveAccessibleDescription(
      /lowercase letters and digits, words joined by hyphens\. "react-native" is the page \/react-native/,
    );
  });

  await test.step('an emptied required text says it is required', async () => {
    const alt = textbox(page, 'Alt text').first();
    await alt.fill('');
    await alt.press('Tab');
    await expect(alt).toHaveAttribute('aria-invalid', 'true');
    await expect(alt).toHaveAccessibleDescription(/Alt text is required/);
    await expect(alt).not.toHaveAccessibleDescription(/characters long/);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: /^Not saved:/ })).toHaveText(
      'Not saved: Hero → Alt text: is required',
    );
    await page.getByRole('button', { name: 'Reset changes' }).click();
  });

  await test.step("a picture chosen in place of the hero's asks for its alt text", async () => {
    const prompt = page.getByText(
      'A new illustration: check that its Alt text below still says what this one shows.',
    );
    await expect(prompt).toHaveCount(0);
    await choose(page, page, 'Illustration', 'ipad');
    await expect(prompt).toBeVisible();
    await page.getByRole('button', { name: 'Reset changes' }).click();
  });

  await test.step('a 5 MB photo is made smaller to fit, and saved as such', async () => {
    const photo = await noisyPhoto(page, 1600, 1200);
    expect(photo.length).toBeGreaterThan(4 * 1024 * 1024);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload an illustration…' }).click();
    await (
      await chooser
    ).setFiles({ name: 'Team Photo.png', mimeType: 'image/png', buffer: photo });
    await expect(
      page.getByText(
        /^Added "team-photo", and chosen\. It was \d\.\d MB, more than illustrations can be: made smaller to fit \(\d+ × \d+ pixels, [\d,.]+ (KB|MB)\)\.$/,
      ),
    ).toBeVisible({ timeout: 30_000 });
    // It replaces the hero's picture: the alt text is asked for too.
    await expect(page.getByText(/^A new illustration: check that its Alt text/)).toBeVisible();
    await saveEntry(page);
    expect(await changed(before, service)).toContain('  image: team-photo\n');
    const saved = readFileSync(inProject('src/assets/illustrations/team-photo.webp'));
    expect(saved.subarray(8, 12).toString()).toBe('WEBP');
    expect(saved.length).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  await test.step('a PNG for an icon says what to do instead', async () => {
    const tile = await openFirstTile(page);
    const chooser = page.waitForEvent('filechooser');
    await tile.getByRole('button', { name: 'Upload an icon…' }).click();
    await (
      await chooser
    ).setFiles({ name: 'cloud.png', mimeType: 'image/png', buffer: Buffer.from('a png') });
    await expect(
      tile.getByText(
        'Icons are line drawings in SVG, and "cloud.png" is a PNG file. Export the icon as SVG from your design tool (in Figma: Export, then SVG), or choose one of the icons in the list.',
      ),
    ).toBeVisible();
    await tile.getByRole('button', { name: 'Done' }).click();
  });

  await test.step('unsaved changes: the lists mark the entry, and leaving asks first', async () => {
    await textbox(page, 'Service name').fill('iPhone Apps');
    await expect(page.getByText('Unsaved', { exact: true })).toBeVisible();
    await page
      .getByRole('list', { name: 'Pages', exact: true })
      .getByRole('link', { name: /^Service pages/ })
      .click();
    const draft = 'Draft (not saved)';
    await expect(
      page
        .getByRole('list', { name: 'Pages', exact: true })
        .getByRole('link', { name: /^Service pages/ }),
    ).toContainText(draft);
    await expect(page.getByRole('row', { name: /^iphone/ })).toContainText(draft);
    await expect(page.getByRole('row', { name: /^ipad/ })).not.toContainText(draft);
    await open(page, '/keystatic/collection/services/item/iphone');
    await expect(page.getByText('Unsaved', { exact: true })).toBeVisible();
    const asked = new Promise<string>((answered) =>
      page.once('dialog', (dialog) => {
        answered(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);
    // Reset: nothing to lose, nothing asked, and no mark in the lists.
    await page.getByRole('button', { name: 'Reset changes' }).click();
    await expect(page.getByText('Unsaved', { exact: true })).toBeHidden();
    await page
      .getByRole('list', { name: 'Pages', exact: true })
      .getByRole('link', { name: /^Service pages/ })
      .click();
    await expect(page.getByRole('row', { name: /^iphone/ })).not.toContainText(draft);
    let questions = 0;
    page.on('dialog', (dialog) => {
      questions++;
      void dialog.accept();
    });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => page.isClosed()).toBe(true);
    expect(questions).toBe(0);
  });
});
