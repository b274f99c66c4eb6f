/**
 * A field of the content model (src/content-model/) as the editor shows it: Keystatic's own field
 * where it writes the file's shape and refuses what the site refuses, otherwise the kind's folder
 * here, as Keystatic lays out its own (`index.tsx` the field, `ui.tsx` its widget, `validate.ts` its
 * check and its words; a check the site's schema runs too is the domain's, handed in).
 */
import { fields, type ComponentSchema } from '@keystatic/core';
import type { Field, Fields, ListField, PatternField } from '../../content-model/fields.ts';
import type { AssetFolder } from '../../domain/images.ts';
import { flagged, type Preview } from '../problems.ts';
import { heroButton } from './button/index.tsx';
import { checkedField } from './checked/index.tsx';
import { calendarDateField } from './date/index.ts';
import { optionalIllustration } from './illustration/index.tsx';
import { imageField } from './image/index.tsx';
import type { FolderPictures } from './image/pictures.ts';
import { listLineField } from './line/index.ts';
import { oneOf } from './one-of/index.tsx';
import { pageAddressField } from './page-address/index.tsx';
import { someOf } from './some-of/index.tsx';
import { headingField, textField } from './text/index.tsx';
import { uniqueIdField } from './unique-id/index.tsx';
import { optionalWeekField, weekField } from './week/index.tsx';

/** What only the editor knows, from the project's files as they are when it opens. */
export interface EditorContext {
  /** Each image folder's pictures by name, with where the dev server shows each. */
  pictures: Record<AssetFolder, FolderPictures>;
  /** The words of a fixed list's options, by the page copy that names them (`optionsNamedBy`). */
  optionNames: Record<string, (option: string) => string>;
  /** A service page's address: why one is taken (a page of the site's own), and those in use. */
  pageAddresses: { taken(address: string): string | undefined; existing: readonly string[] };
}

export const editorFields = (of: Fields, context: EditorContext) =>
  Object.fromEntries(
    Object.entries(of).map(([key, field]) => [key, editorField(field, context)]),
  ) as Record<string, ComponentSchema>;

/** A text of a fixed form; one with a default may be left empty (the site then takes it). */
function patternField({ label, hint, rule, default: fallback }: PatternField) {
  if (fallback === undefined)
    return fields.text({
      label,
      description: hint,
      validation: { isRequired: true, pattern: rule },
    });
  const emptyOr = new RegExp(`^(?:${rule.regex.source.slice(1, -1)})?$`, rule.regex.flags);
  return fields.text({
    label,
    description: hint ?? 'Leave empty for the default.',
    validation: { pattern: { regex: emptyOr, message: rule.message } },
  });
}

/** The values of an item as its row is told them: a text, or its fields' values. */
const itemValue = (item: Preview): any =>
  item.fields
    ? Object.fromEntries(Object.entries(item.fields).map(([key, field]) => [key, field.value]))
    : item.value;

/** An item's row: the list's words for it, and its first problem, if any. */
export const rowLabel = (label: (item: any) => string) =>
  flagged((props: Preview) => String(label(itemValue(props)) ?? ''));

function listField(field: ListField, context: EditorContext) {
  const { label, hint, of, count, itemLabel } = field;
  // A list whose items' ids must differ (hosts): Keystatic hands each id the others'.
  const slugField =
    of.kind === 'group'
      ? Object.keys(of.fields).find((key) => of.fields[key]!.kind === 'uniqueId')
      : undefined;
  const options = {
    label,
    ...(hint !== undefined && { description: hint }),
    ...(slugField && { slugField }),
    ...(itemLabel && { itemLabel: rowLabel(itemLabel) }),
    ...(count && { validation: { length: count } }),
  };
  return fields.array(editorField(of, context), options as Parameters<typeof fields.array>[1]);
}

/** What the site takes for a list the file leaves out (a default of the domain's rule), if any. */
function whenLeftOut(schema: { safeParse(value: unknown): { success: boolean; data?: unknown } }) {
  const parsed = schema.safeParse(undefined);
  return parsed.success ? (parsed.data as string[]) : [];
}

export function editorField(field: Field, context: EditorContext): ComponentSchema {
  const { label, hint } = field as { label: string; hint?: string };
  switch (field.kind) {
    case 'text':
      return field.heading
        ? headingField(label, hint, field.span!, field.heading)
        : textField(label, field.span, { ...field, description: hint });
    case 'pattern':
      return patternField(field);
    case 'integer':
      return fields.integer({
        label,
        description: hint,
        validation: { min: field.range.min, max: field.range.max },
      });
    case 'checkbox':
      return fields.checkbox({ label, description: hint, defaultValue: field.default });
    case 'select':
      return fields.select({
        label,
        description: hint,
        options: field.options.map((value) => ({ label: value, value })),
        defaultValue: field.options[0]!,
      });
    case 'oneOf': {
      const name = field.optionsNamedBy ? context.optionNames[field.optionsNamedBy] : undefined;
      const options = field.options.map((value) => ({ value, label: name?.(value) ?? value }));
      return oneOf(label, options, hint);
    }
    case 'someOf':
      return someOf(label, field.options, hint);
    case 'image':
      return imageField(field.folder, label, context.pictures[field.folder], {
        description: hint,
        optional: field.optional,
      });
    case 'illustration':
      return optionalIllustration(label, context.pictures.illustrations, hint);
    case 'button':
      return heroButton(label, hint);
    case 'email':
      return fields.text({
        label,
        description: hint,
        validation: {
          pattern: { regex: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: 'an e-mail address' },
        },
      });
    case 'url':
      return fields.url({ label, description: hint, validation: { isRequired: true } });
    case 'pageAddress': {
      const { taken, existing } = context.pageAddresses;
      return pageAddressField(label, hint, field.rule, taken, existing);
    }
    case 'checked':
      return checkedField(label, hint, field.problem, field.expects, field);
    case 'date':
      return calendarDateField(label, hint, field.schema);
    case 'line':
      return listLineField(label, hint, field.schema, field.expects, whenLeftOut(field.schema));
    case 'week':
      return field.optional
        ? optionalWeekField(label, hint, field.days, field.day)
        : weekField(label, field.days, field.day);
    case 'uniqueId':
      return uniqueIdField(label, hint, field.rule, field.span);
    case 'body':
      // Keystatic keeps an MDX field's label to itself: it is repeated for the editor's place of
      // a mistake (../labels.ts).
      return Object.assign(fields.mdx({ label, extension: 'mdx' }), { label });
    case 'group':
      return fields.object(
        editorFields(field.fields, context),
        field.label === undefined ? undefined : { label: field.label, description: hint },
      );
    case 'list':
      return listField(field, context);
  }
}
