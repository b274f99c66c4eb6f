/**
 * `test` for the editor's browser tests: every test of a worker gets its pages from one browser
 * context, its storage emptied between tests. The editor is a development build of some 10 MB of
 * script: in a new context each load compiles all of it (2.4 s of CPU); in one that has loaded it
 * twice, Chromium keeps the compiled code with the cached files and a load costs a quarter of that.
 * Pages a test opened are closed when it ends; what the editor kept (its drafts of unsaved entries in
 * IndexedDB, its settings in localStorage) is removed, so that no test sees another's (from a tab
 * of the origin the worker keeps open, `keeper`).
 */
import {
  expect,
  test as base,
  type Browser,
  type BrowserContext,
  type FullProject,
  type Page,
} from '@playwright/test';

// Everything else as Playwright has it (a name exported here, `test`, wins over the same one below).
export * from '@playwright/test';

/**
 * Loads the editor once in the worker's context before its first test: on a dev server's first
 * visit, Vite bundles the editor's dependencies and reloads the page once it has, which no test must
 * see half-way; and the context then holds the editor's compiled code for every test after.
 */
async function warmUp(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto('/keystatic/collection/services/item/iphone');
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  return page;
}

/**
 * A tab of the origin kept open from test to test (on a file with no script), where the storage
 * is emptied after each test: a tab opened for that after every test had cost a renderer's start
 * and a load each time.
 */
async function keeperOf(context: BrowserContext, page?: Page) {
  const keeper = page && !page.isClosed() ? page : await context.newPage();
  await keeper.goto('/favicon.svg');
  return keeper;
}

/**
 * Empties the origin's storage from a tab of it: IndexedDB's databases (the editor's drafts),
 * localStorage and sessionStorage. The HTTP cache, with the compiled code, stays. A database an
 * open editor holds is deleted once that tab leaves it.
 */
const emptyStorage = (tab: Page) =>
  tab.evaluate(async () => {
    localStorage.clear();
    sessionStorage.clear();
    for (const { name } of await indexedDB.databases())
      if (name)
        await new Promise((done) => {
          const request = indexedDB.deleteDatabase(name);
          request.onsuccess = request.onerror = request.onblocked = done;
        });
  });

/** A tab's size at a width: a phone's height below 600 px, a laptop's above. */
export const viewportAt = (width: number) => ({ width, height: width < 600 ? 812 : 800 });

/**
 * What a tab shows, looked at in both widths: `look` runs at 1280 px, then at 375 px, and the tab
 * goes back to the size it had. A flow runs once, at one width, and each of its views is looked at
 * in both: a resize costs a layout, where the whole flow run again at 375 px cost as much as the
 * flow (docs/test-runs.md). What a phone's width changes is how a view is laid out and reached (a
 * toolbar's actions in a menu), not what a Save does.
 */
export async function inBothWidths(tab: Page, look: () => Promise<void>) {
  const size = tab.viewportSize();
  for (const width of [1280, 375]) {
    await tab.setViewportSize(viewportAt(width));
    await test.step(`at ${width} px`, look);
  }
  if (size) await tab.setViewportSize(size);
}

/** How long closing a test's pages may take before the worker's context is replaced. */
const CLOSE_MS = 10_000;

/**
 * A browser context for a worker, as the project's settings make it, with the editor loaded once,
 * and its keeper's tab.
 */
async function editorContext(browser: Browser, project: FullProject) {
  const { baseURL, viewport, userAgent, deviceScaleFactor, isMobile, hasTouch } = project.use;
  const context = await browser.newContext({
    baseURL,
    viewport,
    userAgent,
    deviceScaleFactor,
    isMobile,
    hasTouch,
  });
  // EDITOR_TEST_CPU_SLOWDOWN=4 runs every page of the tests on a processor that much slower
  // (Chromium's own throttling): a slow or loaded machine's run, on a fast one.
  const slowdown = Number(process.env.EDITOR_TEST_CPU_SLOWDOWN ?? 1);
  if (slowdown > 1)
    context.on(
      'page',
      (page) =>
        void context
          .newCDPSession(page)
          .then((cdp) => cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown }))
          .catch(() => {}),
    );
  return { current: context, keeper: await keeperOf(context, await warmUp(context)) };
}

/** Whether a promise settled within `ms`. */
const settles = (promise: Promise<unknown>, ms: number) =>
  new Promise<boolean>((done) => {
    const timer = setTimeout(() => done(false), ms);
    void promise.then(
      () => (clearTimeout(timer), done(true)),
      () => (clearTimeout(timer), done(true)),
    );
  });

type Worker = { current: BrowserContext; keeper: Page };

/**
 * Vite's error overlay over a tab. No test expects one (the editor keeps the dev site's errors off
 * its own tab; a page with a content mistake shows its own plain page), and one in front of a
 * button made the next click wait out the test's whole limit (300 s, then a retry: a Keystatic
 * read failed as a rename's files moved). So it is taken away as it blocks a step, and the test
 * fails as it ends, quoting the error.
 */
function failOnErrorOverlays(context: BrowserContext) {
  const seen: string[] = [];
  const watch = (page: Page) =>
    void page
      .addLocatorHandler(page.locator('vite-error-overlay'), async (overlay) => {
        seen.push(
          `${page.url()}: ${await overlay
            .evaluate((shown) => {
              const text = shown.shadowRoot?.querySelector('#message-content')?.textContent;
              shown.remove();
              return text ?? '';
            })
            .catch(() => '(gone)')}`,
        );
      })
      .catch(() => {});
  context.on('page', watch);
  return () => {
    context.off('page', watch);
    if (seen.length)
      throw new Error(`The dev server's error overlay covered a tab:\n${seen.join('\n')}`);
  };
}

export const test = base.extend<object, { workerContext: Worker }>({
  // The worker's context, in a box: a test's teardown replaces it when its pages do not close.
  workerContext: [
    async ({ browser }, use, { project }) => {
      const box = await editorContext(browser, project);
      await use(box);
      await box.current.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  context: [
    async ({ workerContext: box, browser }, use, { project }) => {
      const overlaysSeen = failOnErrorOverlays(box.current);
      await use(box.current);
      // Closing a page of the dev site while it reloads itself (its content changed as the test
      // ended: ../../src/editor/browser/site-reload.ts) never returned in Chromium's headless shell,
      // and the test timed out in its teardown: such a context is left, and a new one made.
      const pages = box.current.pages().filter((page) => page !== box.keeper);
      const closed = Promise.all(pages.map((page) => page.close()));
      if (!(await settles(closed, CLOSE_MS))) {
        console.warn(`Its pages did not close in ${CLOSE_MS / 1000} s: a new browser context.`);
        void box.current.close().catch(() => {});
        Object.assign(box, await editorContext(browser, project));
        return overlaysSeen();
      }
      await box.current.clearCookies();
      if (box.keeper.isClosed()) box.keeper = await keeperOf(box.current);
      await emptyStorage(box.keeper);
      overlaysSeen();
    },
    // Its own time, beyond the test's: a new context loads the editor again.
    { scope: 'test', timeout: 120_000 },
  ],
});
