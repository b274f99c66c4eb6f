/**
 * Where a field of a content file is in the editor, in the words staff see there:
 * `src/content/pages/home.yaml` and `sections.0.items.0.links.1.href` are "Page copy → home →
 * Sections → Our services → Items → Web apps → Links → Laravel → Link" (each item by its name, or
 * "1st section" when the file's values are not known or it has none). Read from the editor's own
 * schema (./schema.ts), so it stays true when a label changes.
 *
 * Only the error path loads this file (src/lib/content.ts imports it lazily, in `astro dev` and in a
 * build that fails), so that pages, the build's good path and the production server never load
 * Keystatic or the editor's field code: a second, plain table of labels would have to be kept in
 * step with the schema by hand.
 */
import type { ComponentSchema } from '@keystatic/core';
import editorConfig from './schema.ts';
import { itemName } from './problems.ts';

type Fields = Record<string, ComponentSchema>;
interface Place {
  label: string;
  /** The folder (a collection: 'src/content/pages/') or the file without extension (a singleton). */
  path: string;
  many: boolean;
  schema: Fields;
}

/** The editor's collections and singletons, where each keeps its files. */
const places = (config: typeof editorConfig): Place[] => [
  ...Object.values(config.collections ?? {}).map((collection) => ({
    label: collection.label,
    path: (collection.path ?? '').replace(/\*.*$/, ''),
    many: true,
    schema: collection.schema as Fields,
  })),
  ...Object.values(config.singletons ?? {}).map((singleton) => ({
    label: singleton.label,
    path: singleton.path ?? '',
    many: false,
    schema: singleton.schema as Fields,
  })),
];

/** A key the editor has no label for (an unknown key, a part of a custom field): as written. */
const fieldLabel = (field: ComponentSchema | undefined, key: string) =>
  (field && 'label' in field && typeof field.label === 'string' && field.label) || key;

/** A value's part by its key, if the value has it. */
const partOf = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;

/**
 * The labels along a field path inside one field; `value`, the field's value when known, names a
 * list's items ("Symfony" rather than "12th technology").
 */
function walk(
  field: ComponentSchema | undefined,
  path: readonly string[],
  value?: unknown,
): string[] {
  const [key, ...rest] = path;
  if (key === undefined || !field) return path.length ? [...path] : [];
  if (field.kind === 'array') {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0) return [...path];
    const item = partOf(value, key);
    return [itemName(field, index, item), ...walkInto(field.element, rest, item)];
  }
  if (field.kind === 'object') return walkFields(field.fields, path, value);
  // A custom field (a hero's button, opening hours) holds its parts itself: it is the place.
  return [];
}

/** An array's item: its own label is the item's name, said already; only its fields follow. */
const walkInto = (element: ComponentSchema, path: readonly string[], value: unknown) =>
  element.kind === 'object' ? walkFields(element.fields, path, value) : walk(element, path, value);

function walkFields(fields: Fields, path: readonly string[], value?: unknown): string[] {
  const [key, ...rest] = path;
  if (key === undefined) return [];
  const field = fields[key];
  return [fieldLabel(field, key), ...walk(field, rest, partOf(value, key))];
}

/**
 * The place of a field in the editor, as staff find it: the collection or the list file, the entry,
 * then each label, and each list item by its name (its place, from 1, when it has none). `fieldPath`
 * is the file's ('sections.0.title'; a list file's 'entries.3.href'); `data`, the file's values as
 * far as known (a list file's `{ entries }`), which name the items; undefined for a file the editor
 * does not show.
 */
export function editorPlace(
  file: string,
  fieldPath: string,
  config: typeof editorConfig = editorConfig,
  data?: unknown,
): string | undefined {
  return editorPlaceParts(file, fieldPath, config, data)?.join(' → ');
}

/**
 * The place of `editorPlace`, part by part: the collection's label and the entry, or the list
 * file's label, then the field's labels and items (`within`, how many parts name the entry).
 */
export function editorPlaceParts(
  file: string,
  fieldPath: string,
  config: typeof editorConfig = editorConfig,
  data?: unknown,
): (string[] & { within: number }) | undefined {
  const path = fieldPath.split('.').filter(Boolean);
  const parts = (entry: string[], rest: string[]) =>
    Object.assign([...entry, ...rest], { within: entry.length });
  for (const place of places(config)) {
    if (place.many && file.startsWith(place.path)) {
      const entry = file.slice(place.path.length).replace(/\.[^./]+$/, '');
      if (entry.includes('/')) continue;
      return parts([place.label, entry], walkFields(place.schema, path, data));
    }
    if (!place.many && file.replace(/\.[^./]+$/, '') === place.path) {
      // A list file: its one list, `entries`, has the file's label; said once.
      const [list, ...rest] = path;
      const entries = list ? place.schema[list] : undefined;
      const within = entries
        ? walk(entries, rest, partOf(data, list!))
        : walkFields(place.schema, path, data);
      return parts([place.label], within);
    }
  }
  return undefined;
}
