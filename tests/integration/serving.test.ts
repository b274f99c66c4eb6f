/** How the built site is served: compressed from the build, cached by kind, nothing outside the build. */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server';

// The server writes down every module it resolves, imported or required, and on SIGUSR2 the
// CommonJS modules it has run (a module hook, given through NODE_OPTIONS). Run, not resolved: Node
// resolves both of React's builds to find their exports, and runs one. The list is written beside and
// then renamed: the test waits for the file, which must not be there half-written (it once read it
// empty, between the file's creation and its text).
const folder = mkdtempSync(join(tmpdir(), 'loaded-modules-'));
const loadedList = join(folder, 'modules.txt');
const ranList = join(folder, 'ran.txt');
const register = `import { createRequire, registerHooks } from 'node:module';
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    appendFileSync(${JSON.stringify(loadedList)}, resolved.url + '\\n');
    return resolved;
  },
});
const { cache } = createRequire(process.cwd() + '/');
process.on('SIGUSR2', () => {
  writeFileSync(${JSON.stringify(`${ranList}.tmp`)}, Object.keys(cache).filter((path) => cache[path].loaded).join('\\n'));
  renameSync(${JSON.stringify(`${ranList}.tmp`)}, ${JSON.stringify(ranList)});
});`;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(register)}`,
  });
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** A raw GET (fetch would decompress and hide the encoding). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    bytes: number;
  }>((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** `/` and every other page the build wrote. */
function builtPages() {
  const pages = readdirSync('dist/client', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`dist/client/${entry.name}/index.html`))
    .map((entry) => `/${entry.name}`);
  expect(pages.length).toBeGreaterThan(30);
  return ['/', ...pages];
}

describe('serving the build', () => {
  it('loads none of the build tools, nor the editor, nor the mailer while it has nothing to send, and React built for production', async () => {
    for (const path of ['/', '/healthz', '/schedule', '/schedule/slots.json'])
      expect((await get(path)).status).toBe(200);
    const loaded = readFileSync(loadedList, 'utf8').split('\n');
    const packages = new Set(
      loaded.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter(Boolean),
    );
    // What it does load: the list is the server's.
    expect(packages).toContain('zod');
    for (const unused of ['vite', 'rolldown', 'esbuild', 'sharp', '@keystatic/core', 'nodemailer'])
      expect(packages).not.toContain(unused);
    // React's production build renders, though the test runner's NODE_ENV (`test`) reaches the
    // server, as a shell's might.
    server.child.kill('SIGUSR2');
    await expect.poll(() => existsSync(ranList)).toBe(true);
    const ran = readFileSync(ranList, 'utf8').split('\n');
    expect(ran.filter((path) => path.includes('/node_modules/react-dom/'))).not.toEqual([]);
    expect(ran.filter((path) => /\/node_modules\/react(-dom)?\/.*development/.test(path))).toEqual(
      [],
    );
  });

  it('sends pages brotli- or gzip-compressed, as the client accepts, and revalidated', async () => {
    const br = await get('/iphone', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const gzip = await get('/iphone', { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await get('/iphone');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.bytes).toBeLessThan(gzip.bytes);
    expect(gzip.bytes).toBeLessThan(plain.bytes / 3);
    expect(Number(br.headers['content-length'])).toBe(br.bytes);
  });

  it('keeps the first response of every page within 14 KB', async () => {
    for (const path of builtPages()) {
      const response = await get(path, { 'Accept-Encoding': 'br' });
      const headerBytes = Object.entries(response.headers).reduce(
        (sum, [name, value]) => sum + name.length + String(value).length + 4,
        17,
      );
      expect(response.bytes + headerBytes, path).toBeLessThanOrEqual(14 * 1024);
    }
  });

  // Chromium decodes a page on its fast path only while its bytes are all ASCII: some 3 ms of a phone's
  // main thread on every page (docs/benchmarks.md). The styles and scripts are ours (the minifier writes
  // a CSS escape back as its character); the copy is the marketers' and may hold any character.
  it("writes every page's styles and scripts in ASCII", async () => {
    for (const path of builtPages()) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      const code = [...html.matchAll(/<(style|script)\b([^>]*)>([\s\S]*?)<\/\1>/g)]
        .filter(([, , attributes]) => !attributes!.includes('application/ld+json'))
        .map(([, , , text]) => text!);
      expect(code.length, path).toBeGreaterThan(1);
      for (const text of code) expect(text.match(/[^\x00-\x7f]/g) ?? [], path).toEqual([]);
    }
  });

  it('answers 304 to a page it has already sent', async () => {
    const first = await get('/about');
    const again = await get('/about', { 'If-None-Match': String(first.headers['etag']) });
    expect(again.status).toBe(304);
    expect(again.bytes).toBe(0);
  });

  it('caches hashed assets for a year', async () => {
    const script = readdirSync('dist/client/_astro').find((name) => name.endsWith('.js'))!;
    const response = await get(`/_astro/${script}`, { 'Accept-Encoding': 'br' });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toContain('javascript');
  });

  it("shows the home page's hero and service icons from one SVG file of theirs, cached for a year", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const uses = [...html.matchAll(/<use href="(\/_astro\/sprite\.[\w-]{8}\.svg)#([\w-]+)"/g)];
    // The hero's illustration, then the four columns' icons.
    expect(uses.map((use) => use[2]!.split('-')[0])).toEqual([
      'illustrations',
      ...Array(4).fill('icons'),
    ]);
    expect(new Set(uses.map((use) => use[1])).size).toBe(1);
    // None of them is an <img> any more; the carousels' pictures, lazy and out of view, are.
    for (const [, , id] of uses)
      expect(html).not.toMatch(new RegExp(`<img [^>]*src="/_astro/${id!.replace(/^\w+-/, '')}\\.`));
    const sprite = await fetch(`${server.url}${uses[0]![1]}`, {
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(sprite.status).toBe(200);
    expect(sprite.headers.get('content-type')).toContain('image/svg+xml');
    expect(sprite.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const text = await sprite.text();
    for (const [, , id] of uses) expect(text).toContain(`<symbol id="${id}" viewBox=`);
  });

  // A browser reads a page's icon after the load, on the page's main thread: an SVG icon is a
  // document to make there, a small PNG a quick decode.
  it("gives every page, the desk's too, a small PNG as its icon", async () => {
    for (const path of ['/', '/iphone', '/staff/sign-in']) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      const icons = [...html.matchAll(/<link rel="icon" href="([^"]+)"[^>]*>/g)];
      expect(icons.map(([link]) => link)).toEqual([
        '<link rel="icon" href="/favicon.png" type="image/png" sizes="64x64">',
      ]);
    }
    const icon = await fetch(`${server.url}/favicon.png`);
    expect(icon.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await icon.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // Its header's width and height, as the link says.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([64, 64]);
    expect(png.length).toBeLessThan(2048);
  });

  it('answers HEAD without a body', async () => {
    const head = await get('/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.bytes).toBe(0);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(1000);
  });

  it('serves nothing from outside the build', async () => {
    for (const path of [
      '/../package.json',
      '/..%2fpackage.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/_astro/../../package.json',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
    }
  });

  it("answers Astro's own routes, which the site does not use, as an unknown address: its 404 page", async () => {
    const notFound = await (await fetch(`${server.url}/no-such-page`)).text();
    for (const path of [
      '/_image?href=%2Ffavicon.svg&w=16&f=webp',
      '/_image',
      '/_server-islands/Anything',
    ]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(await response.text(), path).toBe(notFound);
    }
    // Not a failure: no error logged, no stack trace.
    expect(server.output()).not.toMatch(/ERROR|not listed|\n\s+at /);
  });
});
