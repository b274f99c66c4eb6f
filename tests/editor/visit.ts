import type { Page } from '@playwright/test';

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
