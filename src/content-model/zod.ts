/**
 * The site's schema of a collection, made from its declaration (./index.ts): what `npm run build`
 * takes of each file (src/content.config.ts). A mistake fails the build with zod's message, Astro
 * naming the file and the field; a declaration's `schema` (the domain's rule) is taken as it is.
 */
import { z } from 'astro/zod';
import {
  heroButtonKinds,
  lengths,
  patterns,
  type Rule,
  type Span,
} from '../domain/content-rules.ts';
import type { AssetFolder } from '../domain/images.ts';
import type { CollectionModel, Entry } from './collections.ts';
import type { Field, Fields } from './fields.ts';
import { alt, entryId } from './shared.ts';

/** What the schema asks of the project as it is now: a folder's image names. */
export interface SiteChecks {
  imageNames(folder: AssetFolder): readonly string[];
}

/** An entry of the collection as the site takes it: a strict object, a list file's with its id. */
export function siteSchema<M extends CollectionModel>(
  model: M,
  checks: SiteChecks,
): z.ZodType<Entry<M>> {
  const id = model.kind === 'listFile' && model.ids ? { id: fieldSchema(entryId, checks) } : {};
  return z.strictObject({ ...id, ...shapeOf(model.fields, checks) }) as z.ZodType<any>;
}

function shapeOf(fields: Fields, checks: SiteChecks): z.ZodRawShape {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, field]) => field.kind !== 'body')
      .map(([key, field]) => [key, fieldSchema(field, checks)]),
  );
}

function fieldSchema(field: Field, checks: SiteChecks): z.ZodType {
  if ('schema' in field && field.schema) return field.schema;
  const made = kindSchema(field, checks);
  const words = field.about ?? field.hint;
  const described = words ? made.describe(words) : made;
  return 'optional' in field && field.optional ? described.optional() : described;
}

const text = (span?: Span) => {
  if (!span) return z.string();
  return span.min === span.max
    ? z.string().length(span.max)
    : z.string().min(span.min).max(span.max);
};

/**
 * The name of an image of a src/assets folder. Checked against the folder when a file is checked,
 * not when this schema loads, so that `npm run edit` knows an image uploaded in the editor at once.
 */
const image = (folder: AssetFolder, checks: SiteChecks) =>
  z.string().superRefine((name, context) => {
    const names = checks.imageNames(folder);
    if (!names.includes(name))
      context.addIssue({
        code: 'custom',
        message: `Invalid option: expected one of ${names.map((each) => JSON.stringify(each)).join('|')}`,
      });
  });

const internalPath = () =>
  z.string().regex(patterns.internalPath.regex, patterns.internalPath.message);

/** A list's count: an exact one with its own message (the 8 tiles), or the fewest and the most. */
function counted(items: z.ZodArray, count: Span | undefined, message: string | undefined) {
  if (!count) return items;
  if (count.min === count.max) return items.length(count.max, message);
  return items.min(count.min).max(count.max);
}

type Made<K extends Field['kind']> = (
  field: Extract<Field, { kind: K }>,
  checks: SiteChecks,
) => z.ZodType;

const matching = ({ rule, ...field }: { rule: Rule; default?: string }) => {
  const schema = z.string().regex(rule.regex, rule.message);
  return field.default === undefined ? schema : schema.default(field.default);
};

/** Each kind's schema, before its words and whether it may be left out. */
const kinds: { [K in Field['kind']]: Made<K> } = {
  text: ({ span }) => text(span),
  pattern: matching,
  pageAddress: matching,
  integer: ({ range, default: value }) => {
    const whole = z.number().int().min(range.min).max(range.max);
    return value === undefined ? whole : whole.default(value);
  },
  checkbox: ({ default: value }) => z.boolean().default(value),
  select: ({ options }) => z.enum(options),
  oneOf: ({ options }) => z.enum(options),
  someOf: ({ options }) => z.array(z.enum(options)).min(1),
  image: ({ folder }, checks) => image(folder, checks),
  illustration: (_, checks) =>
    z.strictObject({ image: image('illustrations', checks), alt: fieldSchema(alt, checks) }),
  button: () =>
    z
      .union([
        z.literal(heroButtonKinds[0]),
        z.literal(heroButtonKinds[1]),
        z.strictObject({ text: text(lengths.buttonText), href: internalPath() }),
      ])
      .default(heroButtonKinds[0]),
  email: () => z.email(),
  // A web address: `javascript:` or `data:` would run or show what the link holds.
  url: () => z.url({ protocol: /^https?$/, error: 'Enter a full web address, starting https://' }),
  checked: ({ problem }) =>
    z.string().superRefine((value, context) => {
      const found = problem(value);
      if (found) context.addIssue({ code: 'custom', message: found });
    }),
  uniqueId: ({ span, rule }) => text(span).regex(rule.regex, { message: rule.message }),
  // The domain's rule is the schema (`fieldSchema` takes it before it comes here).
  date: ({ schema }) => schema,
  line: ({ schema }) => schema,
  week: ({ schema }) => schema,
  group: ({ fields }, checks) => z.strictObject(shapeOf(fields, checks)),
  list: (field, checks) => {
    const items = counted(z.array(fieldSchema(field.of, checks)), field.count, field.countMessage);
    return field.default ? items.default([]) : items;
  },
  body: () => {
    throw new Error('the MDX text is not in the front matter');
  },
};

const kindSchema = (field: Field, checks: SiteChecks) =>
  (kinds[field.kind] as Made<Field['kind']>)(field as never, checks);
