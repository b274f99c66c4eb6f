/** Every internal link and image (a sprite's too) on every page resolves: plain HTTP against the built server. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type RunningServer } from '../support/server';
import { allRoutes } from '../support/site';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const get = (path: string) => fetch(new URL(path, server.url));

test('internal links and images resolve', async () => {
  const checked = new Map<string, number>();
  const failures: string[] = [];
  for (const route of allRoutes) {
    const html = await (await get(route)).text();
    const targets = [
      ...[...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]!),
      ...[...html.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]!),
      // A picture of the page's sprite: the file, whatever its symbol.
      ...[...html.matchAll(/<use [^>]*href="([^"]+)"/g)].map((m) => m[1]!),
      ...[...html.matchAll(/<link [^>]*href="([^"]+)"/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (!target.startsWith('/') || target.startsWith('//')) continue;
      const path = target.split('#')[0]!.split('?')[0]! || route;
      if (!checked.has(path)) {
        const response = await get(path);
        await response.arrayBuffer();
        checked.set(path, response.status);
      }
      if (checked.get(path) !== 200) failures.push(`${route} -> ${target} (${checked.get(path)})`);
    }
  }
  expect(failures).toEqual([]);
  expect(checked.size).toBeGreaterThan(40);
});

test('the lists show in the order of their files: the portfolio, the testimonials', async () => {
  const { parse } = await import('yaml');
  const { readFileSync } = await import('node:fs');
  const inFile = (name: string, field: string) =>
    (
      parse(readFileSync(`src/content/data/${name}.yaml`, 'utf8')) as {
        entries: Record<string, string>[];
      }
    ).entries.map((entry) => entry[field]!);
  for (const [path, name, field] of [
    ['/portfolio', 'portfolio', 'title'],
    ['/iphone', 'testimonials', 'company'],
  ] as const) {
    const html = await (await get(path)).text();
    const shown = inFile(name, field).map((text) => html.indexOf(text));
    expect(
      shown.every((at) => at > 0),
      `${path} shows every entry of ${name}.yaml`,
    ).toBe(true);
    // The portfolio's file is in no alphabetical order: a page that sorted it would fail here.
    expect(shown, `${path} in the order of ${name}.yaml`).toEqual([...shown].sort((a, b) => a - b));
  }
});
