/**
 * A content mistake fails the build with a message that names the file and the field: each bad
 * fixture is dropped into a temporary copy of the project and `astro sync` (the content step of
 * `astro build`) must reject it; what only the pages check (links, slugs), `astro build`. (The same
 * in `astro dev`, and a raster image built responsive, are the editor's tests, tests/editor/, whose
 * dev server and build of a copy are there already.)
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
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
    try {
      const result = await sync('build');
      expect(result.failed).toBe(true);
      for (const line of [
        'src/content/data/technologies.yaml: entry "zend", href (Technologies → 14th technology → Link): "/zend" is not a page of the site',
        'src/content/pages/home.yaml: sections.0.items.0.links.1.href (Page copy → home → Sections → 1st section → Items → 1st item → Links → 2nd link → Link): "/nope" is not a page of the site',
        'src/content/services/yii.mdx: slug (Service pages → yii → Page address): "contact" is the address of a fixed page (/contact)',
        'src/content/services/laravel.mdx: slug (Service pages → laravel → Page address): "laravel" is also the slug of src/content/services/laravel-copy.mdx',
        'src/content/services/laravel-copy.mdx: slug (Service pages → laravel-copy → Page address): "laravel" is also the slug of src/content/services/laravel.mdx',
      ])
        expect(result.output).toContain(line);
    } finally {
      writeFileSync(home, homeText);
      for (const [file, text] of originals) writeFileSync(join(services, file), text);
      rmSync(join(services, 'laravel-copy.mdx'));
    }
  }, 120_000);
});
