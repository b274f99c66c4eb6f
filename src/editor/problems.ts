/**
 * A mistake inside an entry, told in the editor's words. Keystatic 0.6.9 refuses to save an entry
 * with a mistake inside a list item (a tile, a closed day, a data file's entry) but, once the item's
 * dialog is closed, says so nowhere: the item's row now carries the problem, after its label, and a
 * refused Save names the item and the field (src/editor/browser/tab.ts shows `describeProblem`).
 */
import type { ComponentSchema } from '@keystatic/core';
import { itemPosition, nameInPlace } from '../content-model/places.ts';

/** What Keystatic hands a list's `itemLabel`: a value's fields, as the editor holds them. */
export type Preview = {
  schema: ComponentSchema;
  value?: unknown;
  fields?: Record<string, Preview>;
  elements?: readonly Preview[];
};

/**
 * A problem that stops Save: `path`, the labels from the entry down to the field ("Tiles", "Cloud
 * backups", the tile's name, "Title"), and `message`, what the field's check says.
 */
export interface Problem {
  path: string[];
  message: string;
}

const labelOf = (schema: ComponentSchema): string | undefined =>
  (schema as { label?: unknown }).label === undefined
    ? undefined
    : String((schema as { label?: unknown }).label);

/** The values of an item as its row is told them: a text, or its fields' values. */
export const itemValue = (item: Preview): any =>
  item.fields
    ? Object.fromEntries(Object.entries(item.fields).map(([key, field]) => [key, field.value]))
    : item.value;

/** What a list's `itemLabel` carries besides its row's words: the item's name alone (./fields/). */
type Named = { nameOf?: (values: any) => unknown };

/**
 * An item of a list as staff know it: a group of fields by its name, the words its row shows
 * ("Symfony", a technology; "Cloud backups", a tile), else by its place ("12th technology"); an item
 * that is a text alone (a paragraph, a tag line) by its place. `values`, the item's values.
 */
export function itemName(list: ComponentSchema, index: number, values: unknown): string {
  const place = itemPosition(labelOf(list), index);
  if (list.kind !== 'array' || list.element.kind !== 'object' || values === undefined) return place;
  const nameOf = ((list as { itemLabel?: Named }).itemLabel as Named | undefined)?.nameOf;
  let name = '';
  try {
    name = nameOf ? String(nameOf(values) ?? '') : '';
  } catch {
    name = ''; // values this list's words cannot read: its place, then
  }
  return nameInPlace(name) || place;
}

/**
 * A collection's entry names: its address field (`field`) and the other entries' addresses, which
 * that field must not take (Keystatic's `slugInfo`, handed to its check as `slugField`).
 */
export interface SlugInfo {
  field: string;
  slugs: ReadonlySet<string>;
  glob: string;
}

/**
 * The first problem that would stop Save, as Keystatic's own check finds it, or undefined. With an
 * entry's `slug`, its address field is checked against the other entries' addresses, as Save does
 * (a field is handed `slug` only if it is that field).
 */
export function firstProblem(
  preview: Preview,
  path: readonly string[] = [],
  slug?: SlugInfo,
): Problem | undefined {
  const { schema } = preview;
  const label = labelOf(schema);
  const here = label === undefined ? [...path] : [...path, label];
  const problem = (message: string) => ({ path: here, message });
  if (schema.kind === 'form') {
    try {
      (schema.validate as (value: unknown, extra?: unknown) => unknown)(
        preview.value,
        slug && { slugField: slug },
      );
      return undefined;
    } catch (error) {
      return problem((error as Error).message);
    }
  }
  if (schema.kind === 'object') {
    for (const [name, field] of Object.entries(preview.fields ?? {})) {
      const found = firstProblem(field, here, name === slug?.field ? slug : undefined);
      if (found) return found;
    }
    return undefined;
  }
  if (schema.kind === 'array') {
    const elements = preview.elements ?? [];
    const { min, max } = schema.validation?.length ?? {};
    if (min !== undefined && elements.length < min) return problem(`${label}: at least ${min}`);
    if (max !== undefined && elements.length > max) return problem(`${label}: at most ${max}`);
    const item = (index: number) => [
      ...here,
      itemName(schema, index, elements[index] && itemValue(elements[index])),
    ];
    for (const [index, element] of elements.entries()) {
      // An item is an object whose own label is the list's: its fields' labels follow its place.
      const found = firstProblem({ ...element, schema: withoutLabel(element.schema) }, item(index));
      if (found) return found;
    }
    // A list whose items' ids must differ (hosts): each id against the others', as Save checks it.
    // An item's own row cannot see the others: the row of what holds the list says it.
    const slugField = (schema as { slugField?: string }).slugField;
    if (slugField) {
      const ids = elements.map((element) => element.fields?.[slugField]);
      for (const [index, id] of ids.entries()) {
        if (!id) continue;
        const others = new Set(ids.filter((_, other) => other !== index).map((o) => o?.value));
        try {
          (id.schema as { validate(value: unknown, extra: unknown): unknown }).validate(id.value, {
            slugField: { slugs: others, glob: '*' },
          });
        } catch (error) {
          const idLabel = labelOf(id.schema);
          return {
            path: idLabel === undefined ? item(index) : [...item(index), idLabel],
            message: (error as Error).message,
          };
        }
      }
    }
  }
  return undefined;
}

const withoutLabel = (schema: ComponentSchema): ComponentSchema =>
  schema.kind === 'object' ? ({ ...schema, label: undefined } as ComponentSchema) : schema;

/**
 * A problem as one line: its path, then its message without the field's label when the message
 * starts with it ("Tiles → 3rd tile → Title: must be 3-40 characters").
 */
export function describeProblem({ path, message }: Problem): string {
  const field = path.at(-1);
  let text = message;
  if (field && text.startsWith(field)) text = text.slice(field.length).replace(/^[\s:]+/, '');
  return path.length ? `${path.join(' → ')}: ${text}` : text;
}

/** A list's item label, followed by the item's first problem when it has one. */
export const flagged =
  <Props>(label: (props: Props) => string) =>
  (props: Props): string => {
    const problem = firstProblem(props as Preview);
    return problem ? `${label(props)} — needs fixing: ${problem.message}` : label(props);
  };
