/**
 * The site as `astro dev` serves it, the editor's preview (`npm run dev`, `npm run edit`): every
 * route of src/pages renders with no 5xx answer (the page's or of anything it loads), no error in
 * the browser's console, no broken image and no Vite error overlay; the addresses that are not
 * pages answer a GET without a server error. It only reads, and runs first (`browse-` puts its file
 * before the others): a page asked for while the dev server takes in the files a test before it put
 * back could meet the content store half-way between the two (a 500 for a second).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  expect,
  test,
  type BrowserContext,
  type ConsoleMessage,
  type Frame,
  type Page,
  type Response,
} from './fixtures';
import { parse } from 'yaml';
import { HYDRATED } from '../../src/domain/hand-over';

const pagesDir = 'src/pages';
const servicesDir = 'src/content/services';

/** One page per service entry, by the slug in its front matter, as the files are now. */
const serviceRoutes = () =>
  readdirSync(servicesDir)
    .filter((file) => file.endsWith('.mdx'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(servicesDir, file), 'utf8');
      const { slug } = parse(/^---\n([\s\S]*?)\n---/.exec(text)![1]!) as { slug: string };
      return `/${slug}`;
    });

/** The pages besides the service pages, with the status each answers. */
const pages: Record<string, number> = {
  '/': 200,
  '/about': 200,
  '/contact': 200,
  '/portfolio': 200,
  '/service': 200,
  '/schedule': 200,
  '/speed': 200,
  '/thankyou': 200,
  '/offline': 200,
  // src/pages/404.astro, for any address the site does not have.
  '/no-such-page': 404,
  // A booking's page without its booking, and a cancel, change or confirm link without its token:
  // each says so.
  '/schedule/booked': 404,
  '/schedule/cancel': 400,
  '/schedule/change': 400,
  '/schedule/confirm': 400,
  // Signed out, the desk is its sign-in page.
  '/staff': 200,
  '/staff/sign-in': 200,
  '/staff/publish': 200,
};

/** The addresses that are not pages, with what a GET gets (405: a form's or the beacon's). */
const others: Record<string, number> = {
  '/favicon.png': 200,
  '/healthz': 200,
  '/robots.txt': 200,
  '/schedule/slots.json': 200,
  '/send-mail.php': 405,
  '/php/email.php': 405,
  '/vitals': 405,
  // The export is a post (no other site can start it), as are sign-out and the passkey steps.
  '/staff/enquiries.csv': 405,
  '/staff/passkey': 405,
  '/staff/sign-out': 405,
  // The live site's preview (EDITING=on): no page of the dev site, whose editor previews itself.
  '/keystatic/preview': 404,
  // A refusal's page, shown by a rewrite only (src/server/staff/refused.ts): nothing asked for itself.
  '/staff/refused': 404,
};

/** Each file of src/pages as the address walked for it. */
function pageFileRoutes(dir = pagesDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return pageFileRoutes(path);
    const route = `/${relative(pagesDir, path).split(sep).join('/')}`
      .replace(/\.(astro|ts)$/, '')
      .replace(/\/index$/, '/')
      .replace(/(.)\/$/, '$1');
    // An address that is no page is [...redirect].astro's, which answers with 404.astro.
    return [route === '/404' || route === '/[...redirect]' ? '/no-such-page' : route];
  });
}

/**
 * What goes wrong on a page while it is looked at: a 5xx answer (its own or of anything it loads),
 * an error in its console. `stop` ends the watch (the tab goes on to the next address).
 */
function watch(page: Page, status: number) {
  const problems: string[] = [];
  const onResponse = (response: Response) => {
    if (response.status() >= 500) problems.push(`${response.status()} ${response.url()}`);
  };
  const onPageError = (error: Error) => problems.push(`page error: ${error.message}`);
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    // The browser reports a page's own error status as a failed load: that alone is expected.
    const ownStatus =
      status >= 400 &&
      message.location().url === page.url() &&
      message
        .text()
        .startsWith(`Failed to load resource: the server responded with a status of ${status}`);
    if (!ownStatus) problems.push(`console error: ${message.text()}`);
  };
  page.on('response', onResponse);
  page.on('pageerror', onPageError);
  page.on('console', onConsole);
  const stop = () => {
    page.off('response', onResponse);
    page.off('pageerror', onPageError);
    page.off('console', onConsole);
  };
  return { problems, stop };
}

/** Looks at a page: its status, its islands hydrated if asked, its images, no error overlay. */
async function look(
  page: Page,
  route: string,
  status: number,
  hydrate: boolean,
  problems: string[],
) {
  const response = await page.goto(route);
  if (response?.status() !== status) problems.push(`answered ${response?.status()}, not ${status}`);
  // An island waiting for a first use gets one, one waiting to be seen is scrolled to; again until
  // React has hydrated it (its root marked HYDRATED, src/islands/use-take-over.ts), since an island
  // sets up its trigger only once its code has loaded. Not `ssr` gone: Astro drops it before React
  // has compared the page, and a lazy image made eager then would be a mismatch of the test's own.
  if (hydrate) {
    await page
      .waitForFunction(
        (hydrated) => {
          const waiting = [...document.querySelectorAll('astro-island')].filter(
            (island) =>
              ![...island.querySelectorAll(`[${hydrated}]`)].some(
                (root) => root.closest('astro-island') === island,
              ),
          );
          for (const island of waiting)
            island.firstElementChild?.dispatchEvent(new Event('focusin', { bubbles: true }));
          const unseen = waiting.find((island) => island.getAttribute('client') === 'visible');
          unseen?.firstElementChild?.scrollIntoView();
          return waiting.length === 0;
        },
        HYDRATED,
        { polling: 200, timeout: 20_000 },
      )
      .catch(() => problems.push('an island did not hydrate'));
  }
  const images = await page.evaluate(async () => {
    const images = [...document.images];
    for (const image of images) image.loading = 'eager';
    const loaded = Promise.all(images.map((image) => image.decode().catch(() => {})));
    // Slow is not broken: in \`npm test\` the dev server makes each image on request (no cache in
    // dev) while it compiles the page's modules for the first time, beside the production build's
    // own image encoding; one took over 20 s there. A broken image ends at once and is caught below.
    await Promise.race([loaded, new Promise((later) => setTimeout(later, 45_000))]);
    const src = (image: HTMLImageElement) => image.currentSrc || image.src;
    return {
      broken: images.filter((i) => i.complete && i.naturalWidth === 0).map(src),
      loading: images.filter((i) => !i.complete).map(src),
    };
  });
  problems.push(...images.broken.map((src) => `broken image ${src}`));
  problems.push(...images.loading.map((src) => `image still loading after 45 s: ${src}`));
  if (await page.locator('vite-error-overlay').count()) problems.push('Vite error overlay');
}

/**
 * Opens a route in `tab` (a new one if none) and looks at it (with `hydrate`, a hydration mismatch
 * shows as a console error); the tab is left open, for the next route (a tab opened anew costs
 * more than its page). The dev server reloads its pages when a file changes or it has bundled new
 * dependencies: a page reloaded half-way is looked at again, in a new tab.
 */
async function visit(
  context: BrowserContext,
  tab: Page | undefined,
  route: string,
  status: number,
  hydrate: boolean,
) {
  let page = tab ?? (await context.newPage());
  for (let attempt = 1; ; attempt++) {
    const { problems, stop } = watch(page, status);
    // Any navigation of the tab after the one to this route.
    let navigations = 0;
    let onNavigated!: (frame: Frame) => void;
    const reload = new Promise<true>((resolve) => {
      onNavigated = (frame) => {
        if (frame === page.mainFrame() && navigations++) resolve(true);
      };
    });
    page.on('framenavigated', onNavigated);
    const looking = look(page, route, status, hydrate, problems);
    let wasReloaded: boolean;
    try {
      wasReloaded = await Promise.race([looking.then(() => false), reload]);
    } catch (error) {
      // The reload may be told by the error before the event.
      if (!/destroyed|navigat/i.test(String(error))) throw error;
      wasReloaded = true;
    } finally {
      page.off('framenavigated', onNavigated);
    }
    if (wasReloaded) {
      looking.catch(() => {});
      stop();
      if (attempt < 3) {
        await page.close();
        page = await context.newPage();
        continue;
      }
      problems.push('reloaded while looked at, three times');
    }
    return {
      page,
      stop,
      problems: () => problems.map((problem) => `${route}: ${problem}`),
    };
  }
}

test('the walk below covers every file of src/pages', () => {
  const walked = new Set([...Object.keys(pages), ...Object.keys(others), '/[service]']);
  expect(new Set(pageFileRoutes())).toEqual(walked);
});

test('every page renders with no server error, console error or broken image', async ({
  browser,
  context,
}) => {
  // Each page may wait up to 45 s for its images (look()), with four tabs walking at once.
  test.setTimeout(450_000);
  const services = serviceRoutes();
  expect(services.length).toBeGreaterThan(0);
  const [firstService, ...otherServices] = services;
  // The service pages share one template, its islands and its scripts: the first one is looked at
  // whole, its islands hydrated; the others for what their content makes of the page (the server's
  // rendering, every image, the browser's console) with no script run, a third of a page's cost.
  const routes: [route: string, status: number, hydrate: boolean][] = [
    ...Object.entries(pages).map(
      ([route, status]) => [route, status, true] as [string, number, true],
    ),
    [firstService!, 200, true],
  ];
  const { baseURL, viewport } = test.info().project.use;
  const withoutScripts = await browser.newContext({ baseURL, viewport, javaScriptEnabled: false });
  const problems: string[] = [];

  // The home page stays open until the end: what a page does seconds after loading (the service
  // worker's registration, field data) has had its time by then.
  const [first, ...rest] = routes;
  const home = await visit(context, undefined, ...first!);
  const homeOpened = Date.now();

  // A few tabs at a time, each going from route to route.
  const walk = (tabContext: BrowserContext, queue: typeof routes) =>
    Array.from({ length: 2 }, async () => {
      let tab: Page | undefined;
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { page, stop, problems: found } = await visit(tabContext, tab, ...next);
        stop();
        problems.push(...found());
        tab = page;
      }
      await tab?.close();
    });
  await Promise.all([
    ...walk(context, rest),
    ...walk(
      withoutScripts,
      otherServices.map((route) => [route, 200, false] as [string, number, false]),
    ),
  ]);
  await withoutScripts.close();

  await home.page.waitForTimeout(Math.max(0, homeOpened + 6_000 - Date.now()));
  home.stop();
  problems.push(...home.problems());
  await home.page.close();

  for (const [route, status] of Object.entries(others)) {
    const response = await context.request.get(route);
    if (response.status() !== status)
      problems.push(`${route}: answered ${response.status()}, not ${status}`);
  }
  expect(problems.slice(0, 50), `${problems.length} problems, the first 50:`).toEqual([]);
});

/**
 * A dependency Vite bundled anew while a page was open (`npm run edit` finds one it had not seen):
 * the page's island then asks for the old bundle, which Vite answers "504 Outdated Optimize Dep",
 * and the island's code does not load. The page reloads itself once
 * (src/editor/browser/site-reload.ts), and the island then works; a second failure soon after is
 * left to the console, not reloaded again.
 */
test("a page whose island's code is outdated reloads once, and the island then works", async ({
  page,
}) => {
  const island = page.locator('astro-island').filter({ has: page.locator('form') });
  const hydrated = island.locator(`[${HYDRATED}]`);
  await page.goto('/contact');
  // From now on (the page's own scripts have loaded), the first bundle the island asks for is
  // outdated: Vite answers 504 for it, each time (Astro's own retry too), until the page is loaded
  // anew (whose modules then name the new bundles).
  let outdated: string | undefined;
  let stale = true;
  let refused = 0;
  await page.route('**/node_modules/.vite/deps/**', (route) => {
    const url = route.request().url();
    if (!stale || (outdated && url !== outdated)) return route.continue();
    outdated = url;
    refused++;
    return route.fulfill({ status: 504, body: 'Outdated Optimize Dep' });
  });
  const reloaded = page.waitForEvent('load').then(() => (stale = false));
  await page.getByRole('textbox').first().focus();
  await reloaded;
  expect(refused).toBeGreaterThan(0);
  expect(
    await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type,
    ),
  ).toBe('reload');
  await expect(hydrated).toHaveCount(0);
  await page.getByRole('textbox').first().focus();
  await expect(hydrated).toHaveCount(1);

  // Outdated again within seconds (the reload did not help): no loop, the console says it.
  await page.goto('/contact');
  stale = true;
  outdated = undefined;
  const logged = page.waitForEvent('console', {
    predicate: (message) => message.text().includes('[astro-island] Error hydrating'),
  });
  await page.getByRole('textbox').first().focus();
  await logged;
  expect(
    await page.evaluate(
      () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type,
    ),
  ).toBe('navigate');
});
