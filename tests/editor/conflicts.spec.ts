/**
 * Nothing a marketer saves is lost silently (src/editor/dev-server/save-check.ts,
 * src/editor/browser/conflicts.ts): a Save made on a version of an entry that changed since is
 * refused, the editor says who changed it and when, shows both versions field by field, and saves
 * what the marketer keeps of each; a draft restored in the browser is checked the same way; and the
 * editor's tab follows the files the dev server writes (src/editor/browser/saves.ts), so that an
 * entry opened after a rename's link move is the file as it is. In Chromium against `astro dev
 * --mode edit`, in the copy of the project whose content every test puts back (./content.ts).
 */
import { readFileSync } from 'node:fs';
import { violations } from '../support/axe';
import {
  expect,
  inBothWidths,
  test,
  viewportAt,
  type APIRequestContext,
  type Locator,
  type Page,
} from './fixtures';
import {
  changed,
  clickSave,
  fileState,
  inProject,
  restore,
  saveAnswer,
  snapshot,
  type Snapshot,
} from './content';
import { open, visit } from './visit';

let before: Snapshot;
test.beforeEach(() => {
  before = snapshot();
});
/**
 * The copy's files put back. The last Save recorded first (History's pages wait for it): its record
 * must not take the files put back for a move of the editor's.
 */
async function putBack(request: APIRequestContext) {
  try {
    // Asked again if reset: a connection the dev server closed after 5 s without a request (its
    // keep-alive, now 15 s: idleConnectionsOutlastTheirHint) was reset as the test reused it, and
    // the files were then not put back.
    await request.get('/keystatic/history').catch(() => request.get('/keystatic/history'));
  } finally {
    restore(before);
  }
}
test.afterEach(({ request }) => putBack(request));

const service = 'src/content/services/ipad.mdx';
const technologies = 'src/content/data/technologies.yaml';
const ipad = '/keystatic/collection/services/item/ipad';

const read = (path: string) => readFileSync(inProject(path), 'utf8');

/** What the dev server answered the tab's Save. */
const save = (tab: Page) => saveAnswer(tab, () => clickSave(tab));

/** The conflict view of an entry, as the editor titles it. */
const conflictOf = (tab: Page, entry: string) =>
  tab.getByRole('dialog', { name: `Not saved yet: ${entry} changed since you opened it` });

/** A field of the conflict view, and its two choices. */
function field(conflict: Locator, legend: string) {
  const group = conflict.getByRole('group', { name: legend });
  return {
    group,
    yours: group.getByRole('radio', { name: /^Yours/ }),
    other: group.getByRole('radio', { name: /^The other version/ }),
  };
}

/** Whether a control shows where it is, not covered by another part of the page (a bar over it). */
const uncovered = (control: Locator) =>
  control.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return !!top && (top === element || element.contains(top));
  });

/** A list file's item, open in its dialog. */
async function openItem(tab: Page, name: string) {
  await tab.getByRole('row', { name, exact: true }).click();
  const dialog = tab.getByRole('dialog', { name: 'Edit item' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * In a tab open at the iPad page: moves it to /ipad-apps, saved, and points the links to it at its
 * new address ("Point them at"); the dialog that said so, still open.
 */
async function moveIpadWithItsLinks(tab: Page) {
  await tab.getByRole('textbox', { name: 'Page address' }).fill('ipad-apps');
  expect(await save(tab)).toBe(200);
  const moved = tab.getByRole('dialog', { name: 'The page /ipad is now /ipad-apps' });
  await moved.getByRole('button', { name: 'Point them at /ipad-apps' }).click();
  await expect(moved.getByRole('status')).toContainText('Done');
  return moved;
}

/**
 * Holds back the tab's reads of files (Keystatic's blobs) for `ms`, and counts the frames in which
 * its Save button is not shown: `asked` once it has asked for one, `hidden()` the count once the
 * reads held have come.
 */
async function saveShownWhileReading(tab: Page, ms: number) {
  let asked!: () => void;
  const askedFor = new Promise<void>((done) => (asked = done));
  const reads: Promise<void>[] = [];
  await tab.route('**/api/keystatic/blob/**', (route) => {
    asked();
    const read = new Promise<void>((done) => setTimeout(done, ms)).then(() =>
      route.continue().catch(() => {}),
    );
    reads.push(read);
    return read;
  });
  await tab.evaluate(() => {
    const seen = { hidden: 0, looking: true };
    (window as unknown as { saveHidden: typeof seen }).saveHidden = seen;
    const look = () => {
      if (!seen.looking) return;
      const save = [...document.querySelectorAll('button')].find(
        (button) => button.textContent?.trim() === 'Save',
      );
      if (!save?.checkVisibility()) seen.hidden++;
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  return {
    asked: askedFor,
    async hidden() {
      await Promise.all(reads);
      await tab.unroute('**/api/keystatic/blob/**');
      // Looked at no more: the rest of the test has the tab's frames to itself.
      return tab.evaluate(() => {
        const seen = (window as unknown as { saveHidden: { hidden: number; looking: boolean } })
          .saveHidden;
        seen.looking = false;
        return seen.hidden;
      });
    },
  };
}

/**
 * The texts of this browser's drafts of an entry, as Keystatic keeps them (IndexedDB): the entry's
 * own key, and each tab's (src/editor/browser/tab-drafts.ts).
 */
const draftTexts = (tab: Page, key: string[]) =>
  tab.evaluate(
    (key) =>
      new Promise<string[]>((done) => {
        const request = indexedDB.open('keystatic');
        request.onerror = () => done([]);
        request.onsuccess = () => {
          try {
            const items = request.result.transaction('items').objectStore('items');
            const all = items.openCursor(IDBKeyRange.bound(key, [...key, []]));
            const texts: string[] = [];
            all.onsuccess = () => {
              const cursor = all.result;
              if (!cursor) return done(texts);
              const at = cursor.key as string[];
              const ofEntry =
                at.length === key.length ||
                (at.length === key.length + 1 && at.at(-1)!.startsWith('tab:'));
              const files = (cursor.value as { files?: Map<string, Uint8Array> }).files;
              if (ofEntry && files instanceof Map)
                texts.push([...files.values()].map((b) => new TextDecoder().decode(b)).join(''));
              cursor.continue();
            };
            all.onerror = () => done([]);
          } catch {
            done([]);
          }
        };
      }),
    key,
  );

/** Until Keystatic has put the tab's unsaved changes of an entry away as a draft. */
const draftKept = (tab: Page, key: string[], holding = '') =>
  expect
    .poll(async () => (await draftTexts(tab, key)).some((text) => text.includes(holding)))
    .toBe(true);

test('two tabs on one entry, at 375 and at 1280 px: the second Save is refused, says who and when, and both changes are kept field by field', async ({
  page: first,
  context,
}) => {
  // The first tab on a phone's width, the second on a desktop's; the conflict is looked at in both.
  const second = await context.newPage();
  await first.setViewportSize(viewportAt(375));
  for (const tab of [first, second]) await visit(tab, ipad);
  // Both at work on the entry at once: the second tab changes the page's name (unsaved, so its tab
  // keeps it on the version it opened), the first the hero text, saved first.
  await second.getByRole('textbox', { name: 'Service name' }).fill('iPad Apps');
  const hero = first.getByRole('textbox', { name: 'Hero text' });
  const heroText = `${await hero.inputValue()} Works offline too.`;
  await hero.fill(heroText);
  // The second tab then follows the first's Save: it reads the entry's new file (held back 2 s
  // here), and meanwhile keeps its page and its Save button, which it is pressed on. Keystatic hid
  // the page behind "Loading Item" until the file came: a Save clicked then was lost, unsaid.
  const reading = await saveShownWhileReading(second, 2_000);
  expect(await save(first)).toBe(200);
  const theirs = await changed(before, service);
  await reading.asked;
  expect(await save(second)).toBe(409);
  expect(await reading.hidden(), 'frames with the Save button hidden').toBe(0);
  const conflict = conflictOf(second, 'Service pages → ipad');
  const name = field(conflict, 'Service name (changed by you)');
  const heroField = field(conflict, 'Hero → Hero text (changed in the other version)');
  const merge = conflict.getByRole('button', { name: 'Save with these choices' });
  await inBothWidths(second, async () => {
    await expect(conflict).toBeVisible();
    await expect(conflict).toHaveAccessibleDescription(
      /^Someone saved it in the editor \(in another tab, or a colleague\), today \d/,
    );
    await expect(name.yours).toHaveAccessibleName(/iPad Apps$/);
    await expect(name.yours).toBeChecked();
    await expect(name.other).toHaveAccessibleName(/iPad App$/);
    await expect(heroField.other).toHaveAccessibleName(/Works offline too\.$/);
    await expect(heroField.other).toBeChecked();
    // The choice in view without scrolling the comparison, at either width.
    await expect(merge).toBeInViewport();
    expect(await violations(second, '.editor-conflict')).toEqual([]);
  });
  // Nothing written: the first tab's save is there, whole.
  expect(read(service)).toBe(theirs);

  // Chosen at a phone's width, by keyboard: the hero text switched to the marketer's, then back to the
  // other's; each choice shows as it is focused, not under the dialog's buttons.
  await second.setViewportSize(viewportAt(375));
  await name.yours.focus();
  await second.keyboard.press('Tab');
  await expect(heroField.other).toBeFocused();
  await expect.poll(() => uncovered(heroField.other)).toBe(true);
  await second.keyboard.press('ArrowUp');
  await expect(heroField.yours).toBeChecked();
  await expect.poll(() => uncovered(heroField.yours)).toBe(true);
  await second.keyboard.press('ArrowDown');
  await expect(heroField.other).toBeChecked();
  expect(await saveAnswer(second, () => merge.click())).toBe(200);
  await expect(conflict).toBeHidden();
  await fileState(
    service,
    (text = '') => text.includes('title: iPad Apps\n') && text.includes('Works offline too.'),
  );
  await expect(second.getByRole('textbox', { name: 'Hero text' })).toHaveValue(heroText);
  await expect(second.getByText('Unsaved', { exact: true })).toHaveCount(0);
  // The first tab follows the file without a reload.
  await expect(first.getByRole('textbox', { name: 'Service name' })).toHaveValue('iPad Apps');
});

test('the marketer keeps their version, or takes the other, after seeing both', async ({
  page: first,
  context,
}) => {
  const second = await context.newPage();
  for (const tab of [first, second]) await visit(tab, ipad);
  const order = (tab: Page) => tab.getByLabel('Order', { exact: true });

  // Keep my version: the second tab's file, though the first saved since.
  await second.getByRole('textbox', { name: 'Service name' }).fill('iPad Apps');
  await order(first).fill('21');
  expect(await save(first)).toBe(200);
  await changed(before, service);
  expect(await save(second)).toBe(409);
  let conflict = conflictOf(second, 'Service pages → ipad');
  await expect(field(conflict, 'Order (changed in the other version)').other).toBeChecked();
  const keep = conflict.getByRole('button', { name: 'Keep my version' });
  expect(await saveAnswer(second, () => keep.click())).toBe(200);
  await fileState(
    service,
    (text = '') => text.includes('title: iPad Apps\n') && /^order: 20$/m.test(text),
  );

  // The first tab, which changed nothing since, shows that file; then it saves the name again.
  await expect(first.getByRole('textbox', { name: 'Service name' })).toHaveValue('iPad Apps');
  await expect(order(first)).toHaveValue('20');
  // A number field takes its value as it loses the focus: until then the tab has no unsaved
  // change, and follows the first tab's Save (the number is then saved on that version, no conflict).
  await order(second).fill('22');
  await order(second).blur();
  await expect(second.getByText('Unsaved', { exact: true })).toBeVisible();
  await first.getByRole('textbox', { name: 'Service name' }).fill('iPad for Business');
  expect(await save(first)).toBe(200);
  await fileState(service, (text = '') => text.includes('title: iPad for Business\n'));
  expect(await save(second)).toBe(409);
  conflict = conflictOf(second, 'Service pages → ipad');
  const take = conflict.getByRole('button', { name: 'Take the other version' });
  expect(await saveAnswer(second, () => take.click())).toBe(200);
  await expect(conflict).toBeHidden();
  // Keystatic's toast (a live region) says nothing of the marketer's was saved.
  await expect(
    second.locator('[aria-live], [role="alert"], [role="status"]').filter({
      hasText: /Kept the other version of “[^”]+”: your changes were not saved/,
    }),
  ).toBeVisible();
  await expect(second.getByRole('textbox', { name: 'Service name' })).toHaveValue(
    'iPad for Business',
  );
  await expect(order(second)).toHaveValue('20');
  await fileState(service, (text = '') => text.includes('title: iPad for Business\n'));
  expect(read(service)).toMatch(/^order: 20$/m);
});

test('the second tab renamed the page: merged, the page moves with both changes, and its old address redirects', async ({
  page: first,
  context,
}) => {
  const second = await context.newPage();
  for (const tab of [first, second]) await visit(tab, ipad);
  await second.getByRole('textbox', { name: 'Page address' }).fill('ipad-apps');
  const hero = first.getByRole('textbox', { name: 'Hero text' });
  await hero.fill(`${await hero.inputValue()} Works offline too.`);
  expect(await save(first)).toBe(200);
  await changed(before, service);
  expect(await save(second)).toBe(409);
  const conflict = conflictOf(second, 'Service pages → ipad');
  await expect(field(conflict, 'Page address (changed by you)').yours).toBeChecked();
  await expect(
    field(conflict, 'Hero → Hero text (changed in the other version)').other,
  ).toBeChecked();
  const merge = conflict.getByRole('button', { name: 'Save with these choices' });
  expect(await saveAnswer(second, () => merge.click())).toBe(200);
  const moved = 'src/content/services/ipad-apps.mdx';
  await fileState(
    moved,
    (text = '') => text.includes('slug: ipad-apps\n') && text.includes('Works offline too.'),
  );
  await fileState('src/content/data/redirects.yaml', (text = '') =>
    /from: \/ipad\n\s+to: \/ipad-apps/.test(text),
  );
  await expect(second).toHaveURL(/\/item\/ipad-apps$/);
  await expect(
    second.getByRole('dialog', { name: 'The page /ipad is now /ipad-apps' }),
  ).toBeVisible();
});

test('a colleague renames, then deletes, the page being edited: the unsaved changes are kept and said to, Save shows both, and only the colleague is offered the links', async ({
  page: bob,
  browser,
}) => {
  // The colleague in a browser of their own (their drafts apart), as two marketers are.
  const elsewhere = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const anna = await elsewhere.newPage();
    await visit(bob, ipad);
    await visit(anna, ipad);
    const hero = bob.getByRole('textbox', { name: 'Hero text' });
    const heroText = `${await hero.inputValue()} Works offline too.`;
    await hero.fill(heroText);
    await draftKept(bob, ['collection', 'services', 'ipad']);
    await anna.getByRole('textbox', { name: 'Page address' }).fill('ipad-apps');
    expect(await save(anna)).toBe(200);
    const offer = anna.getByRole('dialog', { name: 'The page /ipad is now /ipad-apps' });
    await offer.getByRole('button', { name: 'Not now' }).click();

    // Bob is told, and is where his changes are; the offer to point the links is Anna's alone.
    await expect(
      bob.getByRole('status').filter({
        hasText:
          'This page was moved to /ipad-apps by a colleague. Your unsaved changes are kept: they are open there.',
      }),
    ).toBeVisible();
    await expect(bob).toHaveURL(/\/item\/ipad-apps$/);
    await expect(bob.getByRole('textbox', { name: 'Hero text' })).toHaveValue(heroText);
    await expect(bob.getByRole('textbox', { name: 'Page address' })).toHaveValue('ipad-apps');
    await expect(bob.getByRole('dialog', { name: /^The page \/ipad is now/ })).toHaveCount(0);

    // His Save is checked against the page as Anna left it.
    expect(await save(bob)).toBe(409);
    const merge = conflictOf(bob, 'Service pages → ipad-apps').getByRole('button', {
      name: 'Save with these choices',
    });
    expect(await saveAnswer(bob, () => merge.click())).toBe(200);
    await fileState(
      'src/content/services/ipad-apps.mdx',
      (text = '') => text.includes('slug: ipad-apps\n') && text.includes('Works offline too.'),
    );

    // Anna deletes it while Bob changes it again: only Anna is offered to point its links.
    await bob.getByRole('textbox', { name: 'Hero text' }).fill('Works offline.');
    await draftKept(bob, ['collection', 'services', 'ipad-apps']);
    // Anna opens it anew, as it is after Bob's Save.
    await visit(anna, '/keystatic/collection/services/item/ipad-apps');
    await anna.getByRole('button', { name: 'Delete entry…' }).click();
    await anna
      .getByRole('alertdialog', { name: 'Delete entry' })
      .getByRole('button', { name: 'Yes, delete' })
      .click();
    await expect(
      anna.getByRole('dialog', { name: 'The page /ipad-apps was deleted' }),
    ).toBeVisible();
    await expect(
      bob.getByRole('status').filter({
        hasText:
          'A colleague deleted this page. Your unsaved changes are kept and come back if the page is brought back.',
      }),
    ).toBeVisible();
    await expect(bob.getByRole('dialog', { name: /^The page \/ipad-apps was/ })).toHaveCount(0);
  } finally {
    await elsewhere.close();
  }
});

test("a colleague's rename is told only in the tabs it concerns: the one on the page, and the list holding unsaved changes of it, by the page's name", async ({
  page: bob,
  context,
  browser,
}) => {
  const elsewhere = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    // Bob changed the page in a tab he then closed: his changes are kept in his browser, whose
    // one tab open is the list.
    const drafting = await context.newPage();
    await visit(drafting, ipad);
    await drafting.getByRole('textbox', { name: 'Hero text' }).fill('Works offline.');
    await draftKept(drafting, ['collection', 'services', 'ipad']);
    await drafting.close();
    await visit(bob, '/keystatic/collection/services');
    // Anna's browser: the tab that renames, one on the page, one on another page, one on the list.
    const [anna, onIt, onAnother, onList] = await Promise.all(
      [1, 2, 3, 4].map(() => elsewhere.newPage()),
    );
    await visit(anna, ipad);
    await visit(onIt, ipad);
    await visit(onAnother, '/keystatic/collection/services/item/android');
    await visit(onList, '/keystatic/collection/services');
    await anna.getByRole('textbox', { name: 'Page address' }).fill('ipad-apps');
    expect(await save(anna)).toBe(200);

    // The tab on the page is told once it has opened the page at its new address: after the
    // tabs with nothing to open would have said anything.
    await expect(
      onIt.getByRole('status').filter({
        hasText: 'This page was moved to /ipad-apps by a colleague: it is open there.',
      }),
    ).toBeVisible();
    await expect(onIt).toHaveURL(/\/item\/ipad-apps$/);
    await expect(
      bob.getByRole('status').filter({
        hasText:
          'The page iPad App (/ipad) was moved to /ipad-apps by a colleague. Your unsaved changes to it moved with it.',
      }),
    ).toBeVisible();
    // The others show the page under its new address, and say nothing of it.
    await expect(onList.getByRole('row', { name: /ipad-apps/ })).toBeVisible();
    for (const tab of [onList, onAnother]) {
      await expect(tab.getByText(/was moved to \/ipad-apps/)).toHaveCount(0);
      await expect(tab.locator('#editor-notice')).toBeHidden();
    }
    await expect(onAnother).toHaveURL(/\/item\/android$/);
  } finally {
    await elsewhere.close();
  }
});

test('the conflict dialog takes the focus as it opens, Escape is "Not now", and the focus goes back to Save', async ({
  page: first,
  context,
}) => {
  const second = await context.newPage();
  for (const tab of [first, second]) await visit(tab, ipad);
  await second.getByRole('textbox', { name: 'Service name' }).fill('iPad Apps');
  await first.getByLabel('Order', { exact: true }).fill('21');
  expect(await save(first)).toBe(200);
  await changed(before, service);
  // Saved from the keyboard, as a screen reader's user does.
  const saveButton = second.getByRole('button', { name: 'Save', exact: true });
  await saveButton.focus();
  expect(await saveAnswer(second, () => second.keyboard.press('Enter'))).toBe(409);
  const conflict = conflictOf(second, 'Service pages → ipad');
  await expect(conflict).toBeVisible();
  // A modal dialog, named by its heading, with the focus inside it.
  await expect(conflict).toHaveAccessibleDescription(/^Someone saved it in the editor/);
  await expect
    .poll(() => conflict.evaluate((dialog) => dialog.contains(document.activeElement)))
    .toBe(true);
  await second.keyboard.press('Escape');
  await expect(conflict).toHaveCount(0);
  // As "Not now": the changes kept, unsaved, and why said under Save.
  await expect(
    second.getByText(/^Not saved: Service pages → ipad changed since you opened it\./),
  ).toBeVisible();
  await expect(second.getByRole('textbox', { name: 'Service name' })).toHaveValue('iPad Apps');
  await expect(second.getByText('Unsaved', { exact: true })).toBeVisible();
  await expect(saveButton).toBeFocused();
});

test("two tabs of one browser on one page keep each its own unsaved changes, through a reload and a colleague's rename", async ({
  page: first,
  context,
  browser,
}) => {
  const second = await context.newPage();
  for (const tab of [first, second]) await visit(tab, ipad);
  const entry = ['collection', 'services', 'ipad'];
  const hero = first.getByRole('textbox', { name: 'Hero text' });
  const heroBefore = await hero.inputValue();
  const heroText = `${heroBefore} Works offline too.`;
  await hero.fill(heroText);
  await draftKept(first, entry, 'Works offline too.');
  // The second tab's change, kept after the first's: it had taken the first's place.
  await second.getByRole('textbox', { name: 'Service name' }).fill('iPad Apps');
  await draftKept(second, entry, 'title: iPad Apps');

  // The first tab reloaded brings back its own changes, not the second's.
  first.on('dialog', (dialog) => void dialog.accept());
  await visit(first, ipad);
  await expect(first.getByRole('textbox', { name: 'Hero text' })).toHaveValue(heroText);
  await expect(first.getByRole('textbox', { name: 'Service name' })).toHaveValue('iPad App');

  // A colleague renames the page: both tabs move their changes at once, and each keeps its own.
  const elsewhere = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    const anna = await elsewhere.newPage();
    await visit(anna, ipad);
    await anna.getByRole('textbox', { name: 'Page address' }).fill('ipad-apps');
    expect(await save(anna)).toBe(200);
  } finally {
    await elsewhere.close();
  }
  for (const tab of [first, second]) {
    await expect(
      tab.getByRole('status').filter({
        hasText:
          'This page was moved to /ipad-apps by a colleague. Your unsaved changes are kept: they are open there.',
      }),
    ).toBeVisible();
    await expect(tab).toHaveURL(/\/item\/ipad-apps$/);
  }
  await expect(first.getByRole('textbox', { name: 'Hero text' })).toHaveValue(heroText);
  await expect(first.getByRole('textbox', { name: 'Service name' })).toHaveValue('iPad App');
  await expect(second.getByRole('textbox', { name: 'Service name' })).toHaveValue('iPad Apps');
  await expect(second.getByRole('textbox', { name: 'Hero text' })).toHaveValue(heroBefore);
});

test('a duplicated tab starts with the unsaved changes of the tab it was copied from, then keeps its own apart, through a reload of each', async ({
  page: first,
  context,
}) => {
  await visit(first, ipad);
  const entry = ['collection', 'services', 'ipad'];
  const hero = (tab: Page) => tab.getByRole('textbox', { name: 'Hero text' });
  const name = (tab: Page) => tab.getByRole('textbox', { name: 'Service name' });
  const heroBefore = await hero(first).inputValue();
  const offline = `${heroBefore} Works offline too.`;
  await hero(first).fill(offline);
  await draftKept(first, entry, 'Works offline too.');
  // What a browser's Duplicate gives the new tab: a copy of the first's session storage, at its
  // first load only (a reload of the copy keeps its own).
  const session = await first.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
  const copy = await context.newPage();
  await copy.addInitScript((entries: string) => {
    if (sessionStorage.getItem('test:duplicated')) return;
    for (const [key, value] of JSON.parse(entries) as [string, string][])
      sessionStorage.setItem(key, value);
    sessionStorage.setItem('test:duplicated', 'yes');
  }, session);
  try {
    await visit(copy, ipad);
    await expect(hero(copy)).toHaveValue(offline);
    // Each tab's own change from here on.
    await name(copy).fill('iPad Apps');
    await draftKept(copy, entry, 'title: iPad Apps');
    await hero(first).fill(`${offline} Even on a plane.`);
    await draftKept(first, entry, 'Even on a plane.');
    for (const tab of [first, copy]) tab.on('dialog', (dialog) => void dialog.accept());
    await visit(first, ipad);
    await expect(hero(first)).toHaveValue(`${offline} Even on a plane.`);
    await expect(name(first)).toHaveValue('iPad App');
    await visit(copy, ipad);
    await expect(name(copy)).toHaveValue('iPad Apps');
    await expect(hero(copy)).toHaveValue(offline);
  } finally {
    await copy.close();
  }
});

test("a draft restored after a rename's link move is checked too, at 375 px", async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  // A change to a technology, left unsaved: Keystatic keeps it as a draft.
  await visit(page, '/keystatic/singleton/technologies');
  const item = await openItem(page, 'iPad');
  await item.getByRole('textbox', { name: 'Name' }).fill('iPad and iPadOS');
  await item.getByRole('button', { name: 'Done' }).click();
  await draftKept(page, ['singleton', 'technologies']);
  await page.close();

  // Meanwhile the iPad page moves, and its links follow ("Point them at").
  const colleague = await context.newPage();
  await visit(colleague, ipad);
  await moveIpadWithItsLinks(colleague);
  await fileState(technologies, (text = '') => text.includes('href: /ipad-apps'));
  await colleague.close();

  // The draft comes back, and says what Save will do.
  const tab = await context.newPage();
  await tab.setViewportSize({ width: 375, height: 800 });
  await visit(tab, '/keystatic/singleton/technologies');
  await expect(tab.getByText(/This entry was saved again after your draft/)).toBeVisible();
  expect(await save(tab)).toBe(409);
  const conflict = conflictOf(tab, 'Technologies');
  await expect(conflict).toHaveAccessibleDescription(
    /^Its links to \/ipad were pointed at \/ipad-apps \(“Point them at \/ipad-apps”\), after that page moved, today \d/,
  );
  await expect(field(conflict, '2nd technology → Name (changed by you)').yours).toBeChecked();
  await expect(
    field(conflict, '2nd technology → Link (changed in the other version)').other,
  ).toBeChecked();
  expect(await violations(tab, '.editor-conflict')).toEqual([]);
  const merge = conflict.getByRole('button', { name: 'Save with these choices' });
  expect(await saveAnswer(tab, () => merge.click())).toBe(200);
  await fileState(
    technologies,
    (text = '') => text.includes('name: iPad and iPadOS\n') && text.includes('href: /ipad-apps\n'),
  );
  expect(read(technologies)).not.toMatch(/href: \/ipad\n/);
});

test("after a rename's link move, Redirects and Technologies open in the same tab as they are now (at 375 px, each looked at in 1280 too)", async ({
  page,
}) => {
  // Both opened first: the tab holds them as they were.
  await visit(page, '/keystatic/singleton/redirects');
  await open(page, '/keystatic/singleton/technologies');
  await open(page, ipad);
  await page.setViewportSize(viewportAt(375));
  const moved = await moveIpadWithItsLinks(page);
  await moved.getByRole('button', { name: 'Close' }).click();

  await open(page, '/keystatic/singleton/redirects');
  const redirect = page.getByRole('row', { name: '/ipad → iPad App (/ipad-apps)', exact: true });
  await inBothWidths(page, () => expect(redirect).toBeVisible());
  await open(page, '/keystatic/singleton/technologies');
  await expect(page.getByText(/Could not fetch blob/)).toHaveCount(0);
  const item = await openItem(page, 'iPad');
  await inBothWidths(page, () =>
    expect(item.getByRole('textbox', { name: 'Link' })).toHaveValue('/ipad-apps'),
  );
  // Saved on the version it shows: no conflict with the move.
  await item.getByRole('textbox', { name: 'Name' }).fill('iPad and iPadOS');
  await item.getByRole('button', { name: 'Done' }).click();
  expect(await save(page)).toBe(200);
  await fileState(
    technologies,
    (text = '') => text.includes('name: iPad and iPadOS\n') && text.includes('href: /ipad-apps\n'),
  );
  await expect(page.getByText(/Could not fetch blob/)).toHaveCount(0);
});
