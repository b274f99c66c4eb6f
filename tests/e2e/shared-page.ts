/**
 * `test` with `sharedPage`: one page per worker, for tests that only load a page and look at it
 * (no clicks, no viewport, nothing kept in the browser). A new context for each such test cost
 * more than its page load. It is made as the project's `use` makes each test's own page, and it
 * records the CSP violations each load reports (watchViolations), for expectNoCspViolation, and the
 * sections of its first screen drawn late (watchFirstScreen).
 *
 * Every spec takes its `test` from here, whether it uses sharedPage or not: Playwright gives a worker
 * the specs of one set of fixtures, and started new workers (each a browser) whenever it went from a
 * spec of one set to one of the other: two more of each per run.
 */
import { test as base, type Page } from '@playwright/test';
import { watchFirstScreen, watchViolations } from './helpers';

export const test = base.extend<object, { sharedPage: Page }>({
  sharedPage: [
    async ({ browser }, use, { project }) => {
      const { baseURL, viewport, screen, userAgent, deviceScaleFactor, isMobile, hasTouch } =
        project.use;
      const context = await browser.newContext({
        baseURL,
        viewport,
        screen,
        userAgent,
        deviceScaleFactor,
        isMobile,
        hasTouch,
        serviceWorkers: project.use.serviceWorkers,
      });
      const page = await context.newPage();
      await watchViolations(page);
      await watchFirstScreen(page);
      await use(page);
      await context.close();
    },
    { scope: 'worker' },
  ],
});
