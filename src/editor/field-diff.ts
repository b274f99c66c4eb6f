/**
 * What changed between two versions of a content file, field by field, in the editor's own words:
 * "Service name", "Hero → Hero text", "Tiles → Mobile apps → Title", each with its text before and
 * after, rather than YAML lines. Read from the content model (src/content-model/), which holds each
 * field's label as the editor shows it (./fields/ makes the editor's fields from the same
 * declarations) and how each list names its items, so that an item is named as its row in the
 * editor is ("Symfony"), not by its position.
 *
 * Plain code over js-yaml and the model: the History pages use it in the dev server
 * (./dev-server/history/), and the editor's tab may use it too.
 */
import { load } from 'js-yaml';
import type { Field, Fields, ListField } from '../content-model/fields.ts';
import type { ContentModel } from '../content-model/index.ts';
import {
  dayLabel,
  fileShape,
  itemPosition,
  itemWords,
  nameInPlace,
  type FileShape,
} from '../content-model/places.ts';

export interface FieldChange {
  /** Where the field is, in the editor's labels, from the entry down: ['Hero', 'Hero text']. */
  place: string[];
  /**
   * `changed`: a field's value; `added`, `removed`: an item of a list (`place` ends with its name);
   * `order`: the items of the list at `place` were put in another order.
   */
  kind: 'changed' | 'added' | 'removed' | 'order';
  /** The text before, as the editor shows it; '' for none. */
  before: string;
  after: string;
}

export interface DiffOptions {
  /** The words of a fixed list's option (a service page's group: "Mobile, native"). */
  optionName?: (field: Field, option: string) => string | undefined;
  /** The content model: the site's, or a test's. */
  model?: ContentModel;
}

/** A file's text as its fields: YAML, or an MDX file's front matter and the text below it. */
function read(text: string | undefined, shape: FileShape): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  if (!shape.body) return load(text);
  const front = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  const data = (front ? load(front[1]!) : {}) ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error('not an object');
  const body = (front ? text.slice(front[0].length) : text).trim();
  return { ...(data as object), ...(body && { [shape.body]: body }) };
}

/**
 * What changed from `before` to `after`, two texts of `file` (undefined: no such version), field
 * by field in the order of the editor's form. A file the model does not know, or a text that is
 * not one the editor could have written, is one change: the whole text.
 */
export function fieldChanges(
  file: string,
  before: string | undefined,
  after: string | undefined,
  options: DiffOptions = {},
): FieldChange[] {
  if ((before ?? '') === (after ?? '')) return [];
  const shape = fileShape(file, options.model);
  const whole = (): FieldChange[] => [
    { place: ['The whole text'], kind: 'changed', before: before ?? '', after: after ?? '' },
  ];
  if (!shape) return whole();
  let values: [unknown, unknown];
  try {
    values = [read(before, shape), read(after, shape)];
  } catch {
    return whole();
  }
  const out: FieldChange[] = [];
  const walk = new Walk(options, out);
  if (shape.root.kind === 'list') {
    const entries = (value: unknown) => (value as { entries?: unknown } | undefined)?.entries;
    walk.list(shape.root, entries(values[0]), entries(values[1]), [], 'id');
  } else walk.field(shape.root, undefined, values[0], values[1], []);
  return out;
}

/** A change's name, as a list of changes says it: "Hero → Hero text", "Tiles → Mobile apps (added)". */
export function changeName(change: FieldChange): string {
  const place = change.place.join(' → ');
  const what = { changed: '', added: ' (added)', removed: ' (removed)', order: ' (new order)' };
  return `${place}${what[change.kind]}`;
}

/** The fields a version changed, in a few words: "Service name, Hero → Hero text". */
export function changedFields(changes: readonly FieldChange[], most = 6): string {
  const names = [...new Set(changes.map(changeName))];
  if (names.length <= most) return names.join(', ');
  return `${names.slice(0, most - 1).join(', ')} and ${names.length - most + 1} more`;
}

/** Two values the same, whatever the order of their keys. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (empty(a) && empty(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) =>
    same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** What the editor leaves out of a file: nothing, or an empty text. */
const empty = (value: unknown) => value === undefined || value === null || value === '';

/** A value's key for telling list items apart: the same for the same item, whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((key) => !empty((value as Record<string, unknown>)[key]))
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return empty(value) ? '' : JSON.stringify(value);
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** The pairs of positions of the longest common run of two lists of keys, in order. */
function commonRun(a: readonly string[], b: readonly string[]): [number, number][] {
  // Lists of a content file are short (tiles, entries); a list too long is paired by position.
  if (a.length * b.length > 250_000) return [];
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i]![j] =
        a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** Which item of the list before is which item after: pairs, and the items only on one side. */
function match(before: unknown[], after: unknown[], key: (item: unknown) => string | undefined) {
  const pairs: [number, number][] = [];
  const keyed = before.every((item) => key(item)) && after.every((item) => key(item));
  if (keyed) {
    // By their ids: an item keeps its id whatever else changes.
    const at = new Map(after.map((item, j) => [key(item)!, j]));
    before.forEach((item, i) => {
      const j = at.get(key(item)!);
      if (j !== undefined) pairs.push([i, j]);
    });
  } else {
    const a = before.map(canonical);
    const b = after.map(canonical);
    const common = commonRun(a, b);
    const used = { a: new Set(common.map(([i]) => i)), b: new Set(common.map(([, j]) => j)) };
    // An item the same on both sides but out of the common run: moved.
    for (let i = 0; i < a.length; i++) {
      if (used.a.has(i)) continue;
      const j = b.findIndex((k, index) => k === a[i] && !used.b.has(index));
      if (j < 0) continue;
      pairs.push([i, j]);
      used.a.add(i);
      used.b.add(j);
    }
    // Between two items kept, the others are paired in turn: an item edited where it stands.
    const anchors: [number, number][] = [[-1, -1], ...common, [a.length, b.length]];
    for (let k = 0; k + 1 < anchors.length; k++) {
      const [ai, bj] = anchors[k]!;
      const [an, bn] = anchors[k + 1]!;
      const left = range(ai + 1, an).filter((i) => !used.a.has(i));
      const right = range(bj + 1, bn).filter((j) => !used.b.has(j));
      for (let n = 0; n < Math.min(left.length, right.length); n++) {
        pairs.push([left[n]!, right[n]!]);
        used.a.add(left[n]!);
        used.b.add(right[n]!);
      }
    }
    pairs.push(...common);
  }
  const paired = { a: new Set(pairs.map(([i]) => i)), b: new Set(pairs.map(([, j]) => j)) };
  return {
    pairs: pairs.sort((x, y) => x[1] - y[1]),
    removed: range(0, before.length).filter((i) => !paired.a.has(i)),
    added: range(0, after.length).filter((j) => !paired.b.has(j)),
  };
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

/** The editor's words for a hero's button (./fields/button/ui.tsx). */
function buttonWords(value: unknown): string {
  if (value === 'inquire') return 'Inquire Now (external contact page)';
  if (value === 'none') return 'No button';
  const { text, href } = asRecord(value);
  return `A link on this site: ${String(text ?? '')} (${String(href ?? '')})`;
}

/** The walk through two values of one field, writing what differs to `out`. */
class Walk {
  readonly options: DiffOptions;
  readonly out: FieldChange[];
  constructor(options: DiffOptions, out: FieldChange[]) {
    this.options = options;
    this.out = out;
  }

  /** A field under `place`, by its `label` (none: a group without a label of its own). */
  field(
    field: Field | undefined,
    label: string | undefined,
    a: unknown,
    b: unknown,
    place: string[],
  ) {
    if (same(a, b)) return;
    const here = label === undefined ? place : [...place, label];
    switch (field?.kind) {
      case 'group':
        return this.fields(field.fields, a, b, field.label === undefined ? place : here);
      case 'list':
        return this.list(field, a, b, here);
      case 'illustration':
        return this.fields(illustrationParts, a, b, here);
      case 'week': {
        const days = Object.fromEntries(
          field.days.map((day) => [day, { kind: 'line', label: dayLabel(day) } as Field]),
        );
        return this.fields(days, a, b, here);
      }
      default:
        this.out.push({
          place: here.length ? here : ['The whole text'],
          kind: 'changed',
          before: this.show(field, a),
          after: this.show(field, b),
        });
    }
  }

  /** The fields of a group, in the form's order, then any the model does not know, as named. */
  fields(fields: Fields, a: unknown, b: unknown, place: string[]) {
    const [ra, rb] = [asRecord(a), asRecord(b)];
    const unknown = [...new Set([...Object.keys(ra), ...Object.keys(rb)])].filter(
      (key) => !Object.hasOwn(fields, key),
    );
    for (const [key, field] of Object.entries(fields))
      this.field(
        field,
        field.label ?? (field.kind === 'group' ? undefined : key),
        ra[key],
        rb[key],
        place,
      );
    for (const key of unknown) this.field(undefined, key, ra[key], rb[key], place);
  }

  /** A list's items, matched by their id (`idKey`), else by their content and position. */
  list(field: ListField, a: unknown, b: unknown, place: string[], idKey?: string) {
    const [before, after] = [asArray(a), asArray(b)];
    const of = field.of;
    const key =
      idKey ??
      (of.kind === 'group'
        ? Object.keys(of.fields).find((k) => of.fields[k]!.kind === 'uniqueId')
        : undefined);
    const idOf = (item: unknown) => {
      const id = key ? asRecord(item)[key] : undefined;
      return typeof id === 'string' && id ? id : undefined;
    };
    const { pairs, removed, added } = match(before, after, idOf);
    const name = (item: unknown, index: number) => this.itemName(field, item, index);
    for (const [i, j] of pairs) {
      if (same(before[i], after[j])) continue;
      // A list of texts: the item is its text, so a changed one is named by its position.
      const itemPlace =
        of.kind === 'group'
          ? [...place, name(after[j], j) || name(before[i], i)]
          : [...place, itemPosition(field.label, j)];
      this.field(of, undefined, before[i], after[j], itemPlace);
    }
    for (const j of added)
      this.out.push({
        place: [...place, name(after[j], j)],
        kind: 'added',
        before: '',
        after: this.show(of, after[j]),
      });
    for (const i of removed)
      this.out.push({
        place: [...place, name(before[i], i)],
        kind: 'removed',
        before: this.show(of, before[i]),
        after: '',
      });
    const order = pairs.map(([i]) => i);
    if (order.some((i, n) => n > 0 && i < order[n - 1]!))
      this.out.push({
        place: place.length ? place : [field.label ?? 'Entries'],
        kind: 'order',
        before: pairs
          .slice()
          .sort((x, y) => x[0] - y[0])
          .map(([i]) => name(before[i], i))
          .join(', '),
        after: pairs.map(([, j]) => name(after[j], j)).join(', '),
      });
  }

  /** An item as its row in the editor names it, else by its position: "Symfony", "3rd tile". */
  itemName(field: ListField, item: unknown, index: number): string {
    // History's lists of changes hold longer names than a message's line.
    return nameInPlace(itemWords(field, item), 60) || itemPosition(field.label, index);
  }

  /** A value as the editor shows it, as text: '' for none. */
  show(field: Field | undefined, value: unknown): string {
    if (empty(value)) return '';
    switch (field?.kind) {
      case 'checkbox':
        return value ? 'Ticked' : 'Not ticked';
      case 'select':
      case 'oneOf':
        return this.options.optionName?.(field, String(value)) ?? String(value);
      case 'someOf':
      case 'line':
        return asArray(value).map(String).join(', ');
      case 'button':
        return buttonWords(value);
      case 'list':
        return asArray(value)
          .map((item, index) =>
            field.of.kind === 'group'
              ? this.itemName(field, item, index)
              : this.show(field.of, item),
          )
          .join(field.of.kind === 'group' ? ', ' : '\n');
      case 'group':
        return this.lines(field.fields, value);
      case 'illustration':
        return this.lines(illustrationParts, value);
      default:
        if (Array.isArray(value)) return value.map((item) => this.show(undefined, item)).join(', ');
        if (typeof value === 'object') return this.lines({}, value);
        return String(value);
    }
  }

  /** A group's values, a line each: "Title: Mobile apps". */
  lines(fields: Fields, value: unknown): string {
    const record = asRecord(value);
    const keys = [
      ...Object.keys(fields),
      ...Object.keys(record).filter((key) => !Object.hasOwn(fields, key)),
    ];
    return keys
      .map((key) => {
        const field = fields[key];
        const shown = this.show(field, record[key]);
        return shown && `${field?.label ?? key}: ${shown.replace(/\n/g, '; ')}`;
      })
      .filter(Boolean)
      .join('\n');
  }
}

/** An illustration's two parts, as its field shows them (./fields/illustration/ui.tsx). */
const illustrationParts: Fields = {
  image: { kind: 'image', label: 'Image', folder: 'illustrations' },
  alt: { kind: 'text', label: 'Alt text' },
};

/** A part of a text, and whether it differs from the other text's. */
export interface TextPart {
  text: string;
  changed: boolean;
}

/**
 * Two texts cut into the words they share and the words only one has: what to mark in a long
 * text that changed a little ("a sentence added"). Texts too long to compare are each one part.
 */
export function textParts(
  before: string,
  after: string,
): { before: TextPart[]; after: TextPart[] } {
  const words = (text: string) => text.match(/\s+|[^\s]+/g) ?? [];
  const [a, b] = [words(before), words(after)];
  const common = a.length * b.length > 250_000 ? [] : commonRun(a, b);
  const parts = (tokens: string[], kept: Set<number>) => {
    const out: TextPart[] = [];
    tokens.forEach((text, index) => {
      const changed = !kept.has(index) && text.trim() !== '';
      const last = out.at(-1);
      // Spaces go with the words around them.
      if (last && (last.changed === changed || text.trim() === '')) last.text += text;
      else out.push({ text, changed });
    });
    return out;
  };
  return {
    before: parts(a, new Set(common.map(([i]) => i))),
    after: parts(b, new Set(common.map(([, j]) => j))),
  };
}
