/**
 * Two versions of one entry, field by field: the marketer's, which a Save was refused for because
 * the file changed since they opened it (dev-server/save-check.ts), and the file as it is now. Which
 * fields differ, who changed each since the version both began from, and the file that keeping
 * some fields of each makes, written as the editor writes it (./format.ts). The editor's tab shows
 * them (browser/conflict-view.ts); the labels are the editor's own (src/content-model/places.ts).
 */
import { entryOf, readEntry, writeEntry } from './format.ts';
import { contentPlace } from '../content-model/places.ts';
import editorConfig from './schema.ts';

export type Side = 'mine' | 'theirs';
/** Where a field is: `['data', 'hero', 'description']`, `['body']`, or `['file']` (its name). */
export type FieldPath = readonly (string | number)[];

export interface Difference {
  path: FieldPath;
  /** Its place in the entry, in the editor's words ("Hero → Hero text"). */
  label: string;
  mine: unknown;
  theirs: unknown;
  /** Who changed it since the version both began from; 'both' when that version is not known. */
  changedBy: Side | 'both';
}

/** A version of the entry: its file's path and text. */
export interface Version {
  path: string;
  text: string;
}

type Config = Parameters<typeof entryOf>[0];
const config = editorConfig as unknown as Config;

type Entry = { file?: string; data: Record<string, unknown>; body?: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Equal as values: YAML's key order aside. */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => same(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => same(a[key], b[key]));
  }
  // A value left out and an empty one are the same to the editor.
  const empty = (value: unknown) => value === undefined || value === null || value === '';
  return empty(a) && empty(b);
}

/** The name a file of a collection has ('ipad' of src/content/services/ipad.mdx). */
const nameOf = (path: string) => {
  const entry = entryOf(config, path);
  return entry?.kind === 'collection' ? entry.slug.value : undefined;
};

/** The slug field of the file's collection, when the file holds it (a service page's `slug`). */
const slugKey = (path: string) => {
  const entry = entryOf(config, path);
  return entry?.kind === 'collection' ? entry.slug.field : undefined;
};

function read(version: Version): Entry {
  const { data, body } = readEntry(config, version.path, version.text);
  return { data: data ?? {}, body, file: nameOf(version.path) };
}

/** The value at a field's place, or undefined. */
function at(entry: Entry | undefined, path: FieldPath): unknown {
  let value: unknown = entry;
  for (const key of path) {
    if (Array.isArray(value) && typeof key === 'number') value = value[key];
    else if (isRecord(value)) value = value[String(key)];
    else return undefined;
  }
  return value;
}

/** An item's identity in a list: its `id`, if it has one. */
const idOf = (item: unknown) => (isRecord(item) && typeof item.id === 'string' ? item.id : item);

/** Two lists whose items are the same items, in the same order: compared item by item. */
const sameItems = (a: unknown[], b: unknown[]) =>
  a.length === b.length && a.every((item, i) => !isRecord(item) || idOf(item) === idOf(b[i]));

/** The places where two values differ: as deep as both are records, or lists of the same items. */
function differing(a: unknown, b: unknown, path: FieldPath, found: FieldPath[]) {
  if (same(a, b)) return;
  if (isRecord(a) && isRecord(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
      differing(a[key], b[key], [...path, key], found);
  } else if (Array.isArray(a) && Array.isArray(b) && sameItems(a, b)) {
    a.forEach((item, i) => differing(item, b[i], [...path, i], found));
  } else found.push(path);
}

/** A field's place in the entry as the editor names it, without the entry's own name. */
export function fieldLabel(file: string, path: FieldPath): string {
  const entry = contentPlace(file, '') ?? file;
  const [part, ...rest] = path;
  const collection = config.collections?.[entryOf(config, file)?.name ?? ''];
  if (part === 'file') {
    const field = collection?.schema[collection.slugField] as { label?: string } | undefined;
    return field?.label ?? 'Name';
  }
  const body = (collection?.format as { contentField?: string } | undefined)?.contentField;
  const keys = part === 'body' ? [body ?? 'body'] : rest;
  const place = contentPlace(file, keys.join('.')) ?? keys.join(' → ');
  return place.startsWith(`${entry} → `) ? place.slice(entry.length + 3) : place;
}

/**
 * The fields in which the marketer's version and the file now differ. `base`, the version the
 * marketer began from (when the history has it), tells who changed each.
 */
export function differences(mine: Version, theirs: Version, base?: Version): Difference[] {
  const [ours, other] = [read(mine), read(theirs)];
  let start: Entry | undefined;
  try {
    start = base && read(base);
  } catch {
    start = undefined; // a version the editor could not open: who changed what is not known
  }
  const found: FieldPath[] = [];
  differing(ours.data, other.data, ['data'], found);
  differing(ours.body, other.body, ['body'], found);
  // A file named by its entry's name (not a field of the file): its name is a field too.
  const key = slugKey(mine.path);
  if (ours.file !== other.file && !(key && (key in ours.data || key in other.data)))
    found.push(['file']);
  return found.map((path) => {
    const [m, t] = [at(ours, path), at(other, path)];
    const changed = (value: unknown) => !start || !same(at(start, path), value);
    const [byMe, byThem] = [changed(m), changed(t)];
    return {
      path,
      label: fieldLabel(mine.path, path),
      mine: m,
      theirs: t,
      changedBy: byMe && !byThem ? 'mine' : byThem && !byMe ? 'theirs' : 'both',
    };
  });
}

/** The side a difference is best kept from: the one that changed it, else the marketer's. */
export const suggested = (difference: Difference): Side =>
  difference.changedBy === 'theirs' ? 'theirs' : 'mine';

/** A field's key, for the choices made. */
export const keyOf = (path: FieldPath) => JSON.stringify(path);

function put(entry: Entry, path: FieldPath, value: unknown) {
  let parent: unknown = entry;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string, unknown>)[String(key)];
  const last = path.at(-1)!;
  if (Array.isArray(parent)) parent[Number(last)] = value;
  else if (value === undefined) delete (parent as Record<string, unknown>)[String(last)];
  else (parent as Record<string, unknown>)[String(last)] = value;
}

/**
 * The file that keeps each field from the side chosen for it (`choices`, by `keyOf`; a field not
 * chosen keeps the suggested side): the marketer's or the other's text as it is when every field
 * comes from it, else the editor's writing of the mix. Its path is the other's when its name (the
 * page address) is kept from the other.
 */
export function merged(
  mine: Version,
  theirs: Version,
  found: readonly Difference[],
  choices: ReadonlyMap<string, Side>,
): Version {
  const side = (d: Difference) => choices.get(keyOf(d.path)) ?? suggested(d);
  if (found.every((d) => side(d) === 'mine')) return mine;
  if (found.every((d) => side(d) === 'theirs')) return theirs;
  const result = structuredClone(read(mine));
  const other = read(theirs);
  for (const d of found) if (side(d) === 'theirs') put(result, d.path, at(other, d.path));
  const key = slugKey(mine.path);
  const named = found.find(
    (d) => keyOf(d.path) === keyOf(['file']) || keyOf(d.path) === keyOf(['data', key ?? '']),
  );
  const path = named && side(named) === 'theirs' ? theirs.path : mine.path;
  return { path, text: writeEntry(config, path, result.data, result.body) };
}

/** The editor's address of an entry's file (its page in Keystatic), if it is an entry's. */
export function editorAddress(path: string): string | undefined {
  const entry = entryOf(config, path);
  if (entry?.kind === 'collection')
    return `/keystatic/collection/${entry.name}/item/${entry.slug.value}`;
  if (entry?.kind === 'singleton') return `/keystatic/singleton/${entry.name}`;
  return undefined;
}
