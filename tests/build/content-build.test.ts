/**
 * A content mistake fails the build with a message that names the file and
 * the field: each bad fixture is dropped into a temporary copy of the project
 * and `astro sync` (the content step of `astro build`) must reject it; what
 * only the pages check (links, slugs), `astro build`, and `astro dev` too.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject } from '../../scripts/project-copy.mjs';
import { parse, stringify } from 'yaml';

const run = promisify(execFile);
const root = resolve('.');
let copy: string;

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'content-check-'));
  // Caches of its own: its content store holds the fixtures (./scripts/project-copy.mjs).
  copyProject(root, copy);
});

afterAll(() => rmSync(copy, { recursive: true, force: true }));

const astro = join(root, 'node_modules/astro/bin/astro.mjs');
const astroEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' };

async function sync(command: 'sync' | 'build' = 'sync') {
  try {
    await run(process.execPath, [astro, command], {
      cwd: copy,
      env: astroEnv,
    });
    return { failed: false, output: '' };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { failed: true, output: stdout + stderr };
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

  // Links and slugs are checked by the build itself (src/lib/content-checks.ts), not by the schema.
  it('removing a service page fails the build, naming each file that still links to it', async () => {
    const page = join(copy, 'src/content/services/zend.mdx');
    const original = readFileSync(page, 'utf8');
    rmSync(page);
    try {
      const result = await sync('build');
      expect(result.failed).toBe(true);
      expect(result.output).toMatch(
        /src\/content\/data\/technologies\.yaml: entry "zend", href: "\/zend" is not a page of the site/,
      );
    } finally {
      writeFileSync(page, original);
    }
  }, 120_000);

  it('a service slug that is a fixed page fails the build', async () => {
    const page = join(copy, 'src/content/services/yii.mdx');
    const original = readFileSync(page, 'utf8');
    writeFileSync(page, original.replace(/^slug: yii$/m, 'slug: contact'));
    try {
      const result = await sync('build');
      expect(result.failed).toBe(true);
      expect(result.output).toContain(
        'src/content/services/yii.mdx: slug: "contact" is the address of a fixed page (/contact)',
      );
    } finally {
      writeFileSync(page, original);
    }
  }, 120_000);
});

/**
 * `astro dev` on the copy, on a port of its choosing: its address, its output so far, and `stop`,
 * which ends its process group (Astro, esbuild's service) and waits for it.
 */
async function startDev() {
  const child = spawn(process.execPath, [astro, 'dev', '--host', '127.0.0.1', '--port', '0'], {
    cwd: copy,
    // Without vitest's variables: under VITEST, Astro's dev server serves no page.
    env: Object.fromEntries(
      Object.entries(astroEnv).filter(([name]) => !name.startsWith('VITEST')),
    ),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.on('error', (error) => (output += `${error}\n`));
  const exited = new Promise<void>((done) => child.on('close', () => done()));
  const stop = async () => {
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {}
    };
    signal('SIGTERM');
    const killing = setTimeout(() => signal('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killing);
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`astro dev did not start:\n${output}`)),
        30_000,
      );
      const read = (chunk: Buffer) => {
        // Astro colours its output even so.
        output += stripVTControlCharacters(String(chunk));
        const local = /Local\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (local) {
          clearTimeout(timer);
          resolve(local[1]!);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      void exited.then(() => reject(new Error(`astro dev exited:\n${output}`)));
    });
    return { url, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// A page duplicated in the editor: another file, the same `slug`. Astro's glob loader kept one of
// the two (keyed by slug) and the build passed, the other page gone (src/content.config.ts).
describe('two service pages of one slug', () => {
  const services = () => join(copy, 'src/content/services');
  const duplicate = () => join(services(), 'laravel-copy.mdx');
  const bothNamed = [
    'src/content/services/laravel.mdx: slug: "laravel" is also the slug of src/content/services/laravel-copy.mdx',
    'src/content/services/laravel-copy.mdx: slug: "laravel" is also the slug of src/content/services/laravel.mdx',
  ];

  it('fail the build, naming both files', async () => {
    cpSync(join(services(), 'laravel.mdx'), duplicate());
    try {
      const result = await sync('build');
      expect(result.failed).toBe(true);
      for (const line of bothNamed) expect(result.output).toContain(line);
    } finally {
      rmSync(duplicate());
    }
  }, 120_000);

  it('are an error on /service and the page in astro dev, named in its output, until one goes', async () => {
    cpSync(join(services(), 'laravel.mdx'), duplicate());
    const dev = await startDev();
    try {
      for (const page of ['/service', '/laravel']) {
        expect((await fetch(dev.url + page)).status, page).toBe(500);
      }
      // The error page's body is only Vite's client, which shows the message (the overlay) as the
      // server sends it; the server's output has it too.
      for (const line of bothNamed) expect(dev.output()).toContain(line);
      // The rest of the site still answers.
      expect((await fetch(`${dev.url}/about`)).status).toBe(200);

      // The copy deleted (the running server sees it): both pages are back.
      rmSync(duplicate());
      await expect
        .poll(async () => (await fetch(`${dev.url}/laravel`)).status, { timeout: 15_000 })
        .toBe(200);
      expect((await fetch(`${dev.url}/service`)).status).toBe(200);
    } finally {
      await dev.stop();
      rmSync(duplicate(), { force: true });
    }
  }, 120_000);
});

describe('a raster image in content is built responsive', () => {
  it('a PNG hero illustration: AVIF and WebP at several widths, its size fixed, loaded first', async () => {
    const home = join(copy, 'src/content/pages/home.yaml');
    const original = readFileSync(home, 'utf8');
    const photo = join(copy, 'src/assets/illustrations/team-photo.png');
    cpSync(join(root, 'src/assets/portfolio/northgate-website.png'), photo);
    writeFileSync(home, original.replace(/(illustration:\n\s+image:) home$/m, '$1 team-photo'));
    try {
      const result = await sync('build');
      expect(result.output).toBe('');
      const html = readFileSync(join(copy, 'dist/client/index.html'), 'utf8');
      const picture = /<picture>(.*?)<\/picture>/s.exec(html)?.[1] ?? '';
      const avif = /<source type="image\/avif" srcset="([^"]+)" sizes="([^"]+)"/i.exec(picture);
      expect(avif?.[1]).toMatch(
        /^\/_astro\/team-photo\.\S+\.avif 280w, .*\.avif 560w, .*\.avif 840w, .*\.avif 1120w$/,
      );
      expect(avif?.[2]).toBe('(min-width: 768px) 560px, calc(100vw - 2rem)');
      const img = /<img ([^>]+)>/.exec(picture)?.[1] ?? '';
      expect(img).toMatch(/src="\/_astro\/team-photo\.\S+\.webp"/);
      expect(img).toMatch(/srcset="[^"]*\.webp 280w, [^"]*\.webp 1120w"/i);
      // 1280 x 960 shown 560 wide: its height follows, so nothing moves as it loads.
      expect(img).toContain('width="560" height="420"');
      expect(img).toContain('loading="eager"');
      expect(img).toContain('fetchpriority="high"');
      expect(existsSync(join(copy, 'dist/client', /src="([^"]+)"/.exec(img)![1]!))).toBe(true);
    } finally {
      writeFileSync(home, original);
      rmSync(photo);
    }
  }, 180_000);
});
