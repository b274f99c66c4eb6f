/**
 * `test` for the editor's browser tests: every test of a worker gets its pages from one browser
 * context, its storage emptied between tests. The editor is a development build of some 10 MB of
 * script: in a new context each load compiles all of it (2.4 s of CPU); in one that has loaded it
 * twice, Chromium keeps the compiled code with the cached files and a load costs a quarter of that.
 * Pages a test opened are closed when it ends; what the editor kept (its drafts of unsaved entries in
 * IndexedDB, its settings in localStorage) is removed, so that no test sees another's.
 */
import { test as base, type BrowserContext } from '@playwright/test';

// Everything else as Playwright has it (a name exported here, `test`, wins over the same one below).
export * from '@playwright/test';

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
      await use(context);
      await context.close();
    },
    { scope: 'worker' },
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
