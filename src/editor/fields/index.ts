/**
 * A field of the content model (src/content-model/) as the editor shows it: Keystatic's own field
 * where it writes the file's shape and refuses what the site refuses, otherwise the kind's folder
 * here, as Keystatic lays out its own (`index.tsx` the field, `ui.tsx` its widget, `validate.ts` its
 * check and its words; a check the site's schema runs too is the domain's, handed in).
 */
import { fields, type ComponentSchema } from '@keystatic/core';
import type { Field, Fields, ListField, PatternField } from '../../content-model/fields.ts';
import type { AssetFolder } from '../../domain/images.ts';
import { flagged, itemValue, type Preview } from '../problems.ts';
import { heroButton } from './button/index.tsx';
import { checkedField } from './checked/index.tsx';
import { calendarDateField } from './date/index.ts';
import { optionalIllustration } from './illustration/index.tsx';
import { imageField } from './image/index.tsx';
import { linkField } from './link/index.tsx';
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

/**
 * A group's fields. Two kinds depend on their place in it: a text of a fixed form under the key
 * `href` is a link, checked against the site's pages as the build checks every `href`
 * (src/lib/content-checks.ts); an image beside an `alt` text asks for it anew when replaced.
 */
export const editorFields = (of: Fields, context: EditorContext) =>
  Object.fromEntries(
    Object.entries(of).map(([key, field]) => {
      if (key === 'href' && field.kind === 'pattern')
        return [
          key,
          linkField(field.label, field.hint ?? defaultHint(field), field.rule, {
            optional: field.default !== undefined,
          }),
        ];
      if (field.kind === 'image' && 'alt' in of)
        return [
          key,
          imageField(field.folder, field.label, context.pictures[field.folder], {
            description: field.hint,
            optional: field.optional,
            altBeside: true,
          }),
        ];
      return [key, editorField(field, context)];
    }),
  ) as Record<string, ComponentSchema>;

/** What an empty text of a fixed form with a default says: the site takes the default. */
const defaultHint = ({ default: fallback }: PatternField) =>
  fallback === undefined ? undefined : `Leave empty for ${fallback}.`;

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

/**
 * An item's row: the list's words for it, and its first problem, if any; `nameOf`, the words alone,
 * by which a Save's message names the item (../problems.ts `itemName`).
 */
export const rowLabel = (label: (item: any) => string) =>
  Object.assign(
    flagged((props: Preview) => String(label(itemValue(props)) ?? '')),
    { nameOf: label },
  );

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

type Made<K extends Field['kind']> = (
  field: Extract<Field, { kind: K }>,
  context: EditorContext,
) => ComponentSchema;

/** Each kind's editor field: Keystatic's own, or the kind's folder's. */
const kinds: { [K in Field['kind']]: Made<K> } = {
  text: ({ label, hint, span, heading, ...field }) =>
    heading
      ? headingField(label, hint, span!, heading)
      : textField(label, span, { ...field, description: hint }),
  pattern: patternField,
  integer: ({ label, hint, range }) =>
    fields.integer({ label, description: hint, validation: { min: range.min, max: range.max } }),
  checkbox: ({ label, hint, default: value }) =>
    fields.checkbox({ label, description: hint, defaultValue: value }),
  select: ({ label, hint, options }) =>
    fields.select({
      label,
      description: hint,
      options: options.map((value) => ({ label: value, value })),
      defaultValue: options[0]!,
    }),
  oneOf: ({ label, hint, options, optionsNamedBy }, context) => {
    const name = optionsNamedBy ? context.optionNames[optionsNamedBy] : undefined;
    return oneOf(
      label,
      options.map((value) => ({ value, label: name?.(value) ?? value })),
      hint,
    );
  },
  someOf: ({ label, hint, options }) => someOf(label, options, hint),
  image: ({ label, hint, folder, optional }, context) =>
    imageField(folder, label, context.pictures[folder], { description: hint, optional }),
  illustration: ({ label, hint }, context) =>
    optionalIllustration(label, context.pictures.illustrations, hint),
  button: ({ label, hint }) => heroButton(label, hint),
  email: ({ label, hint }) =>
    fields.text({
      label,
      description: hint,
      validation: {
        pattern: { regex: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: 'an e-mail address' },
      },
    }),
  url: ({ label, hint }) =>
    fields.url({ label, description: hint, validation: { isRequired: true } }),
  pageAddress: ({ label, hint, rule }, { pageAddresses: { taken, existing } }) =>
    pageAddressField(label, hint, rule, taken, existing),
  checked: ({ label, hint, problem, expects, optional }) =>
    checkedField(label, hint, problem, expects, { optional }),
  date: ({ label, hint, schema }) => calendarDateField(label, hint, schema),
  line: ({ label, hint, schema, expects }) =>
    listLineField(label, hint, schema, expects, whenLeftOut(schema)),
  week: ({ label, hint, optional, days, day }) =>
    optional ? optionalWeekField(label, hint, days, day) : weekField(label, days, day),
  uniqueId: ({ label, hint, rule, span }) => uniqueIdField(label, hint, rule, span),
  // Keystatic keeps an MDX field's label to itself: it is repeated for the words that name a
  // field (../problems.ts).
  body: ({ label }) => Object.assign(fields.mdx({ label, extension: 'mdx' }), { label }),
  group: ({ label, hint, fields: of }, context) =>
    fields.object(
      editorFields(of, context),
      label === undefined ? undefined : { label, description: hint },
    ),
  list: listField,
};

export const editorField = (field: Field, context: EditorContext): ComponentSchema =>
  (kinds[field.kind] as Made<Field['kind']>)(field as never, context);
