/**
 * The visual editor in Chromium, against `astro dev` (playwright.editor.config.ts): a service page
 * made through the editor, with an icon and a photograph uploaded in it, is built by `npm run
 * build` (the photograph responsive) and served; saving one changed field changes only its lines;
 * a value the site's schema refuses is shown at its field and nothing is written; an upload lands
 * in its src/assets folder, and one the folder does not take is refused; an SVG's script is taken
 * out, and a file of src/assets opened from the dev server runs none; a page file copied by
 * hand is an error on the dev site. Every file a test changes or creates, in src/content and
 * src/assets, is put back afterwards (./content.ts).
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { expect, test, type Locator, type Page } from './fixtures';
import { parse, stringify } from 'yaml';
import { configWithout, copyProject, PACKAGING } from '../../scripts/project-copy.mjs';
import { open, visit } from './visit';
import {
  changed,
  diffLines,
  notServedReport,
  inProject,
  openFirstTile,
  project,
  restore,
  saveFile,
  savesSent,
  snapshot,
  type Snapshot,
} from './content';

let before: Snapshot;
test.beforeEach(() => {
  before = snapshot();
});
test.afterEach(() => {
  restore(before);
});

/**
 * Chooses an option of one of Keystatic's pickers (a button named "<value> <label>"). Its list only
 * renders the options in view, so the option is reached by typing its name, as with a keyboard.
 */
async function choose(page: Page, scope: Page | Locator, label: string, option: string) {
  const picker = scope.getByRole('button', { name: new RegExp(` ${label}$`) });
  const list = page.getByRole('listbox', { name: label });
  await picker.click();
  await expect(list).toBeVisible();
  // The list finds what is typed within a second of the previous key, and starts again after: on
  // a busy machine the keys can come slower than that, and the name is then typed again, as a
  // person would.
  await expect(async () => {
    await page.keyboard.type(option);
    await expect(list.getByRole('option', { name: option, exact: true })).toBeFocused({
      timeout: 3_000,
    });
  }).toPass({ intervals: [1_100], timeout: 30_000 });
  await page.keyboard.press('Enter');
  await expect(picker).toHaveAccessibleName(`${option} ${label}`);
  await expect(list).toBeHidden();
}

/** Adds an item to a list field: its Add button opens a dialog for the item's fields. */
async function addItem(page: Page, list: Locator, fill: (dialog: Locator) => Promise<void>) {
  await list.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add item' });
  await fill(dialog);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
}

type Image = { file: string; name: string; bytes: Buffer; type: string };

/** An icon made for the tests, uploaded through the editor: content names it "editor-test-ring". */
const upload: Image = {
  file: 'Editor Test Ring.svg',
  name: 'editor-test-ring',
  type: 'image/svg+xml',
  bytes: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="8"/></svg>\n',
  ),
};

/** The uploaded icon's drawing, written into a page that shows it. */
const uploadedIcon = /<svg [^>]*><circle cx="12" cy="12" r="8"\s*\/?>/;

/**
 * A photograph as a hero illustration, uploaded with the new page: a raster image, which the build
 * must make responsive (AVIF and WebP at several widths). 1280 x 960 in a few flat colours: any
 * raster proves it, and the AVIF encoder takes a fifth of the time a screenshot with text cost.
 */
const photo: Image = {
  file: 'Editor Test Photo.png',
  name: 'editor-test-photo',
  type: 'image/png',
  bytes: readFileSync('tests/support/fixtures/images/photo-1280x960.png'),
};

/** What an image field's Upload button says for each folder. */
const uploadButton = {
  icons: 'Upload an icon…',
  illustrations: 'Upload an illustration…',
  portfolio: 'Upload a portfolio image…',
  logos: 'Upload a logo…',
} as const;

/**
 * Uploads an image through an image field's Upload button, as a file chosen on this computer;
 * `removed`, what the field says the upload's cleaning took out of the file.
 */
async function uploadImage(
  browser: Page,
  scope: Locator,
  folder: keyof typeof uploadButton,
  image: Image,
  removed?: string,
) {
  const chooser = browser.waitForEvent('filechooser');
  await scope.getByRole('button', { name: uploadButton[folder] }).click();
  await (await chooser).setFiles({ name: image.file, mimeType: image.type, buffer: image.bytes });
  await expect(scope.getByRole('status').first()).toHaveText(
    `Added "${image.name}", and chosen.${removed ? ` Removed from the file: ${removed}.` : ''}`,
  );
}

const textbox = (scope: Page | Locator, name: string) =>
  scope.getByRole('textbox', { name, exact: true });

const page = {
  slug: 'editortest',
  title: 'Editor Test',
  hero: 'A page made in the visual editor during its browser test, to show that what it writes is a page of the site.',
  tagLine: 'Made in the editor',
  introTitle: 'A service page written entirely through the browser',
  paragraph:
    'This paragraph was typed into the visual editor by the browser test. It checks that the intro of a new page reaches the site.',
  tiles: Array.from({ length: 8 }, (_, i) => ({
    title: `Editor tile ${i + 1}`,
    summary: `What tile number ${i + 1} of the new page offers, in one sentence.`,
    icon: ['cloud', 'database', 'lock', 'rocket', 'bell', 'wallet', 'mobile', 'refresh'][i]!,
  })),
  stats: Array.from({ length: 4 }, (_, i) => ({
    icon: ['team', 'calendar', 'trophy', 'layers'][i]!,
    count: i === 3 ? '98%' : `${(i + 1) * 10}+`,
    label: `Counter number ${i + 1}`,
  })),
  seoTitle: 'Editor Test Development | Made in the browser',
  seoDescription:
    'A service page created through the visual editor by its browser test, then built.',
};

/** A logo made for the tests, uploaded with a new testimonial: content names it "editor-test-logo". */
const logo: Image = {
  file: 'Editor Test Logo.svg',
  name: 'editor-test-logo',
  type: 'image/svg+xml',
  bytes: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><rect width="120" height="40" rx="6" fill="#1d4ed8"/></svg>\n',
  ),
};

const testimonial = {
  reference: 'editor-test',
  company: 'Editor Test Ltd',
  quote:
    'The marketing team added this testimonial through the visual editor, logo and all, without asking a developer for help.',
  person: 'Head of Marketing',
};

/**
 * Every image of a dev-site page loads: each <img> is asked for again by the test (a lazy one may
 * not have loaded yet) and must answer 200 with an image; the page logs no error.
 */
async function devPage(browser: Page, address: string) {
  const errors: string[] = [];
  const tab = await browser.context().newPage();
  tab.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  tab.on('pageerror', (error) => errors.push(error.message));
  const response = await tab.goto(address);
  expect(response?.status(), address).toBe(200);
  const sources = await tab
    .locator('img')
    .evaluateAll((images) =>
      images.map(
        (image) => (image as HTMLImageElement).currentSrc || (image as HTMLImageElement).src,
      ),
    );
  for (const source of new Set(sources)) {
    const image = await tab.request.get(source);
    expect(image.status(), source).toBe(200);
    expect(image.headers()['content-type'], source).toMatch(/^image\//);
  }
  const html = await tab.content();
  await tab.close();
  expect(errors, address).toEqual([]);
  return { html, sources };
}

test("a marketer's afternoon: a heading, a page with its own icon, a testimonial with a logo, and a duplicate that cannot replace a page", async ({
  page: browser,
  baseURL,
}) => {
  test.setTimeout(600_000);
  // The editor asks no other server for anything: Keystatic's typeface (Inter), which it would load
  // from Google Fonts, comes from the dev server (src/editor/browser/tab.ts).
  const elsewhere: string[] = [];
  const onRequest = (request: { url(): string }) => {
    const { protocol, origin } = new URL(request.url());
    if (/^https?:$/.test(protocol) && origin !== new URL(baseURL!).origin)
      elsewhere.push(request.url());
  };
  browser.context().on('request', onRequest);
  const editorErrors: string[] = [];
  browser.on('console', (message) => {
    // The new page's address, asked for below until it answers, answers with an error for a moment
    // after Create (Astro's dev server has its entry before its module); the editor's tab logs that.
    const newPageError = new RegExp(
      `^A page of the dev site answered with an error .*→ ${page.slug}\\.$`,
    );
    if (message.type() === 'error' && !newPageError.test(message.text()))
      editorErrors.push(message.text());
  });
  browser.on('pageerror', (error) => editorErrors.push(error.message));
  // 1. A heading: the About page's, in its page copy.
  const about = 'src/content/pages/about.yaml';
  await visit(browser, '/keystatic/collection/pages/item/about');
  expect(
    await browser.evaluate(
      async () => (await document.fonts.load('500 16px Inter', 'Save')).length,
    ),
  ).toBeGreaterThan(0);
  // The words of Save, as Keystatic sets them (the button itself keeps the browser's own font).
  expect(
    await browser.getByRole('button', { name: 'Save' }).evaluate((save) => {
      const words = [...save.querySelectorAll('*')].find((e) => e.textContent === 'Save') ?? save;
      return getComputedStyle(words).fontFamily;
    }),
  ).toMatch(/^"?Inter"?,/);
  const aboutHero = browser.getByRole('group', { name: 'Hero' });
  await textbox(aboutHero, 'Title').fill('About Northgate');
  await save(browser, about);
  expect(diffLines(before, about)).toEqual({
    removed: ['  title: Meet the company'],
    added: ['  title: About Northgate'],
    hunks: 1,
  });
  // The entry's Preview opens its page on the dev site, in a new tab.
  const opened = browser.context().waitForEvent('page');
  await browser.getByRole('button', { name: 'Preview' }).click();
  const previewTab = await opened;
  await expect(previewTab).toHaveURL(/\/about$/);
  // The dev server reads the saved file a moment after the save: a tab opened before that shows the
  // old heading, then reloads by itself once it has (src/editor/browser/site-reload.ts).
  await expect(previewTab.getByRole('heading', { level: 1 })).toHaveText('About Northgate', {
    timeout: 30_000,
  });
  await previewTab.close();
  expect((await devPage(browser, '/about')).html).toContain('About Northgate');

  // 2. A new page, with one tile's icon uploaded from the tile's own dialog.
  const file = `src/content/services/${page.slug}.mdx`;
  await open(browser, '/keystatic/collection/services/create');
  await textbox(browser, 'Page address').fill(page.slug);
  await textbox(browser, 'Service name').fill(page.title);
  await expect(
    browser.getByText(`The page's heading reads: “${page.title} Development”`),
  ).toBeVisible();
  await choose(browser, browser, 'Group on the services page', 'Cloud');
  const hero = browser.getByRole('group', { name: 'Hero' });
  await textbox(hero, 'Hero text').fill(page.hero);
  await uploadImage(browser, hero, 'illustrations', photo);
  await textbox(hero, 'Alt text').fill('Illustration of a server rack next to a browser window');
  const intro = browser.getByRole('group', { name: 'Intro' });
  await addItem(browser, intro.getByRole('group', { name: /^Tag lines/ }), (dialog) =>
    textbox(dialog, 'Tag line').fill(page.tagLine),
  );
  await textbox(intro, 'Title').fill(page.introTitle);
  await addItem(browser, intro.getByRole('group', { name: /^Paragraphs/ }), (dialog) =>
    textbox(dialog, 'Paragraph').fill(page.paragraph),
  );
  const tiles = browser.getByRole('group', { name: /^Tiles/ });
  for (const [index, tile] of page.tiles.entries()) {
    await addItem(browser, tiles, async (dialog) => {
      await textbox(dialog, 'Title').fill(tile.title);
      await textbox(dialog, 'Summary').fill(tile.summary);
      // No icon is chosen for a new tile until someone chooses one.
      await expect(dialog.getByRole('button', { name: /Icon$/ })).toHaveAccessibleName(
        /^Choose an icon/,
      );
      if (index === 0) await uploadImage(browser, dialog, 'icons', upload);
      else await choose(browser, dialog, 'Icon', tile.icon);
      await textbox(dialog, 'Alt text').fill(`${tile.icon} icon`);
    });
  }
  const counters = browser.getByRole('group', { name: /^Counters/ });
  for (const stat of page.stats) {
    await addItem(browser, counters, async (dialog) => {
      await choose(browser, dialog, 'Icon', stat.icon);
      await textbox(dialog, 'Alt text').fill(`${stat.icon} icon`);
      await textbox(dialog, 'Count').fill(stat.count);
      await textbox(dialog, 'Label').fill(stat.label);
    });
  }
  await textbox(browser, 'SEO title').fill(page.seoTitle);
  await textbox(browser, 'SEO description').fill(page.seoDescription);
  await browser.getByRole('button', { name: 'Create' }).click();
  await expect(browser).toHaveURL(new RegExp(`/keystatic/collection/services/item/${page.slug}$`));
  const text = await changed(before, file);
  for (const expected of [
    `slug: ${page.slug}`,
    `title: ${page.title}`,
    'category: cloud',
    `icon: ${upload.name}`,
    `image: ${photo.name}`,
  ])
    expect(text).toContain(expected);
  expect(text).toMatch(/count: '?98%'?\n/);
  // A new file reaches the dev server's content a moment after Create (as a person who opened it at
  // once would see, a reload later). Once, in a loaded run (test:stress), it was still 404 after
  // 20 s: a failure now says what the dev server logged meanwhile.
  try {
    await expect
      .poll(async () => (await browser.request.get(`/${page.slug}`)).status(), { timeout: 20_000 })
      .toBe(200);
  } catch (error) {
    (error as Error).message += `\n\n${await notServedReport(browser.request, page.slug, file)}`;
    throw error;
  }
  const served = await devPage(browser, `/${page.slug}`);
  for (const expected of [
    `${page.title} Development`,
    page.introTitle,
    page.paragraph,
    ...page.tiles.map((tile) => tile.title),
    ...page.stats.map((stat) => stat.label),
    '98%',
  ])
    expect(served.html).toContain(expected);
  expect(served.sources.some((source) => source.includes(photo.name))).toBe(true);
  // The icon is written into the page (src/lib/assets.ts, iconMarkup), as uploaded.
  expect(served.html).toMatch(uploadedIcon);
  expect((await devPage(browser, '/service')).html).toContain(`href="/${page.slug}"`);

  // 3. A testimonial with its logo uploaded; after Save the logo stays chosen, in this tab and a new one.
  const testimonials = 'src/content/data/testimonials.yaml';
  await open(browser, '/keystatic/singleton/testimonials');
  await addItem(
    browser,
    browser
      .getByRole('group', { name: /^Testimonials/ })
      .or(browser.locator('main'))
      .first(),
    async (dialog) => {
      await textbox(dialog, 'Reference').fill(testimonial.reference);
      await textbox(dialog, 'Company').fill(testimonial.company);
      await textbox(dialog, 'Quote').fill(testimonial.quote);
      await textbox(dialog, 'Person').fill(testimonial.person);
      await expect(dialog.getByRole('button', { name: /Logo$/ })).toHaveAccessibleName(
        /^Choose a logo/,
      );
      await uploadImage(browser, dialog, 'logos', logo);
      await textbox(dialog, 'Alt text').fill(`${testimonial.company} logo`);
    },
  );
  await save(browser, testimonials);
  for (const tab of [browser, await browser.context().newPage()]) {
    if (tab !== browser) await visit(tab, '/keystatic/singleton/testimonials');
    const row = tab.getByRole('row', { name: testimonial.company, exact: true });
    await expect(row).toBeVisible();
    await expect(tab.getByRole('row', { name: /needs fixing/ })).toHaveCount(0);
    await row.click();
    const dialog = tab.getByRole('dialog', { name: 'Edit item' });
    await expect(dialog.getByRole('button', { name: /Logo$/ })).toHaveAccessibleName(
      `${logo.name} Logo`,
    );
    await dialog.getByRole('button', { name: 'Done' }).click();
    if (tab !== browser) await tab.close();
  }
  const { added } = diffLines(before, testimonials);
  expect(added).toContain(`  - id: ${testimonial.reference}`);
  expect(added).toContain(`    image: ${logo.name}`);
  const withTestimonials = await devPage(browser, '/iphone');
  expect(withTestimonials.html).toContain(testimonial.company);
  // Added at the end of the list, it shows after the others (there is no order field to forget).
  expect(withTestimonials.html.indexOf(testimonial.company)).toBeGreaterThan(
    withTestimonials.html.indexOf('Anyvision'),
  );
  expect(withTestimonials.sources.some((source) => source.includes(logo.name))).toBe(true);

  // 4. A mistake: a duplicate of a live page cannot take its address, nor another page's.
  await open(browser, '/keystatic/collection/services/item/laravel');
  // In the toolbar's Actions at 1280 px, beside Preview and History.
  await browser.getByRole('button', { name: 'Actions', exact: true }).click();
  await browser.getByRole('menuitem', { name: 'Duplicate entry…' }).click();
  await expect(browser).toHaveURL(/\/create\?duplicate=laravel$/);
  const address = textbox(browser, 'Page address');
  await expect(address).toHaveValue('');
  const sent = savesSent(browser);
  await browser.getByRole('button', { name: 'Create' }).click();
  await expect(address).toHaveAccessibleDescription(/Give the page an address of its own/);
  await address.fill('iphone');
  await browser.getByRole('button', { name: 'Create' }).click();
  await expect(address).toHaveAccessibleDescription(/Another page is already at \/iphone/);
  // Under Create, too, with the field it is about.
  await expect(browser.getByRole('alert').filter({ hasText: /^Not saved:/ })).toHaveText(
    'Not saved: Page address: Another page is already at /iphone: choose another address',
  );
  await address.fill('about');
  await address.blur();
  await expect(address).toHaveAccessibleDescription(/\/about is one of the site's own pages/);
  expect(sent()).toBe(0);
  expect(
    readdirSync(inProject('src/content/services')).filter(
      (name) => !before.has(`src/content/services/${name}`),
    ),
  ).toEqual([`${page.slug}.mdx`]);

  expect(editorErrors).toEqual([]);
  browser.context().off('request', onRequest);
  expect(elsewhere).toEqual([]);

  // Nothing else changed; and `npm run build` takes all of it, in a copy of the project.
  const written = [
    about,
    file,
    testimonials,
    `src/assets/icons/${upload.name}.svg`,
    `src/assets/illustrations/${photo.name}.png`,
    `src/assets/logos/${logo.name}.svg`,
  ];
  expect(restoredFiles()).toEqual(written.sort());
  const built = await buildOf(written, [
    `${page.slug}/index.html`,
    'service/index.html',
    'about/index.html',
    'iphone/index.html',
  ]);
  expect(built.log).toMatch(/Complete!/);
  const builtPage = built.files.get(`${page.slug}/index.html`)!;
  for (const expected of [`${page.title} Development`, page.introTitle, page.paragraph, '98%'])
    expect(builtPage).toContain(expected);
  expect(builtPage).toMatch(uploadedIcon);
  // The photograph: responsive, its size fixed so that nothing moves as it loads, loaded first.
  const picture =
    [...builtPage.matchAll(/<picture>(.*?)<\/picture>/gs)].find(([html]) =>
      html.includes(photo.name),
    )?.[1] ?? '';
  const avif = /<source type="image\/avif" srcset="([^"]+)" sizes="([^"]+)"/i.exec(picture);
  expect(avif?.[1]).toMatch(
    new RegExp(
      `^/_astro/${photo.name}\\.\\S+\\.avif 280w, .*\\.avif 560w, .*\\.avif 840w, .*\\.avif 1120w$`,
    ),
  );
  expect(avif?.[2]).toBe('(min-width: 768px) 560px, calc(100vw - 2rem)');
  const img = /<img ([^>]+)>/.exec(picture)?.[1] ?? '';
  expect(img).toMatch(new RegExp(`src="/_astro/${photo.name}\\.\\S+\\.webp"`));
  expect(img).toMatch(/srcset="[^"]*\.webp 280w, [^"]*\.webp 1120w"/i);
  // 1280 x 960 shown 560 wide.
  expect(img).toContain('width="560" height="420"');
  expect(img).toContain('loading="eager"');
  expect(img).toContain('fetchpriority="high"');
  expect(built.assets).toContain(/src="\/_astro\/([^"]+)"/.exec(img)![1]!);
  expect(built.files.get('service/index.html')).toContain(`href="/${page.slug}"`);
  expect(built.files.get('about/index.html')).toContain('About Northgate');
  expect(built.files.get('iphone/index.html')).toContain(testimonial.company);
  expect(built.files.get('iphone/index.html')).toMatch(
    new RegExp(`/_astro/${logo.name}\\.[\\w-]+\\.svg`),
  );
});

// A page duplicated by hand: a file copied on disk, the same `slug`, which the editor would have
// refused (above). Astro's glob loader kept one of the two and the other page was gone, silently
// (src/content.config.ts); the build fails naming both (tests/build/content-build.test.ts).
test('a page file copied by hand onto the same address: the dev site shows an error naming both files, until the copy goes; the editor stays usable', async ({
  page: editor,
}) => {
  await visit(editor, '/keystatic/singleton/testimonials');
  const copied = 'src/content/services/laravel-copy.mdx';
  cpSync(inProject('src/content/services/laravel.mdx'), inProject(copied));
  const status = async (address: string) => (await editor.request.get(address)).status();
  // The dev server reads the new file a moment later.
  for (const address of ['/service', '/laravel'])
    await expect.poll(() => status(address), { timeout: 20_000 }).toBe(500);
  // Not over the editor, whose next click still lands.
  await expect(editor.locator('vite-error-overlay')).toHaveCount(0);
  await editor.getByRole('link', { name: 'Portfolio', exact: true }).click();
  await expect(editor.getByRole('heading', { level: 1, name: 'Portfolio' })).toBeVisible();

  // What the person previewing sees: the message, in a plain page of its own, the files for a
  // developer folded away. Even on a busy machine, where the page's connection to the dev server
  // comes up late: here the page's Vite client arrives 2 s late.
  const browser = await editor.context().newPage();
  await browser.route('**/@vite/client', async (route) => {
    await new Promise((later) => setTimeout(later, 2_000));
    await route.continue();
  });
  await visit(browser, '/laravel');
  const message = browser.getByRole('main');
  for (const line of [
    'Service pages → laravel → Page address: "laravel" is also the slug of src/content/services/laravel-copy.mdx',
    '(src/content/services/laravel.mdx: slug)',
    'Service pages → laravel-copy → Page address: "laravel" is also the slug of src/content/services/laravel.mdx',
    '(src/content/services/laravel-copy.mdx: slug)',
  ])
    await expect(message).toContainText(line);
  // The rest of the site still answers.
  expect(await status('/about')).toBe(200);
  // The copy deleted (the running server sees it): both pages are back.
  rmSync(inProject(copied));
  await expect.poll(() => status('/laravel'), { timeout: 20_000 }).toBe(200);
  expect(await status('/service')).toBe(200);
});

// Issue 47: one broken link used to answer 500 on every service page of the dev site, and a value
// the schema refused left the page as it was, or emptied a whole list, without a word.
test("a link to no page in one entry and a value the schema refuses in another: only the pages that show them fail, saying where in the editor's words; the rest renders", async ({
  page: browser,
}) => {
  // Some twenty first renders of the dev site's pages, each compiled on demand: on a loaded machine
  // (CI, with every other phase beside it) that took more than 90 s.
  test.setTimeout(450_000);
  const status = async (address: string) => (await browser.request.get(address)).status();
  const iphone = inProject('src/content/services/iphone.mdx');
  writeFileSync(
    iphone,
    readFileSync(iphone, 'utf8').replace(/^( {4}href:) \/contact$/m, '$1 /nope'),
  );
  const about = inProject('src/content/pages/about.yaml');
  const aboutPage = parse(readFileSync(about, 'utf8')) as { hero: { title: string } };
  aboutPage.hero.title = 'Meet the company '.repeat(10);
  writeFileSync(about, stringify(aboutPage));

  // The dev server reads the files a moment later.
  for (const address of ['/iphone', '/about'])
    await expect.poll(() => status(address), { timeout: 20_000 }).toBe(500);
  for (const address of ['/', '/service', '/laravel', '/portfolio', '/contact'])
    expect(await status(address), address).toBe(200);

  // What the person previewing sees, in a plain page: where, in the editor's words, and the file
  // and field for a developer, folded away.
  const overlay = browser.getByRole('main');
  await visit(browser, '/iphone');
  await expect(overlay).toContainText(
    'Service pages → iphone → Hero → Button: "/nope" is not a page of the site',
  );
  await expect(overlay).toContainText('(src/content/services/iphone.mdx: hero.button.href)');
  await visit(browser, '/about');
  await expect(overlay).toContainText('Page copy → about → Hero → Title: Too big');
  await expect(overlay).toContainText('(src/content/pages/about.yaml: hero.title)');
  await expect(overlay).not.toContainText('iphone');
  // A page that rendered is not troubled by another page's mistake.
  await visit(browser, '/laravel');
  expect(await status('/iphone')).toBe(500);
  await expect(browser.locator('vite-error-overlay')).toHaveCount(0);
  await expect(browser.getByRole('heading', { level: 1 })).toBeVisible();

  // Put back: every page renders again.
  restore(before);
  for (const address of ['/iphone', '/about'])
    await expect.poll(() => status(address), { timeout: 20_000 }).toBe(200);
  for (const address of ['/', '/service', '/laravel', '/portfolio'])
    expect(await status(address), address).toBe(200);

  // A list that a component reads halfway through its pages (the testimonials of the service
  // pages): those pages fail whole, where Astro had sent them cut short there, with a 200.
  const testimonials = inProject('src/content/data/testimonials.yaml');
  const list = parse(readFileSync(testimonials, 'utf8')) as { entries: { company: unknown }[] };
  list.entries[1]!.company = 12345;
  writeFileSync(testimonials, stringify(list));
  await expect.poll(() => status('/laravel'), { timeout: 20_000 }).toBe(500);
  expect(await status('/about')).toBe(200);
  await visit(browser, '/laravel');
  // The testimonial by its name, as its row in the editor shows it.
  await expect(overlay).toContainText('Testimonials → 12345 → Company');
  restore(before);
  await expect.poll(() => status('/laravel'), { timeout: 20_000 }).toBe(200);
  // The mistake's page, still open, shows the page again by itself.
  await expect(browser.getByRole('heading', { level: 1 })).toHaveText('Laravel Development', {
    timeout: 30_000,
  });
});

/** The files of src/content and src/assets that differ from the test's snapshot. */
function restoredFiles() {
  const now = snapshot();
  const paths = new Set([...before.keys(), ...now.keys()]);
  return [...paths]
    .filter((path) => !now.get(path)?.equals(before.get(path) ?? Buffer.alloc(0)))
    .sort();
}

/** The iPhone page's first tile, open in its dialog. */
async function firstTileOfIphone(browser: Page) {
  await visit(browser, '/keystatic/collection/services/item/iphone');
  return openFirstTile(browser);
}

test('an upload is kept pending, shown in the field, and never written if the entry is not saved; an unused image can be removed', async ({
  page: browser,
}) => {
  // An image in the folder that nothing shows (copied by hand, or no longer used), there before the
  // editor opens: offered for removal below.
  const byHand = 'editor-test-by-hand';
  const unusedIcon = `src/assets/icons/${byHand}.svg`;
  writeFileSync(inProject(unusedIcon), upload.bytes);
  const dialog = await firstTileOfIphone(browser);
  // The icon as a file found elsewhere might come, with a script in it: uploaded without, and the
  // field says what went.
  const scripted = String(upload.bytes)
    .replace('<svg ', '<svg onload="alert(1)" ')
    .replace('</svg>', '<script>alert(2)</script></svg>');
  await uploadImage(
    browser,
    dialog,
    'icons',
    { ...upload, bytes: Buffer.from(scripted) },
    'the onload attribute of <svg>, a script',
  );
  // Not in src/assets, but shown in the field: its thumbnail is the upload, cleaned.
  expect(existsSync(inProject(`src/assets/icons/${upload.name}.svg`))).toBe(false);
  const thumbnail = dialog.locator(`img[src*="preview=${upload.name}"]`).last();
  await expect(thumbnail).toBeVisible();
  // Shown as soon as it is in the page; drawn once the browser has fetched and decoded it.
  await expect
    .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);
  const shown = await browser.request.get((await thumbnail.getAttribute('src'))!);
  expect((await shown.body()).equals(upload.bytes)).toBe(true);
  // Changed my mind: the entry is reset, and nothing was written.
  await dialog.getByRole('button', { name: 'Done' }).click();
  await browser.getByRole('button', { name: 'Reset changes' }).click();
  await expect(browser.getByText('Unsaved')).toBeHidden();
  expect(restoredFiles()).toEqual([unusedIcon]);

  // The image copied by hand is offered for removal; one a page shows never is.
  const tile = await openFirstTile(browser);
  await tile.getByRole('button', { name: 'Unused icons…' }).click();
  const unused = tile.getByRole('group', { name: 'Unused icons' });
  await expect(unused.getByText(byHand, { exact: true })).toBeVisible();
  await expect(unused.getByText('rocket', { exact: true })).toHaveCount(0);
  await unused.getByRole('button', { name: `Remove ${byHand}` }).click();
  await expect(unused.getByText(byHand, { exact: true })).toHaveCount(0);
  expect(existsSync(inProject(unusedIcon))).toBe(false);
  // Gone from the list too.
  await tile.getByRole('button', { name: / Icon$/ }).click();
  await browser.keyboard.type(byHand);
  await expect(browser.getByRole('option', { name: byHand, exact: true })).toHaveCount(0);
  await browser.keyboard.press('Escape');
  // The pending upload, which no Save named, can go too (else a later run's sweep removes it).
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const dropped = await browser.request.delete(
    `/api/editor/images?${new URLSearchParams({ folder: 'icons', name: upload.name })}`,
    { headers: { origin } },
  );
  expect(dropped.status()).toBe(204);
});

const run = promisify(execFile);

/**
 * The site's build (`astro build`, the half of `npm run build` that makes the pages; the other half,
 * the live editor's, reads no content) in a copy of the editor's project (which holds the files the
 * test saved): its log, and the pages it wrote. Not in the editor's project itself, whose dev server
 * would read the build's content store as its own. Without the steps that only package the pages it
 * made (PACKAGING): what the marketer saved is in the pages, and those steps take them as they are.
 */
async function buildOf(files: string[], read: string[]) {
  const copy = mkdtempSync(join(tmpdir(), 'editor-build-'));
  try {
    copyProject(project(), copy);
    for (const file of files) expect(existsSync(join(copy, file)), file).toBe(true);
    let log: string;
    try {
      const astro = join(copy, 'node_modules/astro/bin/astro.mjs');
      const config = configWithout(copy, PACKAGING);
      const { stdout, stderr } = await run(process.execPath, [astro, 'build', '--config', config], {
        cwd: copy,
        env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' },
        maxBuffer: 64 * 1024 * 1024,
      });
      log = stdout + stderr;
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`astro build failed:\n${stdout}${stderr}`);
    }
    const pages = new Map<string, string>();
    for (const path of read) {
      const built = join(copy, 'dist/client', path);
      if (existsSync(built)) pages.set(path, readFileSync(built, 'utf8'));
    }
    return { log, files: pages, assets: readdirSync(join(copy, 'dist/client/_astro')) };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Saves the entry open in the editor and waits until its file holds the change and Keystatic says
 * it is saved. The editor's tab is not reloaded by the save (src/editor/dev-server/editor.ts).
 */
// Keystatic answers the save once its files are written (fs.writeFile empties a file first, so a
// file read before the answer may be empty or half written).
const save = (browser: Page, path: string) => saveFile(browser, before, path);

test("saving one changed field changes only that field's lines", async ({ page: browser }) => {
  const service = 'src/content/services/iphone.mdx';
  await visit(browser, '/keystatic/collection/services/item/iphone');
  const seoTitle = textbox(browser, 'SEO title');
  const old = await seoTitle.inputValue();
  await seoTitle.fill(`${old} Today`);
  await save(browser, service);
  expect(diffLines(before, service)).toEqual({
    removed: [`  title: ${old}`],
    added: [`  title: ${old} Today`],
    hunks: 1,
  });

  const testimonials = 'src/content/data/testimonials.yaml';
  await open(browser, '/keystatic/singleton/testimonials');
  await browser.getByRole('row', { name: 'Glitty' }).click();
  const dialog = browser.getByRole('dialog', { name: 'Edit item' });
  const quote = textbox(dialog, 'Quote');
  await quote.fill((await quote.inputValue()).replace('a sketch on a napkin', 'a sketch'));
  await dialog.getByRole('button', { name: 'Done' }).click();
  await save(browser, testimonials);
  const { removed, added, hunks } = diffLines(before, testimonials);
  expect(hunks).toBe(1);
  // The quote's lines only: its folded lines, re-folded, and nothing of the entries around it.
  expect(removed.every((line) => line.startsWith('      '))).toBe(true);
  expect(added.every((line) => line.startsWith('      '))).toBe(true);
  expect(removed.join(' ')).toContain('a sketch on a napkin');
  expect(added.join(' ')).not.toContain('napkin');
});

test('a value the schema refuses is shown at its field, and nothing is written', async ({
  page: browser,
}) => {
  const service = 'src/content/services/iphone.mdx';
  await visit(browser, '/keystatic/collection/services/item/iphone');
  const title = textbox(browser, 'Service name');
  const sent = savesSent(browser);
  await title.fill('x'.repeat(300));
  await browser.getByRole('button', { name: 'Save' }).click();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await expect(title).toHaveAccessibleDescription(/Service name must be 2-40 characters/);
  const refused = browser.getByRole('alert').filter({ hasText: /^Not saved:/ });
  await expect(refused).toContainText('Service name');

  await browser.getByRole('button', { name: 'Reset changes' }).click();
  await expect(title).toHaveValue('iPhone App');
  const tiles = browser.getByRole('group', { name: /^Tiles/ });
  const rows = tiles.getByRole('row');
  await expect(rows).toHaveCount(8);
  // A row's last button removes the tile.
  await rows.first().getByRole('button').last().click();
  await expect(rows).toHaveCount(7);
  await browser.getByRole('button', { name: 'Save' }).click();
  await expect(tiles.getByText('Must have exactly 8 items.')).toBeVisible();
  await expect(refused).toContainText('Tiles');

  // Neither Save was sent, and the file is as it was.
  expect(sent()).toBe(0);
  expect(readFileSync(inProject(service)).equals(before.get(service)!)).toBe(true);
});

test('Save says "Saved", or names the item and field that stop it; a failed save does not say Saved', async ({
  page: browser,
}) => {
  const service = 'src/content/services/iphone.mdx';
  await visit(browser, '/keystatic/collection/services/item/iphone');
  // Keystatic's own toast, which is read out (a live region).
  const saved = browser.locator('[aria-live], [role="alert"], [role="status"]').filter({
    hasText: 'Saved “iPhone App”',
  });
  const refused = browser.getByRole('alert').filter({ hasText: /^Not saved:/ });
  const seoTitle = textbox(browser, 'SEO title');
  const old = await seoTitle.inputValue();

  // A save the dev server fails: no "Saved", and the entry stays unsaved.
  await browser.route('**/api/keystatic/update', (route) =>
    route.fulfill({ status: 500, body: 'disk full' }),
  );
  await seoTitle.fill(`${old} Today`);
  await browser.getByRole('button', { name: 'Save' }).click();
  // The failure is said (the dev server's answer), and that Save is over: it will not say Saved.
  await expect(browser.getByText('disk full', { exact: true })).toBeVisible();
  await expect(browser.getByText('Unsaved')).toBeVisible();
  await expect(saved).toHaveCount(0);
  await browser.unroute('**/api/keystatic/update');

  await save(browser, service);
  await expect(saved).toBeVisible();
  await expect(refused).toHaveCount(0);

  // A mistake in a tile, its dialog closed: Save names the tile and the field, under Save.
  const tiles = browser.getByRole('group', { name: /^Tiles/ });
  const dialog = browser.getByRole('dialog', { name: 'Edit item' });
  // Opened again if it did not show: in a fresh run on a loaded machine, a click on the row just
  // after the Save opened nothing, twice. Why is not known; the form is set anew from the saved
  // files as a Save ends, which would close an item open in it.
  await expect(async () => {
    if (!(await dialog.isVisible())) await tiles.getByRole('row').nth(2).click();
    await expect(textbox(dialog, 'Title')).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
  await textbox(dialog, 'Title').fill('x');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const sent = savesSent(browser);
  await browser.getByRole('button', { name: 'Save' }).click();
  await expect(refused).toHaveText(
    // The tile by its name, as its row shows it (the name is the title, just typed).
    'Not saved: Tiles → x → Title: must be at least 3 characters long',
  );
  // Where Save is: under it, in view.
  const [message, button] = await Promise.all([
    refused.boundingBox(),
    browser.getByRole('button', { name: 'Save' }).boundingBox(),
  ]);
  expect(message!.y).toBeGreaterThan(button!.y + button!.height - 1);
  expect(message!.y).toBeLessThan(button!.y + 3 * button!.height);
  expect(message!.x + message!.width).toBeGreaterThan(button!.x);
  await browser.setViewportSize({ width: 375, height: 800 });
  await expect(refused).toBeInViewport();
  await browser.setViewportSize({ width: 1280, height: 800 });
  // Nothing written by the refused Save (none sent): the file holds the first save's title.
  expect(sent()).toBe(0);
  expect(readFileSync(inProject(service), 'utf8')).toContain(`title: ${old} Today`);
  expect(readFileSync(inProject(service), 'utf8')).not.toContain('title: x\n');

  // Mended, the next Save saves, and the message goes.
  await tiles.getByRole('row').nth(2).click();
  await textbox(dialog, 'Title').fill('Widgets');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await browser.getByRole('button', { name: 'Save' }).click();
  await expect(refused).toHaveCount(0);
  await expect(browser.getByText('Unsaved')).toBeHidden();
  await browser.setViewportSize({ width: 375, height: 800 });
  await expect(saved.first()).toBeVisible();
});

test("the editor's own checks, in a list item: a time zone that does not exist, overlapping hours, a day that does not exist", async ({
  page: browser,
}) => {
  const availability = 'src/content/data/availability.yaml';
  await visit(browser, '/keystatic/singleton/availability');
  await browser.getByRole('row', { name: 'Calls' }).click();
  const dialog = browser.getByRole('dialog', { name: 'Edit item' });
  // A list item's dialog shows a field's problem once the field is left, as Keystatic's own fields
  // do: the field is marked invalid and described by the message under it.
  const zone = textbox(dialog, 'Time zone');
  await zone.fill('Mars/Olympus_Mons');
  await zone.press('Tab');
  await expect(zone).toHaveAttribute('aria-invalid', 'true');
  await expect(zone).toHaveAccessibleDescription(
    /"Mars\/Olympus_Mons" is not a time zone name such as "Europe\/London"/,
  );
  const monday = textbox(dialog, 'Monday');
  await monday.fill('09:30-12:30, 12:00-17:00');
  await monday.press('Tab');
  await expect(monday).toHaveAttribute('aria-invalid', 'true');
  await expect(monday).toHaveAccessibleDescription(/ranges must not overlap/);
  // A closed day that does not exist, in the list inside the item.
  const closed = dialog.getByRole('group', { name: /^Closed dates/ });
  await closed.getByRole('row').first().click();
  const day = browser.getByRole('dialog', { name: 'Edit item' }).last();
  const date = textbox(day, 'Date');
  await date.fill('2026-02-30');
  await date.press('Tab');
  await expect(date).toHaveAttribute('aria-invalid', 'true');
  await expect(date).toHaveAccessibleDescription(/30 February 2026 does not exist/);
  // Done closes the dialog of a list item that was there already, whatever it holds (Keystatic
  // edits it in place; the test once raced the dialog's closing): its row then names the problem.
  await day.getByRole('button', { name: 'Done' }).click();
  await expect(browser.getByRole('dialog', { name: 'Edit item' })).toHaveCount(1);
  await expect(closed.getByRole('row').first()).toContainText(
    '2026-02-30 — needs fixing: Date 30 February 2026 does not exist',
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  // The list's row names the problem once the dialog is closed; Save refuses it, and the entry
  // stays unsaved and the file unchanged.
  const row = browser.getByRole('row', { name: /^Calls — needs fixing: / });
  await expect(row).toContainText('"Mars/Olympus_Mons" is not a time zone name');
  const sent = savesSent(browser);
  await browser.getByRole('button', { name: 'Save' }).click();
  await expect(browser.getByRole('alert').filter({ hasText: /^Not saved:/ })).toHaveText(
    'Not saved: Availability → Calls → Time zone: "Mars/Olympus_Mons" is not a time zone name such as "Europe/London"',
  );
  await expect(browser.getByText('Unsaved')).toBeVisible();
  await expect(row).toBeVisible();
  expect(sent()).toBe(0);
  expect(readFileSync(inProject(availability)).equals(before.get(availability)!)).toBe(true);
});

test('a redirect added in the editor: addresses the site refuses are refused at their field; saved, the old address answers 301 on the dev site', async ({
  page: browser,
}) => {
  const redirects = 'src/content/data/redirects.yaml';
  await visit(browser, '/keystatic/singleton/redirects');
  const list = browser.getByRole('group', { name: /^Redirects \(old addresses\)/ });
  await addItem(browser, list, async (dialog) => {
    const from = textbox(dialog, 'From (old address)');
    const to = textbox(dialog, 'To (new address)');
    for (const [field, value, problem] of [
      [from, '/old-zend/', /The old address takes no slash at the end: "\/old-zend"/],
      [from, '/old-zend#top', /without "#…"/],
      [to, '//evil.example', /The new address must be a site path/],
      [to, '/zend?x=1', /takes no "\?…" part/],
    ] as const) {
      await field.fill(value);
      await field.press('Tab');
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(problem);
    }
    await from.fill('/old-zend');
    await to.fill('/zend');
    await to.press('Tab');
    await expect(from).not.toHaveAttribute('aria-invalid', 'true');
    await expect(to).not.toHaveAttribute('aria-invalid', 'true');
  });
  // The new address with its page's name.
  await expect(list.getByRole('row', { name: '/old-zend → Zend Framework (/zend)' })).toBeVisible();
  await save(browser, redirects);
  expect(parseYaml(readFileSync(inProject(redirects), 'utf8'))).toEqual({
    entries: [{ from: '/old-zend', to: '/zend' }],
  });
  // The dev site answers the old address at once, with the page's new one.
  await expect
    .poll(async () => {
      const response = await browser.request.get('/old-zend?ref=mail', { maxRedirects: 0 });
      return [response.status(), response.headers().location];
    })
    .toEqual([301, '/zend?ref=mail']);
  // Followed, it ends on the page. (As a request: a dev page loaded into the worker's shared
  // browser context, on a loaded machine, once outlasted the test's teardown.)
  const followed = await browser.request.get('/old-zend');
  expect(new URL(followed.url()).pathname).toBe('/zend');
  expect(followed.status()).toBe(200);
});

test('an image uploaded into a list entry is written to its folder, and the entry names it', async ({
  page: browser,
}) => {
  const portfolio = 'src/content/data/portfolio.yaml';
  const screenshot: Image = {
    file: 'FleetDesk v2.PNG',
    name: 'fleetdesk-v2',
    type: 'image/png',
    bytes: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  };
  await visit(browser, '/keystatic/singleton/portfolio');
  await browser.getByRole('row', { name: 'FleetDesk logistics dashboard' }).click();
  const dialog = browser.getByRole('dialog', { name: 'Edit item' });
  await uploadImage(browser, dialog, 'portfolio', screenshot);
  await expect(dialog.getByRole('button', { name: / Image$/ })).toHaveAccessibleName(
    `${screenshot.name} Image`,
  );
  await dialog.getByRole('button', { name: 'Done' }).click();
  await save(browser, portfolio);
  expect(
    readFileSync(inProject('src/assets/portfolio/fleetdesk-v2.png')).equals(screenshot.bytes),
  ).toBe(true);
  expect(diffLines(before, portfolio)).toEqual({
    removed: ['    image: fleetdesk'],
    added: ['    image: fleetdesk-v2'],
    hunks: 1,
  });
});

test('an upload the folder does not take is refused at the field, and nothing is written', async ({
  page: browser,
}) => {
  const dialog = await firstTileOfIphone(browser);
  const chooser = browser.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: uploadButton.icons }).click();
  await (
    await chooser
  ).setFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not an svg') });
  await expect(
    dialog.getByText(
      'Icons are line drawings in SVG, and "photo.png" is a PNG file. Export the icon as SVG from your design tool',
    ),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: / Icon$/ })).toHaveAccessibleName('mobile Icon');
  expect(snapshot()).toEqual(before);
  // Choosing an icon from the list instead clears the message.
  await choose(browser, dialog, 'Icon', 'rocket');
  await expect(dialog.getByText('Icons are line drawings in SVG')).toBeHidden();
});

test('the upload endpoint refuses what a stranger might send, and never replaces a file', async ({
  page: browser,
}) => {
  const address = (folder: string, file: string) =>
    `/api/editor/images?${new URLSearchParams({ folder, file })}`;
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const post = (url: string, data: Buffer | string, headers: Record<string, string> = {}) =>
    browser.request.post(url, {
      data: Buffer.from(data),
      headers: { 'content-type': 'application/octet-stream', origin, ...headers },
      failOnStatusCode: false,
    });
  const cases: [string, Promise<{ status(): number }>, number][] = [
    [
      'another site',
      post(address('icons', 'a.svg'), upload.bytes, { origin: 'https://evil.example' }),
      403,
    ],
    [
      'no origin',
      browser.request.post(address('icons', 'a.svg'), {
        data: upload.bytes,
        headers: { 'content-type': 'application/octet-stream' },
        failOnStatusCode: false,
      }),
      403,
    ],
    [
      'a form post',
      post(address('icons', 'a.svg'), upload.bytes, { 'content-type': 'multipart/form-data' }),
      415,
    ],
    ['a folder outside src/assets', post(address('../content', 'a.svg'), upload.bytes), 400],
    ['a control character in the name', post(address('icons', 'a\nb.svg'), upload.bytes), 400],
    ['a file over the limit', post(address('icons', 'big.svg'), Buffer.alloc(65 * 1024, 32)), 413],
    // Scripts are taken out of an SVG (below); one that is nothing else is refused.
    [
      'an SVG that is only a script',
      post(address('icons', 'x.svg'), '<svg onload="alert(1)"><script>alert(1)</script></svg>'),
      422,
    ],
    ['an image that exists', post(address('icons', 'Cloud.svg'), upload.bytes), 422],
    ['a PUT', browser.request.put(address('icons', 'a.svg'), { failOnStatusCode: false }), 405],
  ];
  for (const [what, response, status] of cases)
    expect((await response).status(), what).toBe(status);
  // A name with a path in it only keeps its last part, inside the folder.
  const travelled = await post(address('icons', '../../../editor-test-escape.svg'), upload.bytes);
  expect(travelled.status()).toBe(201);
  // Kept pending, shown from the endpoint, until a Save names it.
  expect(await travelled.json()).toEqual({
    name: 'editor-test-escape',
    file: 'src/assets/icons/editor-test-escape.svg',
    url: '/api/editor/images?folder=icons&preview=editor-test-escape',
    removed: [],
  });
  expect(existsSync(inProject('src/assets/icons/editor-test-escape.svg'))).toBe(false);
  // The same file again is taken as it is (a retry); a different one under that name is not.
  expect((await post(address('icons', 'editor-test-escape.svg'), upload.bytes)).status()).toBe(200);
  const other = Buffer.from(String(upload.bytes).replace('r="8"', 'r="6"'));
  expect((await post(address('icons', 'editor-test-escape.svg'), other)).status()).toBe(422);
  // Removing: not from another site, not an image something shows, and an unused one goes.
  const remove = (name: string, headers: Record<string, string> = { origin }) =>
    browser.request.delete(`/api/editor/images?${new URLSearchParams({ folder: 'icons', name })}`, {
      headers,
      failOnStatusCode: false,
    });
  expect((await remove('editor-test-escape', { origin: 'https://evil.example' })).status()).toBe(
    403,
  );
  expect((await remove('cloud')).status()).toBe(409);
  expect((await remove('../content')).status()).toBe(404);
  expect((await remove('editor-test-escape')).status()).toBe(204);
  expect(existsSync(inProject('src/assets/icons/editor-test-escape.svg'))).toBe(false);
  expect(
    readFileSync(inProject('src/assets/icons/cloud.svg')).equals(
      before.get('src/assets/icons/cloud.svg')!,
    ),
  ).toBe(true);

  // An SVG with a script in it is written without, and the answer says what went. This link (its
  // colon an entity) got past the old deny-list and ran on the editor's origin when the uploaded
  // file was opened from the dev server and clicked.
  const dialogs: string[] = [];
  browser.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const blocked: string[] = [];
  browser.on('console', (message) => {
    if (/Blocked script execution|Running the JavaScript URL violates/.test(message.text()))
      blocked.push(message.text());
  });
  const linked = await post(
    address('icons', 'editor-test-link.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100"><a xlink:href="javascript&#58;window.ran=1;alert(1)"><rect width="100" height="100"/></a></svg>',
  );
  expect(linked.status()).toBe(201);
  expect(await linked.json()).toMatchObject({
    name: 'editor-test-link',
    removed: ['a link to javascript:'],
  });
  const pending = '/api/editor/images?folder=icons&preview=editor-test-link';
  expect(await (await browser.request.get(pending)).text()).toBe(
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100"><a><rect width="100" height="100"/></a></svg>\n',
  );
  const assetPolicy = {
    'content-security-policy':
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
    'x-content-type-options': 'nosniff',
  };
  // The pending upload, opened as a page, under the policy of a file of src/assets.
  const opened = await browser.goto(pending);
  expect(opened!.headers()['content-type']).toBe('image/svg+xml');
  expect(opened!.headers()).toMatchObject(assetPolicy);
  await browser.locator('rect').click();
  expect(
    await browser.evaluate(() => [document.documentElement.localName, 'ran' in window]),
  ).toEqual(['svg', false]);

  // A file copied into the folder by hand is not cleaned: opened from the dev server, in any of the
  // forms it serves it, it runs nothing all the same (its handler, its script, its link).
  const hand = 'src/assets/icons/editor-test-by-hand.svg';
  writeFileSync(
    inProject(hand),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" onload="window.ran=1;alert(1)"><script>window.ran=2;alert(2)</script><a href="javascript:window.ran=3;alert(3)"><rect width="100" height="100"/></a></svg>\n',
  );
  try {
    for (const served of [
      `/@fs${inProject(hand)}`,
      `/_image?${new URLSearchParams({ href: `/@fs${inProject(hand)}`, f: 'svg' })}`,
    ]) {
      const response = await browser.request.get(served);
      expect(response.status(), served).toBe(200);
      expect(response.headers(), served).toMatchObject(assetPolicy);
    }
    const byHand = await browser.goto(`/${hand}`);
    expect(byHand!.headers()).toMatchObject(assetPolicy);
    await browser.locator('rect').click();
    // The browser says what it refused: the handler and the script, then the link. (Chromium also
    // says so for some of Playwright's own calls into a sandboxed page, more of them on a loaded
    // machine: the messages are counted for this file, at least one a vector.)
    await expect
      .poll(() => blocked.some((text) => /JavaScript URL violates/.test(text)))
      .toBe(true);
    const refused = blocked.filter((text) => text.includes('editor-test-by-hand.svg'));
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(await browser.evaluate(() => 'ran' in window)).toBe(false);
    expect(dialogs).toEqual([]);
  } finally {
    rmSync(inProject(hand));
  }
});
