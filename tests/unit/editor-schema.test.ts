/**
 * The visual editor (Keystatic, keystatic.config.ts → src/editor/schema.ts) and the site's schema
 * (src/content.config.ts) agree: (a) every real content file opens in Keystatic's reader; (b) what
 * Keystatic writes passes the site's schema, and re-writing a file unchanged leaves it byte-identical;
 * (c) every field of the site's schema is declared in the editor's, with the same limits.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createReader } from '@keystatic/core/reader';
import type { ComponentSchema } from '@keystatic/core';
import keystaticConfig from '../../keystatic.config';
import { collections } from '../../src/content.config';

// Keystatic's own YAML library (a dependency of @keystatic/core; it ships no types).
const { dump, load } = (await import('js-yaml' as string)) as {
  dump: (value: unknown) => string;
  load: (text: string) => unknown;
};

const reader = createReader(process.cwd(), keystaticConfig);
const singletons = keystaticConfig.singletons as Record<string, any>;
const editorCollections = keystaticConfig.collections as Record<string, any>;

/** The site collection each editor singleton or collection stands for. */
const siteOf: Record<string, keyof typeof collections> = {
  services: 'services',
  pages: 'pages',
  testimonials: 'testimonials',
  portfolio: 'portfolio',
  homePortfolio: 'homePortfolio',
  feedback: 'feedback',
  pricing: 'pricing',
  enquiryServices: 'enquiryServices',
  technologies: 'technologies',
  settings: 'settings',
  availability: 'availability',
};

const siteSchema = (name: keyof typeof collections) =>
  (collections[name] as unknown as { schema: any }).schema;

/** The entry schema of an editor singleton or collection, as one object field. */
function editorEntry(name: string): Record<string, ComponentSchema> {
  if (name in singletons) {
    const entries = singletons[name]!.schema.entries as any;
    return entries.element.fields;
  }
  const { schema, slugField } = editorCollections[name]!;
  const { body: _body, ...rest } = schema as Record<string, ComponentSchema>;
  void slugField;
  // The pages' slug field is the file name, not a key of the file.
  if (name === 'pages') delete (rest as Record<string, unknown>).name;
  return rest;
}

// Zod 4: unwrap optional/default/pipe and read an object's shape, an array's element.
const defOf = (schema: any) => schema._zod.def;
function unwrap(schema: any): any {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable')
      current = def.innerType;
    else if (def.type === 'pipe') current = def.in.type === 'transform' ? def.out : def.in;
    else return current;
  }
}

/** Every field path of the site's schema ('hero.image', 'services.[].icon'), with its leaf. */
function sitePaths(schema: any, prefix = ''): string[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'object') {
    return Object.entries(def.shape).flatMap(([key, value]) => [
      `${prefix}${key}`,
      ...sitePaths(value, `${prefix}${key}.`),
    ]);
  }
  if (def.type === 'array') return sitePaths(def.element, `${prefix}[].`);
  return [];
}

function editorPaths(fields: Record<string, ComponentSchema>, prefix = ''): string[] {
  return Object.entries(fields).flatMap(([key, field]) => [
    `${prefix}${key}`,
    ...editorFieldPaths(field, `${prefix}${key}.`),
  ]);
}
function editorFieldPaths(field: ComponentSchema, prefix: string): string[] {
  if (field.kind === 'object') return editorPaths(field.fields, prefix);
  if (field.kind === 'array') return editorFieldPaths(field.element, `${prefix}[].`);
  return [];
}

/** The custom fields (src/editor/fields.tsx) hold the whole sub-object: its keys are theirs. */
const customLeaves = ['hero.button', 'hero.illustration'];
const underCustom = (path: string) => customLeaves.some((leaf) => path.startsWith(`${leaf}.`));

/** The names that differ on purpose between the site's and the editor's schema. */
export function missingFromEditor(
  siteName: keyof typeof collections,
  editor: Record<string, ComponentSchema>,
) {
  const inEditor = new Set(editorPaths(editor));
  return sitePaths(siteSchema(siteName)).filter(
    (path) => !underCustom(path) && !inEditor.has(path),
  );
}

describe('(c) every field of the site schema is in the editor schema', () => {
  it.each(Object.entries(siteOf))('%s', (editorName, siteName) => {
    const missing = missingFromEditor(siteName, editorEntry(editorName));
    expect(missing, `fields of ${siteName} missing from the editor`).toEqual([]);
    const site = new Set(sitePaths(siteSchema(siteName)));
    const extra = editorPaths(editorEntry(editorName)).filter(
      (path) => !site.has(path) && !underCustom(path),
    );
    expect(extra, `fields of the editor's ${editorName} the site does not know`).toEqual([]);
  });

  it('names a field added to the site schema but not to the editor', () => {
    const { z } = require('astro/zod') as typeof import('astro/zod');
    const grown = siteSchema('services').extend({ subtitle: z.string() });
    const missing = sitePaths(grown).filter(
      (path) => !underCustom(path) && !new Set(editorPaths(editorEntry('services'))).has(path),
    );
    expect(missing).toEqual(['subtitle']);
  });
});

const serviceSlugs = readdirSync('src/content/services').map((file) => file.replace(/\.mdx$/, ''));
const pageSlugs = readdirSync('src/content/pages').map((file) => file.replace(/\.yaml$/, ''));

describe('(a) every real content file opens in the editor reader', () => {
  it.each(serviceSlugs)('service %s', async (slug) => {
    const entry = await reader.collections.services.read(slug, { throwOnError: true } as any);
    expect(entry).not.toBeNull();
  });
  it.each(pageSlugs)('page %s', async (slug) => {
    const entry = await reader.collections.pages.read(slug, { throwOnError: true } as any);
    expect(entry).not.toBeNull();
  });
  it.each(Object.keys(singletons))('%s', async (name) => {
    const entry = await (reader.singletons as any)[name].read({ throwOnError: true });
    expect(entry).not.toBeNull();
  });
});

/**
 * What Keystatic's editor writes for an entry: each field parsed and serialised by its own field
 * (in schema order; undefined values left out), then js-yaml's `dump` — as serializeEntryToFiles in
 * @keystatic/core's UI does for form fields.
 */
function serialise(field: ComponentSchema, value: unknown, slugField?: string): unknown {
  if (field.kind === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(field.fields)) {
      const item = (value as Record<string, unknown> | undefined)?.[key];
      if (key === slugField) {
        const slug = inner as any;
        const parsed = slug.parse(item, { slug: item });
        slug.validate(parsed, { slugField: { slugs: new Set(), glob: '*' } });
        out[key] = slug.serializeWithSlug(parsed).value;
        continue;
      }
      const serialised = serialise(inner, item);
      if (serialised !== undefined) out[key] = serialised;
    }
    return out;
  }
  if (field.kind === 'array') {
    return ((value as unknown[] | undefined) ?? []).map(
      (item) => serialise(field.element, item) ?? null,
    );
  }
  if (field.kind === 'form' && (!field.formKind || field.formKind === 'slug')) {
    const parsed = (field.parse as any)(value, undefined);
    (field.validate as any)(parsed, undefined);
    return (field as any).serialize(parsed).value;
  }
  throw new Error(`no serialiser here for ${field.kind}/${(field as any).formKind}`);
}

/** What the site's schema refuses in a value, as 'path: message' lines. */
const problems = (schema: any, value: unknown): string[] =>
  schema
    .safeParse(value)
    .error?.issues.map((issue: any) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

function frontMatter(text: string) {
  const match = /^---\n([^]*?)\n---\n?([^]*)$/.exec(text);
  if (!match) throw new Error('no front matter');
  return { data: match[1]! + '\n', body: match[2]! };
}

describe('(b) what the editor writes passes the site schema, and unchanged files stay the same', () => {
  const fieldsOfServices = { kind: 'object', fields: editorEntry('services') } as ComponentSchema;
  it.each(serviceSlugs)('service %s', (slug) => {
    const text = readFileSync(`src/content/services/${slug}.mdx`, 'utf8');
    const { data } = frontMatter(text);
    const written = dump(serialise(fieldsOfServices, load(data), 'slug'));
    expect(problems(siteSchema('services'), load(written))).toEqual([]);
    unchanged.push([`src/content/services/${slug}.mdx`, written, data]);
  });
  it.each(Object.keys(singletons))('%s', (name) => {
    const path = `src/content/data/${singletons[name]!.path!.split('/').pop()}.yaml`;
    const text = readFileSync(path, 'utf8');
    const schema = { kind: 'object', fields: singletons[name]!.schema } as ComponentSchema;
    const written = dump(serialise(schema, load(text)));
    for (const entry of (load(written) as { entries: unknown[] }).entries) {
      expect(problems(siteSchema(siteOf[name]!), entry)).toEqual([]);
    }
    unchanged.push([path, written, text]);
  });
  it.each(pageSlugs)('page %s', (slug) => {
    const text = readFileSync(`src/content/pages/${slug}.yaml`, 'utf8');
    const schema = { kind: 'object', fields: editorEntry('pages') } as ComponentSchema;
    const written = dump(serialise(schema, load(text)));
    expect(problems(siteSchema('pages'), load(written))).toEqual([]);
    unchanged.push([`src/content/pages/${slug}.yaml`, written, text]);
  });
});

/** [file, what the editor writes, what the file holds] for every file above. */
const unchanged: [string, string, string][] = [];

// Not yet: Keystatic writes YAML with js-yaml's dump (80 columns, schema key order, no comments),
// and today's files are not in that format. Converting them once is the next step of issue 20;
// this test then passes and `it.fails` becomes `it`.
it.fails('saving an entry unchanged leaves every file byte-identical', () => {
  const differing = unchanged.filter(([, written, file]) => written !== file).map(([path]) => path);
  expect(differing).toEqual([]);
});
