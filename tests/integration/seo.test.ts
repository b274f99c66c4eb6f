/**
 * What search engines read: unique metadata, the Organization JSON-LD with the address of the
 * site's settings, and a sitemap of every public page. Plain HTTP against the built server.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { startServer, type RunningServer } from '../support/server';
import { allRoutes, serviceRoutes } from '../support/site';

/** The address as editors keep it (src/content/data/settings.yaml). */
const {
  entries: [{ address }],
} = parse(readFileSync('src/content/data/settings.yaml', 'utf8')) as {
  entries: [{ address: { locality: string; country: string } }];
};

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const get = (path: string) => fetch(new URL(path, server.url));

test('every page has unique SEO metadata and the Organization JSON-LD', async () => {
  const descriptions = new Set<string>();
  for (const route of allRoutes) {
    const html = await (await get(route)).text();
    const meta = (attr: string, name: string) =>
      new RegExp(`<meta ${attr}="${name}" content="([^"]+)"`).exec(html)?.[1];
    const description = meta('name', 'description');
    expect(description, route).toBeTruthy();
    descriptions.add(description!);
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
    expect(new URL(canonical!).pathname.replace(/\/$/, '') || '/', route).toBe(route);
    for (const property of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type']) {
      expect(meta('property', property), `${route} ${property}`).toBeTruthy();
    }
    const image = new URL(meta('property', 'og:image')!).pathname;
    expect((await get(image)).status, image).toBe(200);
    // X's card: its kind is its own tag; its title, description and image are read from og:*.
    expect(meta('name', 'twitter:card'), route).toBe('summary_large_image');
    for (const name of ['twitter:title', 'twitter:description', 'twitter:image'])
      expect(meta('name', name), `${route} ${name}`).toBeUndefined();
    const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!),
    );
    const organization = ld.find((d) => d['@type'] === 'Organization');
    expect(organization?.address?.addressLocality, route).toBe(address.locality);
    expect(organization?.address?.addressCountry).toBe(address.country);
    const service = ld.find((d) => d['@type'] === 'Service');
    expect(Boolean(service), route).toBe(serviceRoutes.includes(route));
    if (service) expect(service.provider['@id']).toBe(organization['@id']);
  }
  expect(descriptions.size).toBe(allRoutes.length);
});

test('sitemap.xml lists every public page and robots.txt points to it', async () => {
  const robots = await (await get('/robots.txt')).text();
  const sitemapUrl = /Sitemap: (\S+)/.exec(robots)?.[1];
  expect(sitemapUrl).toBeTruthy();
  const index = await (await get(new URL(sitemapUrl!).pathname)).text();
  const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const urls: string[] = [];
  for (const path of sitemaps) {
    const xml = await (await get(path)).text();
    urls.push(
      ...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
        (m) => new URL(m[1]!).pathname.replace(/\/$/, '') || '/',
      ),
    );
  }
  for (const route of allRoutes.filter((r) => r !== '/thankyou'))
    expect(urls, route).toContain(route);
  expect(urls).not.toContain('/404');
  // /speed only when settings.yaml lists it.
  const [settings] = parse(readFileSync('src/content/data/settings.yaml', 'utf8')).entries;
  if (settings.speedPage) expect(urls).toContain('/speed');
  else expect(urls).not.toContain('/speed');
});
