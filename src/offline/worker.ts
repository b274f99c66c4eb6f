/// <reference lib="webworker" />
/**
 * The site's service worker, built by src/integrations/service-worker.ts into /sw.js with Workbox.
 *
 * - Precached at install: the offline page, the not-found page, the favicon and the islands' code.
 * - Pages: network first, the cached copy after a short wait or without a network; a page never
 *   opened answers with the offline page (or, for an address the site does not have, the not-found
 *   page; an old address of redirects.yaml is sent to its new page, as the server would). Only the
 *   build's own prerendered pages (its list, not a list of exceptions) and its files are ever kept,
 *   and only complete, same-origin 200 answers to GET: the server's own pages (the booking pages,
 *   /healthz, the enquiry endpoints), under whatever spelling, never are.
 * - Deploys: every cache is named for its build; a new worker takes over at once, drops the old
 *   caches and keeps the pages that are open, so the next navigation is the new build's.
 * - Enquiries kept on the device (./outbox.ts) are sent by Background Sync when the connection is
 *   back, even with the page closed; open pages are told on a BroadcastChannel.
 */
import { clientsClaim } from 'workbox-core';
import {
  addPlugins,
  cleanupOutdatedCaches,
  matchPrecache,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { CHANNEL, SYNC_TAG, sendKept } from './device-queue';
import { resolveRedirect, type Redirect } from '../domain/redirects';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: PrecacheEntry[] };
/**
 * Set by the build: its id (a hash of what is precached), the paths of its prerendered pages, and
 * the server's on-demand addresses (src/server/http/routes.ts), which are never kept.
 */
declare const __BUILD_ID__: string;
declare const __PAGES__: string[];
declare const __ON_DEMAND__: string[];
/** The build's redirects (src/content/data/redirects.yaml): old addresses and their new page. */
declare const __REDIRECTS__: Redirect[];

/** How long a page request may wait for the network before the device's copy is shown. */
const NETWORK_TIMEOUT_SECONDS = 3;
const PAGES_CACHE = `pages-${__BUILD_ID__}`;
const ASSETS_CACHE = `assets-${__BUILD_ID__}`;

const pages = new Set(__PAGES__);
const onDemand = new Set(__ON_DEMAND__);
/** A path as the build lists its pages: `/about/` is /about. */
const listed = (path: string) => path.replace(/(.)\/$/, '$1');
/** Only the build's prerendered pages are kept; anything else (free times, someone's booking) is not. */
const keepable = (url: URL) =>
  url.origin === self.location.origin && pages.has(listed(url.pathname));

/**
 * Only whole, same-origin, successful answers are kept, and none the server says not to store (an
 * editor's preview of unpublished changes, src/server/staff/preview.ts, is never kept for later).
 */
const completeAnswers = {
  cacheWillUpdate: async ({ response }: { response: Response }) =>
    response.status === 200 &&
    response.type === 'basic' &&
    !/\bno-store\b/.test(response.headers.get('cache-control') ?? '')
      ? response
      : null,
};

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();

// The not-found page answers 404 by design; the precache takes it with that status.
addPlugins([
  {
    cacheWillUpdate: async ({ request, response }) =>
      response.ok || new URL(request.url).pathname === '/404' ? response : null,
  },
]);
precacheAndRoute(self.__WB_MANIFEST);

const pageStrategy = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: NETWORK_TIMEOUT_SECONDS,
  plugins: [completeAnswers],
  // The portfolio's ?filter= is applied in the page: its copy serves every filter.
  matchOptions: { ignoreSearch: true },
});

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.origin === self.location.origin,
  async (options) => {
    try {
      // The server's own pages go to the network only: nothing of them is kept.
      return keepable(options.url)
        ? await pageStrategy.handle(options)
        : await fetch(options.request);
    } catch {
      // No network and no copy on the device: an old address, as the server would redirect it (its
      // new page may be on the device), a page of the site, or an address it does not have.
      const moved = resolveRedirect(__REDIRECTS__, options.url.pathname, options.url.search);
      if (moved) return Response.redirect(new URL(moved, self.location.origin).href, 301);
      const path = listed(options.url.pathname);
      const known = pages.has(path) || onDemand.has(path);
      const fallback = await matchPrecache(known ? '/offline' : '/404');
      return fallback ?? Response.error();
    }
  },
);

/**
 * The part of a processed image's address that names its source (`/_astro/shot.HASH_` of
 * `/_astro/shot.HASH_VARIANT.avif`): every size and format of one screenshot shares it.
 */
const sourceOf = (path: string) =>
  /^(\/_astro\/.+\.[\w-]{8}_)[\w-]+\.(?:avif|webp|png|jpe?g)$/.exec(path)?.[1];

/**
 * Offline, a raster image the device does not have in the size or format asked for is answered
 * with one it has of the same image: the page was kept with one size of each (see buildFiles), and
 * a phone turned sideways asks for another.
 */
const anotherSizeOfTheImage = {
  handlerDidError: async ({ request }: { request: Request }) => {
    const source = sourceOf(new URL(request.url).pathname);
    if (!source) return undefined;
    const cache = await caches.open(ASSETS_CACHE);
    const kept = (await cache.keys()).find((key) => new URL(key.url).pathname.startsWith(source));
    return kept && cache.match(kept);
  },
};

// Hashed build files never change: the device's copy is always right.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/_astro/'),
  new CacheFirst({ cacheName: ASSETS_CACHE, plugins: [completeAnswers, anotherSizeOfTheImage] }),
);

/**
 * Files of the build a page refers to (its images and scripts), by their /_astro/ address. Of a
 * responsive image, only its fallback (the <img>'s src) is kept, not every size and format its
 * srcset offers, which together weigh ten times as much.
 */
function buildFiles(html: string) {
  // Up to a fragment too: a sprite's pictures (`sprite.HASH.svg#icons-code`) are one file.
  const files = (text: string) => [...text.matchAll(/\/_astro\/[^"'\s),&#]+/g)].map((m) => m[0]);
  const offered = new Set(
    [...html.matchAll(/srcset="([^"]*)"/gi)].flatMap((match) => files(match[1]!)),
  );
  const fallbacks = new Set(
    [...html.matchAll(/<img [^>]*?src="([^"]*)"/gi)].flatMap((match) => files(match[1]!)),
  );
  return new Set(files(html).filter((path) => !offered.has(path) || fallbacks.has(path)));
}

async function keepOpenPage(address: string) {
  const url = new URL(address);
  if (!keepable(url)) return;
  url.hash = '';
  try {
    const response = await fetch(url, { credentials: 'same-origin' });
    // As a page opened later is kept: an editor's preview of a draft (no-store) was kept here,
    // under the published page's address, and shown offline.
    if (response.redirected || !(await completeAnswers.cacheWillUpdate({ response }))) return;
    const html = await response.clone().text();
    const assets = await caches.open(ASSETS_CACHE);
    await Promise.all(
      [...buildFiles(html)].map(async (path) => {
        if (!(await matchPrecache(path))) await assets.add(path).catch(() => {});
      }),
    );
    // The page last: a page that is kept has its images kept too.
    await (await caches.open(PAGES_CACHE)).put(url, response);
  } catch {
    // Offline at activation: the page will be kept when it is next opened.
  }
}

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const current = [PAGES_CACHE, ASSETS_CACHE];
      for (const name of await caches.keys()) {
        // Workbox's precache cleans itself up; every other cache of an older build goes.
        if (!current.includes(name) && !name.startsWith('workbox-precache')) {
          await caches.delete(name);
        }
      }
      // The pages open now were loaded before this worker: keep them and their images, so that
      // they open offline too.
      const windows = await self.clients.matchAll({ type: 'window' });
      await Promise.all(windows.map((client) => keepOpenPage(client.url)));
    })(),
  );
});

self.addEventListener('sync', (event: Event) => {
  const sync = event as Event & { tag: string; waitUntil(promise: Promise<unknown>): void };
  if (sync.tag !== SYNC_TAG) return;
  sync.waitUntil(
    sendKept().then((results) => {
      new BroadcastChannel(CHANNEL).postMessage(results);
      // Still unsent: failing the event asks the browser to try again later.
      if (results.some((r) => r.outcome === 'kept')) throw new Error('Enquiries still waiting');
    }),
  );
});
