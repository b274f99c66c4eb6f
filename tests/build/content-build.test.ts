/**
 * A content mistake fails the build with a message that names the file and the field: each bad
 * fixture is dropped into a temporary copy of the project and `astro sync` (the content step of
 * `astro build`) must reject it; what only the pages check (links, slugs), `astro build`. (The same
 * in `astro dev`, and a raster image built responsive, are the editor's tests, tests/editor/, whose
 * dev server and build of a copy are there already.)
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWithout, copyProject, PACKAGING } from '../../scripts/project-copy.mjs';
import { rawRequest } from '../support/raw-http';
import { startServer, type RunningServer } from '../support/server';
import { parse, stringify } from 'yaml';

const run = promisify(execFile);
const root = resolve('.');
const redirectsFile = 'src/content/data/redirects.yaml';
let copy: string;
let buildConfig: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'content-check-'));
  // Caches of its own: its content store holds the fixtures (./scripts/project-copy.mjs).
  copyProject(root, copy);
  // What these builds check is in the pages (and the sitemap): not the steps that package them.
  buildConfig = configWithout(copy, PACKAGING);
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

const astro = join(root, 'node_modules/astro/bin/astro.mjs');
// Astro's own `sync`, loaded by Node itself: under vitest, Astro's Vite plugins resolve `'astro'`
// to a module without it.
const { sync: astroSync } = (await import(
  /* @vite-ignore */ pathToFileURL(join(root, 'node_modules/astro/dist/core/index.js')).href
)) as typeof import('astro');
// The content stores that sync opens. A sync that fails leaves its store's debounced write to come
// (Astro waits for it only on success), and its other collections' loaders still running (Astro's
// Promise.all rejects at the first): their writes raced a later build's or sync's own write of the
// same file (ENOENT on data-store.json.tmp). Once a sync has ended, its store writes no more.
const { MutableDataStore } = (await import(
  /* @vite-ignore */ pathToFileURL(
    join(root, 'node_modules/astro/dist/content/mutable-data-store.js'),
  ).href
)) as {
  MutableDataStore: {
    fromFile(path: unknown): Promise<OpenedStore>;
  };
};
type OpenedStore = { waitUntilSaveComplete(): Promise<void>; writeToDisk(): Promise<void> };
const openedStores: OpenedStore[] = [];
const fromFile = MutableDataStore.fromFile.bind(MutableDataStore);
MutableDataStore.fromFile = async (path) => {
  const store = await fromFile(path);
  openedStores.push(store);
  return store;
};
// NODE_ENV as `npm run build` has it: under vitest's `test`, a build's import.meta.env.DEV is true.
const astroEnv = {
  ...process.env,
  ASTRO_TELEMETRY_DISABLED: '1',
  FORCE_COLOR: '0',
  NODE_ENV: 'production',
};

/** `astro build` of the copy, in a process of its own as `npm run build` runs it. */
async function build() {
  try {
    await run(process.execPath, [astro, 'build', '--config', buildConfig], {
      cwd: copy,
      env: astroEnv,
    });
    return { failed: false, output: '' };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { failed: true, output: stdout + stderr };
  }
}

/**
 * `astro sync` of the copy, in this process: Astro's own `sync`, which the CLI calls, without a
 * new Node and Astro loaded for each fixture (a second of processor time each). The output is
 * what the CLI prints of its error: the message, then the file it names (its "Location").
 */
async function sync() {
  const mode = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await astroSync({ root: copy, logLevel: 'silent' });
    return { failed: false, output: '' };
  } catch (error) {
    const { message, loc } = error as { message: string; loc?: { file?: string } };
    return { failed: true, output: `${message.replaceAll('**', '')}\n${loc?.file ?? ''}` };
  } finally {
    process.env.NODE_ENV = mode;
    await Promise.all(
      openedStores.splice(0).map(async (store) => {
        await store.waitUntilSaveComplete();
        store.writeToDisk = async () => {};
      }),
    );
  }
}

async function syncWith(fixture: string) {
  const target = join(copy, 'src/content/services', fixture);
  cpSync(join(root, 'tests/support/fixtures/content', fixture), target);
  try {
    return await sync();
  } finally {
    rmSync(target);
  }
}

describe('a content mistake fails the build, naming the file and the field', () => {
  it('accepts the good fixture', async () => {
    const result = await syncWith('good-service.mdx');
    expect(result.output).toBe('');
    expect(result.failed).toBe(false);
  });

  it.each([
    ['bad-three-stats.mdx', /stats/],
    ['bad-mistyped-key.mdx', /imgae/],
    ['bad-seo-title.mdx', /seo\.title/],
  ])('%s', async (fixture, field) => {
    const result = await syncWith(fixture);
    expect(result.failed).toBe(true);
    expect(result.output).toContain(`src/content/services/${fixture}`);
    expect(result.output).toMatch(field);
  });

  it('a mistake in availability.yaml: the file and the field', async () => {
    const target = join(copy, 'src/content/data/availability.yaml');
    const original = readFileSync(target, 'utf8');
    // Read and written as data, whatever the file's layout (the editor's, src/editor/format.ts).
    const data = parse(original) as { entries: { hours: { monday: string[] } }[] };
    data.entries[0]!.hours.monday[0] = '9.30-12:30';
    writeFileSync(target, stringify(data));
    try {
      const result = await sync();
      expect(result.failed).toBe(true);
      expect(result.output).toContain('availability.yaml');
      expect(result.output).toMatch(/hours\.monday\.0/);
      expect(result.output).toContain('like "09:30-12:30"');
    } finally {
      writeFileSync(target, original);
    }
  });

  it('a leftover `order` in a list file names the file and the field', async () => {
    const target = join(copy, 'src/content/data/portfolio.yaml');
    const original = readFileSync(target, 'utf8');
    const { entries } = parse(original) as { entries: { id: string }[] };
    writeFileSync(
      target,
      stringify({ entries: [{ ...entries[0], order: 3 }, ...entries.slice(1)] }),
    );
    try {
      const leftover = await sync();
      expect(leftover.failed).toBe(true);
      expect(leftover.output).toContain('portfolio.yaml');
      expect(leftover.output).toMatch(/order/);
    } finally {
      writeFileSync(target, original);
    }
  });

  // Links and slugs are checked by the build itself (src/lib/content-checks.ts), not by the schema,
  // all at once: one build with three such mistakes names each of them.
  it('a removed page still linked, a link to no page, a slug that is a fixed page, two pages of one slug: the build fails naming each file, field and place in the editor', async () => {
    const services = join(copy, 'src/content/services');
    const originals = new Map(
      ['zend.mdx', 'yii.mdx'].map((file) => [file, readFileSync(join(services, file), 'utf8')]),
    );
    const home = join(copy, 'src/content/pages/home.yaml');
    const homeText = readFileSync(home, 'utf8');
    const homePage = parse(homeText) as {
      sections: { items: { links?: { href: string }[] }[] }[];
    };
    homePage.sections[0]!.items[0]!.links![1]!.href = '/nope';
    writeFileSync(home, stringify(homePage));
    rmSync(join(services, 'zend.mdx'));
    writeFileSync(
      join(services, 'yii.mdx'),
      originals.get('yii.mdx')!.replace(/^slug: yii$/m, 'slug: contact'),
    );
    // A page duplicated by hand: another file, the same `slug`. Astro's glob loader kept one of the
    // two (keyed by slug) and the build passed, the other page gone (src/content.config.ts). (In
    // `astro dev`, the editor's tests: tests/editor/editor.spec.ts.)
    cpSync(join(services, 'laravel.mdx'), join(services, 'laravel-copy.mdx'));
    // Redirects the build refuses (the rules' cases: tests/unit/redirects.test.ts): from a page, to
    // no page, and a chain.
    writeFileSync(
      join(copy, redirectsFile),
      stringify({
        entries: [
          { from: '/laravel', to: '/about' },
          { from: '/old-php', to: '/nope' },
          { from: '/old-a', to: '/old-php' },
        ],
      }),
    );
    try {
      const result = await build();
      expect(result.failed).toBe(true);
      for (const line of [
        // Each list item by its name, as its row in the editor shows it.
        'src/content/data/technologies.yaml: entry "zend", href (Technologies → Zend → Link): "/zend" is not a page of the site',
        'src/content/pages/home.yaml: sections.0.items.0.links.1.href (Page copy → home → Sections → One team for the whole product → Items → Web Development → Links → Responsive Web Design → Link): "/nope" is not a page of the site',
        'src/content/services/yii.mdx: slug (Service pages → yii → Page address): "contact" is the address of a fixed page (/contact)',
        'src/content/services/laravel.mdx: slug (Service pages → laravel → Page address): "laravel" is also the slug of src/content/services/laravel-copy.mdx',
        'src/content/services/laravel-copy.mdx: slug (Service pages → laravel-copy → Page address): "laravel" is also the slug of src/content/services/laravel.mdx',
      ])
        expect(result.output).toContain(line);
      // Redirects' lines, their place in the editor between the field and the message.
      for (const line of [
        /redirects\.yaml: entry "\/laravel", from \(Redirects \(old addresses\) → “\/laravel → \/about” → From \(old address\)\): \/laravel is a page of the site: a redirect would hide it/,
        /redirects\.yaml: entry "\/old-php", to \(.*\): \/nope is not a page of the site/,
        /redirects\.yaml: entry "\/old-a", to \(.*\): \/old-php is itself redirected, and \/nope is not a page of the site/,
      ])
        expect(result.output).toMatch(line);
    } finally {
      writeFileSync(home, homeText);
      for (const [file, text] of originals) writeFileSync(join(services, file), text);
      rmSync(join(services, 'laravel-copy.mdx'));
      writeFileSync(join(copy, redirectsFile), readFileSync(join(root, redirectsFile)));
    }
  });

  // A page's text is written by marketers, on the live site too, and built on the server: MDX would
  // run an `export` of it as JavaScript with the server's rights (its keys, its store).
  it('code in a page text fails the build naming the file and line, and is never run', async () => {
    const yii = join(copy, 'src/content/services/yii.mdx');
    const original = readFileSync(yii, 'utf8');
    const ran = join(copy, 'code-ran');
    writeFileSync(
      yii,
      `${original}\nSome words.\n\nexport const leak = (await import('node:fs')).writeFileSync(${JSON.stringify(ran)}, 'x');\n`,
    );
    try {
      const result = await build();
      expect(result.failed).toBe(true);
      expect(result.output).toMatch(
        /src\/content\/services\/yii\.mdx: the page text holds an import or export \(line \d+\)/,
      );
      expect(existsSync(ran)).toBe(false);
    } finally {
      writeFileSync(yii, original);
    }
  });

  it('a redirect with a mistake of its own: the file, the entry and the field', async () => {
    writeFileSync(join(copy, redirectsFile), 'entries:\n  - from: /old-page/\n    to: /about\n');
    try {
      const result = await sync();
      expect(result.failed).toBe(true);
      const output = result.output.replace(/\x1b\[[0-9;]*m/g, '');
      expect(output).toContain('src/content/data/redirects.yaml');
      expect(output).toContain('redirects → /old-page/ data does not match');
      expect(output).toContain('from: The old address takes no slash at the end: "/old-page"');
    } finally {
      writeFileSync(join(copy, redirectsFile), readFileSync(join(root, redirectsFile)));
    }
  });
});

/**
 * The hidden check of issue 47: a renamed page redirects, with links to its old address still
 * valid. /zend becomes /zend-framework in the copy, redirects.yaml gets /zend → /zend-framework (as
 * the editor writes it on a rename), technologies.yaml still links to /zend: the build passes, and
 * the production server over the copy's build answers the old address with a 301. One build of
 * the copy, which every check below reads.
 */
describe('a renamed page redirects, and links to its old address stay valid', () => {
  let server: RunningServer;
  const get = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, server.url), { redirect: 'manual', ...init });

  beforeAll(async () => {
    const zend = join(copy, 'src/content/services/zend.mdx');
    const original = readFileSync(zend, 'utf8');
    writeFileSync(zend, original.replace(/^slug: zend$/m, 'slug: zend-framework'));
    writeFileSync(
      join(copy, redirectsFile),
      stringify({ entries: [{ from: '/zend', to: '/zend-framework' }] }),
    );
    try {
      const result = await build();
      expect(result.output.slice(-2000)).not.toMatch(/error/i);
      expect(result.failed).toBe(false);
    } finally {
      writeFileSync(zend, original);
      writeFileSync(join(copy, redirectsFile), readFileSync(join(root, redirectsFile)));
    }
    server = await startServer({ DIST_DIR: join(copy, 'dist') });
  }, 300_000);

  afterAll(() => server?.stop());

  it('the old address answers 301 to the new one, for GET and HEAD, with or without a slash, its query kept', async () => {
    for (const [method, path, location] of [
      ['GET', '/zend', '/zend-framework'],
      ['HEAD', '/zend', '/zend-framework'],
      ['GET', '/zend/', '/zend-framework'],
      ['GET', '/zend?utm_source=mail&x=1', '/zend-framework?utm_source=mail&x=1'],
    ] as const) {
      const response = await get(path, { method });
      expect(response.status, `${method} ${path}`).toBe(301);
      expect(response.headers.get('location'), `${method} ${path}`).toBe(location);
      // Staff may point the old address elsewhere later: cached for an hour, not for good.
      expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    }
    const followed = await fetch(new URL('/zend', server.url));
    expect(followed.url).toBe(new URL('/zend-framework', server.url).href);
    expect(followed.status).toBe(200);
    expect(await followed.text()).toContain('Zend');
  });

  it('a link in the content to the old address is built as it was, and leads to the page', async () => {
    const home = await (await get('/')).text();
    expect(home).toContain('href="/zend"');
    expect((await get('/zend-framework')).status).toBe(200);
  });

  it('the sitemap has the new address, not the old one', async () => {
    const index = await (await get('/sitemap-index.xml')).text();
    const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (m) => new URL(m[1]!).pathname,
    );
    const pages = (
      await Promise.all(sitemaps.map(async (path) => (await get(path)).text()))
    ).flatMap((xml) =>
      [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname),
    );
    const addresses = pages.map((path) => path.replace(/(.)\/$/, '$1'));
    expect(addresses).toContain('/zend-framework');
    expect(addresses).toContain('/laravel');
    expect(addresses).not.toContain('/zend');
  });

  it('any other address, or another method, is answered as before: not found', async () => {
    for (const path of ['/nope', '/zend/x', '/zend-']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain('<html');
    }
    expect((await get('/zend', { method: 'POST', body: 'a=1' })).status).toBe(404);
  });

  it('no address makes it redirect elsewhere, or write a header of its own', async () => {
    for (const path of [
      '//evil.example',
      '/%2F%2Fevil.example',
      '//evil.example/zend',
      '/zend%0d%0aSet-Cookie:x=1',
      '/zend%0d%0a',
      '/zend/..',
      '/x/../zend',
      '/%5Czend',
      '/\\evil.example',
      `/${'a'.repeat(5000)}`,
    ]) {
      const { headers } = await rawRequest(server.url, `GET ${path} HTTP/1.1`);
      expect(headers['set-cookie'], path).toBeUndefined();
      // A Location is only ever the file's new address, a path of this site.
      if (headers.location !== undefined)
        expect(headers.location, path).toMatch(/^\/zend-framework(\?|$)/);
    }
    // The query is the request's, kept as the client encoded it: no line break reaches a header.
    const { status, headers } = await rawRequest(
      server.url,
      'GET /zend?a=%0d%0aSet-Cookie:x=1 HTTP/1.1',
    );
    expect(status).toBe(301);
    expect(headers.location).toBe('/zend-framework?a=%0d%0aSet-Cookie:x=1');
    expect(headers['set-cookie']).toBeUndefined();
  });
});
