/**
 * Where a field of a content file is in the visual editor, in the words staff see there:
 * `src/content/pages/home.yaml` and `sections.0.items.0.links.1.href` are "Page copy → home →
 * Sections → Our services → Items → Web apps → Links → Laravel → Link" (each item by its name, or
 * "1st section" when the file's values are not known or it has none). Made from the content model,
 * as the editor's schema is (src/editor/schema.ts), so that the site's build, its dev server and the
 * editor name a place alike, and none of them loads the editor to do it.
 */
import type { FolderModel, ListFileModel } from './collections.ts';
import type { Field, Fields, GroupField, ListField } from './fields.ts';
import { contentModel, type ContentModel } from './index.ts';
import { entryId } from './shared.ts';

/** "1st", "2nd", "3rd", "4th", "11th", "21st". */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** One item of a list, from the list's label: "Tiles" → "tile", "Categories" → "category". */
export function itemNoun(listLabel: string): string {
  const words = listLabel.trim().toLowerCase();
  if (/[^aeiou]ies$/.test(words)) return `${words.slice(0, -3)}y`;
  if (/(?:ss|sh|ch|x)es$/.test(words)) return words.slice(0, -2);
  if (/[^s]s$/.test(words)) return words.slice(0, -1);
  return 'item';
}

/** An item of a list by its position: "3rd tile", "12th technology". */
export const itemPosition = (listLabel: string | undefined, index: number) =>
  `${ordinal(index + 1)} ${itemNoun(listLabel ?? '')}`;

/** A name shortened to what a line of a message can hold: "Cloud hosting and backups for…". */
const shortName = (name: string, max = 40) => {
  const line = name.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : max).trimEnd()}…`;
};

/**
 * An item's name as a place says it: shortened, and quoted when it holds an arrow of its own (a
 * redirect's “/old → /new”) among the place's arrows; '' for none.
 */
export function nameInPlace(words: string, max?: number): string {
  const name = shortName(words, max);
  return name.includes('→') ? `“${name}”` : name;
}

/** The words a list's row gives an item (`itemLabel`), or '' when it has none for these values. */
export function itemWords(list: ListField, item: unknown): string {
  try {
    return list.itemLabel ? String(list.itemLabel(item as never) ?? '').trim() : '';
  } catch {
    return ''; // values the row's words cannot read (a field left out)
  }
}

/** A weekday's key as the editor labels its line: 'monday' → "Monday". */
export const dayLabel = (day: string) => day.charAt(0).toUpperCase() + day.slice(1);

/** A content file as the editor shows it: where, and the fields of its entry or entries. */
export interface FileShape {
  /** The collection's or the list file's label: "Service pages", "Technologies". */
  label: string;
  /** A folder's entry: its file's name ("iphone"). */
  entry?: string;
  /** A folder entry's fields as one group; a list file's entries as one list. */
  root: GroupField | ListField;
  /** An MDX file: the key of the text below its front matter. */
  body?: string;
}

/** The shape of `file` (from the project's root) in `model`, or undefined if the editor has no such file. */
export function fileShape(file: string, model: ContentModel = contentModel): FileShape | undefined {
  for (const collection of Object.values(model) as (FolderModel | ListFileModel)[]) {
    if (collection.kind === 'folder') {
      const name = file.slice(collection.folder.length + 1);
      if (
        !file.startsWith(`${collection.folder}/`) ||
        name.includes('/') ||
        !name.endsWith(`.${collection.extension}`)
      )
        continue;
      const body = Object.keys(collection.fields).find(
        (k) => collection.fields[k]!.kind === 'body',
      );
      return {
        label: collection.label,
        entry: name.slice(0, -collection.extension.length - 1),
        root: { kind: 'group', fields: collection.fields },
        ...(body && { body }),
      };
    }
    if (collection.file !== file) continue;
    const fields: Fields = collection.ids
      ? { id: entryId, ...collection.fields }
      : collection.fields;
    const root: ListField = {
      kind: 'list',
      label: collection.label,
      of: { kind: 'group', fields },
      itemLabel: (entry) => collection.itemLabel(entry as never),
    };
    return { label: collection.label, root };
  }
  return undefined;
}

/** A value's part by its key, if the value has it. */
const partOf = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;

/**
 * An item as a place names it: by its row's words ("Symfony"), else by its position ("12th
 * technology"). A text alone (a tag line) is named by its position.
 */
function itemName(list: ListField, index: number, item: unknown): string {
  const words = list.of.kind === 'group' && item !== undefined ? itemWords(list, item) : '';
  return nameInPlace(words) || itemPosition(list.label, index);
}

/**
 * The labels along `path` inside one field, one a key; `value`, the field's value when known.
 * A group the editor shows as fields of its own (a required week: a line a day) goes on; any other
 * field holds its parts itself (a hero's button, an illustration): it is the place.
 */
function walk(field: Field | undefined, path: readonly string[], value?: unknown): string[] {
  const [key, ...rest] = path;
  if (key === undefined) return [];
  if (!field) return [...path];
  if (field.kind === 'list') {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0) return [...path];
    const item = partOf(value, key);
    // An item's own label would be the list's: only its fields follow its name.
    const within =
      field.of.kind === 'group'
        ? walkFields(field.of.fields, rest, item)
        : walk(field.of, rest, item);
    return [itemName(field, index, item), ...within];
  }
  if (field.kind === 'group') return walkFields(field.fields, path, value);
  if (field.kind === 'week' && !field.optional)
    return field.days.includes(key) ? [dayLabel(key)] : [...path];
  return [];
}

/** A group's field by its label (a group without one, and a key the model does not know: the key). */
function walkFields(fields: Fields, path: readonly string[], value?: unknown): string[] {
  const [key, ...rest] = path;
  if (key === undefined) return [];
  const field = fields[key];
  return [field?.label || key, ...walk(field, rest, partOf(value, key))];
}

/**
 * The place of `contentPlace`, part by part: the collection's label and the entry, or the list
 * file's label, then the field's labels and items (`within`, how many parts name the entry).
 */
export function contentPlaceParts(
  file: string,
  fieldPath: string,
  data?: unknown,
  model: ContentModel = contentModel,
): (string[] & { within: number }) | undefined {
  const shape = fileShape(file, model);
  if (!shape) return undefined;
  const path = fieldPath.split('.').filter(Boolean);
  const parts = (entry: string[], rest: string[]) =>
    Object.assign([...entry, ...rest], { within: entry.length });
  if (shape.root.kind === 'group')
    return parts([shape.label, shape.entry!], walkFields(shape.root.fields, path, data));
  // A list file: its one list, `entries`, has the file's label; said once.
  const [list, ...rest] = path;
  return parts(
    [shape.label],
    list === 'entries' ? walk(shape.root, rest, partOf(data, list)) : [...path],
  );
}

/**
 * The place of a field in the editor, as staff find it: the collection or the list file, the entry,
 * then each label, and each list item by its name (its place, from 1, when it has none). `fieldPath`
 * is the file's ('sections.0.title'; a list file's 'entries.3.href'); `data`, the file's values as
 * far as known (a list file's `{ entries }`), which name the items; undefined for a file the editor
 * does not show.
 */
export function contentPlace(
  file: string,
  fieldPath: string,
  data?: unknown,
  model: ContentModel = contentModel,
): string | undefined {
  return contentPlaceParts(file, fieldPath, data, model)?.join(' → ');
}
