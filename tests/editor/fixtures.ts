/**
 * `test` for the editor's browser tests: every test of a worker gets its pages from one browser
 * context, its storage emptied between tests. The editor is a development build of some 10 MB of
 * script: in a new context each load compiles all of it (2.4 s of CPU); in one that has loaded it
 * twice, Chromium keeps the compiled code with the cached files and a load costs a quarter of that.
 * Pages a test opened are closed when it ends; what the editor kept (its drafts of unsaved entries in
 * IndexedDB, its settings in localStorage) is removed, so that no test sees another's.
 */
import { expect, test as base, type BrowserContext } from '@playwright/test';

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
  await page.close();
}

export const test = base.extend<object, { workerContext: BrowserContext }>({
  workerContext: [
    async ({ browser }, use, { project }) => {
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
      await warmUp(context);
      await use(context);
      await context.close();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  context: async ({ workerContext }, use) => {
    await use(workerContext);
    await Promise.all(workerContext.pages().map((page) => page.close()));
    await workerContext.clearCookies();
    // Storage is emptied from a page of the origin: IndexedDB's databases, localStorage and
    // sessionStorage. The HTTP cache, with the compiled code, stays.
    const page = await workerContext.newPage();
    await page.goto('/favicon.svg').catch(() => {});
    await page.evaluate(async () => {
      localStorage.clear();
      sessionStorage.clear();
      for (const { name } of await indexedDB.databases())
        if (name)
          await new Promise((done) => {
            const request = indexedDB.deleteDatabase(name);
            request.onsuccess = request.onerror = request.onblocked = done;
          });
    });
    await page.close();
  },
});
