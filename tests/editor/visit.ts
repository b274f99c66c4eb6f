import { expect, type Page } from '@playwright/test';

/**
 * Opens an address of the editor. A saved file makes `astro dev` reload the open page (its content
 * changed), which can cut a navigation started just then: it is started again.
 */
export async function visit(browser: Page, address: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      await browser.goto(address);
      return;
    } catch (error) {
      if (attempt === 3 || !String(error).includes('ERR_ABORTED')) throw error;
    }
  }
}

/**
 * Opens an entry of the editor (`/keystatic/collection/NAME/item/ID`, `…/NAME/create`,
 * `/keystatic/singleton/NAME`) as the editor's own links do, from a tab where the editor is open
 * already (else it loads it): a load of the editor's development build costs ten times a move
 * inside it. Waits until the entry's page is the one shown: a collection item's breadcrumb names
 * the item; a new entry's page has its Create button; a singleton's heading is its label, as the
 * editor's own link to it in the sidebar says.
 */
export async function open(tab: Page, address: string) {
  if (!new URL(tab.url(), 'http://x').pathname.startsWith('/keystatic')) return visit(tab, address);
  const item = /\/item\/([^/]+)$/.exec(address)?.[1];
  const shown = item
    ? tab.getByRole('navigation', { name: /breadcrumbs/i }).getByText(item, { exact: true })
    : address.endsWith('/create')
      ? tab.getByRole('button', { name: 'Create', exact: true })
      : tab.getByRole('heading', {
          level: 1,
          name: (await tab.locator(`a[href="${address}"]`).first().innerText()).trim(),
          exact: true,
        });
  await tab.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, address);
  await expect(shown).toBeVisible();
}
