/**
 * What the visual editor writes for a content file, computed outside the browser: each field of the
 * entry parsed and serialised by its own Keystatic field, in schema order, values left empty dropped,
 * then js-yaml's `dump` with its defaults. It mirrors `serializeEntryToFiles` of @keystatic/core's UI
 * (0.6): `serializeProps` (an object drops undefined values, an array writes them as null, the slug
 * field writes `serializeWithSlug`'s value) and `dump(value)`; an MDX body is kept as it is (the
 * service pages have none; Keystatic's MDX serialiser may reformat a body it rewrites).
 *
 * The content files are kept in this format, so that saving an entry in the editor rewrites only the
 * lines of the fields that changed: tests/unit/editor-schema.test.ts checks every file against it, and
 * `npm run format:content` (scripts/format-content.mjs) rewrites the files that differ.
 */
import { dump, load } from 'js-yaml';
import type { ComponentSchema } from '@keystatic/core';

type Fields = Record<string, ComponentSchema>;
/** What is read here of an editor config (keystatic.config.ts). */
type Config = {
  collections?: Record<
    string,
    { path?: string; slugField: string; format?: unknown; schema: Fields }
  >;
  singletons?: Record<string, { path?: string; schema: Fields }>;
};
type Slug = { field: string; value: string };

/** An object field of these fields, as Keystatic's `fields.object` holds them. */
const asObject = (fields: Fields) => ({ kind: 'object', fields }) as ComponentSchema;

/** Keystatic reads a YAML null as a missing value. */
const stored = (value: unknown) => (value === null ? undefined : value);

/** One value as the editor parses, checks and writes it (undefined: left out of the file). */
export function serialise(field: ComponentSchema, raw: unknown, slug?: Slug, top = true): unknown {
  const value = stored(raw);
  if (field.kind === 'object') {
    if (value !== undefined && (typeof value !== 'object' || Array.isArray(value)))
      throw new Error('must be an object');
    const record = (value ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!(key in field.fields)) throw new Error(`Key on object value "${key}" is not allowed`);
    }
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(field.fields)) {
      const written =
        top && slug && key === slug.field
          ? slugValue(inner, record[key], slug.value)
          : serialise(inner, record[key], undefined, false);
      if (written !== undefined) out[key] = written;
    }
    return out;
  }
  if (field.kind === 'array') {
    if (value !== undefined && !Array.isArray(value)) throw new Error('must be a list');
    const items = (value as unknown[] | undefined) ?? [];
    const written = items.map((item) => serialise(field.element, item, undefined, false) ?? null);
    // A list with a `slugField` (hosts by id): each item's is checked against the others', as
    // Keystatic does.
    const key = (field as { slugField?: string }).slugField;
    if (key && field.element.kind === 'object') {
      const form = field.element.fields[key] as any;
      const slugs = written.map((item) => (item as Record<string, unknown>)[key] as string);
      slugs.forEach((slug, index) =>
        form.validate(slug, {
          slugField: { slugs: new Set(slugs.filter((_, other) => other !== index)), glob: '*' },
        }),
      );
    }
    return written;
  }
  if (field.kind === 'form' && (!field.formKind || field.formKind === 'slug')) {
    const form = field as any;
    const parsed = form.parse(value, undefined);
    form.validate(parsed, undefined);
    return form.serialize(parsed).value;
  }
  if (field.kind === 'form' && field.formKind === 'content') return undefined; // the MDX body
  throw new Error(`no serialiser here for ${field.kind}/${(field as any).formKind}`);
}

/** The slug field of a collection: read with the file's name, written with `serializeWithSlug`. */
function slugValue(field: ComponentSchema, value: unknown, slug: string): unknown {
  const form = field as any;
  const parsed = form.parse(stored(value), { slug });
  form.validate(parsed, { slugField: { slugs: new Set(), glob: '*' } });
  return form.serializeWithSlug(parsed).value;
}

/** What the editor writes for an entry's data: YAML as `dump` makes it. */
export const entryYaml = (fields: Fields, data: unknown, slug?: Slug) =>
  dump(serialise(asObject(fields), data, slug));

/** Keystatic's split of a file into front matter and body (`splitFrontmatter`). */
export function splitFrontMatter(text: string) {
  const match = /^---(?:\r?\n([^]*?))?\r?\n---\r?\n?/.exec(text);
  if (!match) return { data: '', body: text };
  return { data: match[1] ?? '', body: text.slice(match[0].length) };
}

/** Where a content file sits in the editor's config: its schema, and its slug when in a collection. */
export function entryOf(config: Config, path: string) {
  for (const [name, singleton] of Object.entries(config.singletons ?? {})) {
    if (`${singleton.path}.yaml` === path)
      return { kind: 'singleton' as const, name, fields: singleton.schema };
  }
  for (const [name, collection] of Object.entries(config.collections ?? {})) {
    const folder = collection.path!.replace(/\*$/, '');
    const match = new RegExp(`^${folder}([^/]+)\\.(mdx|yaml)$`).exec(path);
    if (!match) continue;
    return {
      kind: 'collection' as const,
      name,
      fields: collection.schema,
      slug: { field: collection.slugField, value: match[1]! },
      frontMatter: typeof collection.format === 'object' && 'contentField' in collection.format!,
    };
  }
  return undefined;
}

/** A file's data (its front matter, or the whole YAML file) and its body, as the editor reads them. */
export function readEntry(config: Config, path: string, text: string) {
  const entry = entryOf(config, path);
  if (!entry) throw new Error(`${path} is not edited in the visual editor`);
  if (entry.kind === 'collection' && entry.frontMatter) {
    const { data, body } = splitFrontMatter(text);
    return { data: load(data) as Record<string, unknown>, body };
  }
  return { data: load(text) as Record<string, unknown>, body: undefined };
}

/** What the editor writes for this file when its entry holds `data` (and an MDX body, `body`). */
export function writeEntry(config: Config, path: string, data: unknown, body?: string): string {
  const entry = entryOf(config, path);
  if (!entry) throw new Error(`${path} is not edited in the visual editor`);
  const slug = entry.kind === 'collection' ? entry.slug : undefined;
  if (entry.kind === 'collection' && entry.frontMatter)
    return `---\n${entryYaml(entry.fields, data, slug)}---\n${body ?? ''}`;
  return entryYaml(entry.fields, data, slug);
}

/**
 * What the editor writes for this file if it is opened and saved unchanged; throws (naming the field)
 * if the editor could not open it.
 */
export function editorText(config: Config, path: string, text: string): string {
  const { data, body } = readEntry(config, path, text);
  return writeEntry(config, path, data, body);
}
