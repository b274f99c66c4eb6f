import { expect, test } from '@playwright/test';
import { allRoutes, serviceRoutes } from './site';

test('every page has unique SEO metadata and the Organization JSON-LD', async ({ request }) => {
  const descriptions = new Set<string>();
  for (const route of allRoutes) {
    const html = await (await request.get(route)).text();
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
    expect((await request.get(image)).status(), image).toBe(200);
    for (const name of ['twitter:card', 'twitter:title', 'twitter:description']) {
      expect(meta('name', name), `${route} ${name}`).toBeTruthy();
    }
    const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!),
    );
    const organization = ld.find((d) => d['@type'] === 'Organization');
    expect(organization?.address?.addressLocality, route).toBe('Ilford');
    expect(organization?.address?.addressCountry).toBe('GB');
    const service = ld.find((d) => d['@type'] === 'Service');
    expect(Boolean(service), route).toBe(serviceRoutes.includes(route));
    if (service) expect(service.provider['@id']).toBe(organization['@id']);
  }
  expect(descriptions.size).toBe(allRoutes.length);
});

test('sitemap.xml lists every public page and robots.txt points to it', async ({ request }) => {
  const robots = await (await request.get('/robots.txt')).text();
  const sitemapUrl = /Sitemap: (\S+)/.exec(robots)?.[1];
  expect(sitemapUrl).toBeTruthy();
  const index = await (await request.get(new URL(sitemapUrl!).pathname)).text();
  const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const urls: string[] = [];
  for (const path of sitemaps) {
    const xml = await (await request.get(path)).text();
    urls.push(
      ...[...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
        (m) => new URL(m[1]!).pathname.replace(/\/$/, '') || '/',
      ),
    );
  }
  for (const route of allRoutes.filter((r) => r !== '/thankyou'))
    expect(urls, route).toContain(route);
  expect(urls).not.toContain('/404');
});
