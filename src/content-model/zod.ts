/**
 * The site's schema of a collection, made from its declaration (./index.ts): what `npm run build`
 * takes of each file (src/content.config.ts). A mistake fails the build with zod's message, Astro
 * naming the file and the field; a declaration's `schema` (the domain's rule) is taken as it is.
 */
import { z } from 'astro/zod';
import { heroButtonKinds, lengths, patterns, type Span } from '../domain/content-rules.ts';
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

function kindSchema(field: Field, checks: SiteChecks): z.ZodType {
  switch (field.kind) {
    case 'text':
      return text(field.span);
    case 'pattern':
    case 'pageAddress': {
      const matching = z.string().regex(field.rule.regex, field.rule.message);
      return 'default' in field && field.default !== undefined
        ? matching.default(field.default)
        : matching;
    }
    case 'integer': {
      const whole = z.number().int().min(field.range.min).max(field.range.max);
      return field.default === undefined ? whole : whole.default(field.default);
    }
    case 'checkbox':
      return z.boolean().default(field.default);
    case 'select':
    case 'oneOf':
      return z.enum(field.options);
    case 'someOf':
      return z.array(z.enum(field.options)).min(1);
    case 'image':
      return image(field.folder, checks);
    case 'illustration':
      return z.strictObject({
        image: image('illustrations', checks),
        alt: fieldSchema(alt, checks),
      });
    case 'button':
      return z
        .union([
          z.literal(heroButtonKinds[0]),
          z.literal(heroButtonKinds[1]),
          z.strictObject({ text: text(lengths.buttonText), href: internalPath() }),
        ])
        .default(heroButtonKinds[0]);
    case 'email':
      return z.email();
    case 'url':
      return z.url();
    case 'checked':
      return z.string().superRefine((value, context) => {
        const problem = field.problem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      });
    case 'uniqueId':
      return text(field.span).regex(field.rule.regex, { message: field.rule.message });
    case 'date':
    case 'line':
    case 'week':
      return field.schema;
    case 'group':
      return z.strictObject(shapeOf(field.fields, checks));
    case 'list': {
      const items = counted(
        z.array(fieldSchema(field.of, checks)),
        field.count,
        field.countMessage,
      );
      return field.default ? items.default([]) : items;
    }
    case 'body':
      throw new Error('the MDX text is not in the front matter');
  }
}
