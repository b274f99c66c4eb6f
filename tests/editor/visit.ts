import { expect, type Locator, type Page } from '@playwright/test';

/**
 * How long the editor may take to load in a tab. Its development build is some 190 modules that
 * arrive after the page's load event, so a load counts from `goto`; in a new browser context, on a
 * loaded 2-core machine (`npm test`, where the other phases take the processor), that took several
 * times the 4 s it takes alone.
 */
const EDITOR_LOAD_MS = 60_000;

/** How long a page of the dev site may take to load before it is asked for again. */
const PAGE_LOAD_MS = 45_000;

const inEditor = (address: string) =>
  new URL(address, 'http://x').pathname.startsWith('/keystatic');

/**
 * Opens an address. An address of the editor is open once the editor shows it (`shownIn`), not at
 * the page's load event, which comes before the editor has arrived: the first step after a visit
 * then has only its own time. A saved file makes `astro dev` reload the open page (its content
 * changed), which can cut a navigation started just then (ERR_ABORTED): it is started again. A
 * reload of the very page being opened ("interrupted by another navigation" to it) is the visit.
 */
export async function visit(browser: Page, address: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      // A page of the dev site asked for as a changed file is read again went unanswered for
      // minutes, twice in loaded full runs (editor.spec.ts's content mistakes): asked again.
      await browser.goto(address, { timeout: inEditor(address) ? 0 : PAGE_LOAD_MS });
      break;
    } catch (error) {
      // The page's own reload, to the very address being opened: that is the visit.
      if (/interrupted by another navigation/.test(String(error))) {
        await browser.waitForLoadState('load').catch(() => {});
        if (new URL(browser.url()).pathname === new URL(address, browser.url()).pathname) break;
      }
      const cut = /ERR_ABORTED|interrupted by another navigation|Timeout .* exceeded/.test(
        String(error),
      );
      if (attempt === 3 || !cut) throw error;
    }
  }
  if (!inEditor(address)) return;
  await expect(editorLoaded(browser)).toBeAttached({ timeout: EDITOR_LOAD_MS });
  await expect(await shownIn(browser, address)).toBeVisible({ timeout: EDITOR_LOAD_MS });
}

/**
 * The editor has loaded in a tab: its sidebar is drawn (folded away at a phone's width, but there),
 * and with it the editor's router, which follows the tab's history from then on (it reads the
 * address once as it is drawn, and only then listens for history changes: a change in between is
 * lost, and the tab stays where it was).
 */
const editorLoaded = (tab: Page) =>
  tab
    .getByRole('navigation', { includeHidden: true })
    .getByRole('link', { name: 'Dashboard', exact: true, includeHidden: true });

/**
 * What shows that the editor shows an address: a collection item's breadcrumb names the item; a
 * new entry's page has its Create button; a singleton's heading is its label, as the editor's own
 * link to it in the sidebar says; anything else, the sidebar.
 */
async function shownIn(tab: Page, address: string): Promise<Locator> {
  const path = new URL(address, 'http://x').pathname;
  const item = /\/item\/([^/]+)$/.exec(path)?.[1];
  if (item)
    return tab.getByRole('navigation', { name: /breadcrumbs/i }).getByText(item, { exact: true });
  if (path.endsWith('/create')) return tab.getByRole('button', { name: 'Create', exact: true });
  if (path.startsWith('/keystatic/singleton/'))
    return tab.getByRole('heading', {
      level: 1,
      name: await singletonLabel(tab, path),
      exact: true,
    });
  return editorLoaded(tab);
}

/**
 * A singleton's label, as the editor's link to it in the sidebar says it: without the mark of a
 * draft kept for it ("Draft (not saved)", ../../src/editor/browser/drafts.ts), which its heading
 * does not have.
 */
const singletonLabel = async (tab: Page, path: string) =>
  (
    await tab
      .locator(`a[href="${path}"]`)
      .first()
      .evaluate((link) => {
        const copy = link.cloneNode(true) as Element;
        for (const mark of copy.querySelectorAll('[data-editor-draft]')) mark.remove();
        return copy.textContent ?? '';
      })
  ).trim();

/**
 * Opens an entry of the editor (`/keystatic/collection/NAME/item/ID`, `…/NAME/create`,
 * `/keystatic/singleton/NAME`) as the editor's own links do, from a tab where the editor is open
 * already (else it loads it): a load of the editor's development build costs ten times a move
 * inside it. Waits until the entry's page is the one shown.
 */
export async function open(tab: Page, address: string) {
  if (!inEditor(tab.url())) return visit(tab, address);
  await expect(editorLoaded(tab)).toBeAttached({ timeout: EDITOR_LOAD_MS });
  const shown = await shownIn(tab, address);
  await tab.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, address);
  await expect(shown).toBeVisible();
}
