/**
 * content-schema.md's field reference, made from the content model: for each collection, a line a
 * field with its key in the file, its name in the editor, what it takes and what it is for. The
 * prose around each list is written by hand; `npm run docs:content` (scripts/content-docs.mjs)
 * writes the lists between their markers, and tests/unit/content-docs.test.ts fails `npm test`
 * when one is not what the model makes.
 */
import type { Span } from '../domain/content-rules.ts';
import { imageKinds } from '../domain/images.ts';
import type { CollectionModel } from './collections.ts';
import type { Field, Fields } from './fields.ts';
import { contentModel } from './index.ts';

const code = (value: unknown) =>
  `\`${Array.isArray(value) ? `[${value.map((item) => `'${item}'`).join(', ')}]` : String(value)}\``;

/** "`a`, `b` or `c`". */
const either = (options: readonly string[]) =>
  options.length < 2
    ? options.map(code).join('')
    : `${options.slice(0, -1).map(code).join(', ')} or ${code(options.at(-1))}`;

const article = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** A rule's message as what a value is: "a hex colour such as …", without "must be". */
const shapeOf = (message: string) => message.replace(/^must be /, '');

/** How many items: "**exactly 8**", "1-3", "up to 4". */
function countOf(count: Span | undefined) {
  if (!count) return '';
  if (count.min === count.max) return `**exactly ${count.max}** `;
  return count.min === 0 ? `up to ${count.max} ` : `${count.min}-${count.max} `;
}

/** A text's length: "2-40", "up to 60", "2 characters". */
function lengthOf(span: Span | undefined) {
  if (!span) return 'text';
  if (span.min === span.max) return `text of ${span.max} characters`;
  return span.min === 0 ? `text, up to ${span.max}` : `text, ${span.min}-${span.max}`;
}

type Takes<K extends Field['kind']> = (field: Extract<Field, { kind: K }>) => string;

/** What a field of each kind takes, in a marketer's words. */
const kinds: { [K in Field['kind']]: Takes<K> } = {
  text: ({ span }) => lengthOf(span),
  pattern: ({ rule }) => shapeOf(rule.message),
  pageAddress: ({ rule }) => shapeOf(rule.message),
  integer: ({ range }) => `whole number, ${range.min}-${range.max}`,
  checkbox: () => '`true` or `false`',
  select: ({ options }) => `one of ${either(options)}`,
  oneOf: ({ options }) => `one of ${either(options)}`,
  someOf: ({ options }) => `a list of one or more of ${either(options)}`,
  image: ({ folder }) =>
    `the name of ${article(imageKinds[folder].one)} of \`src/assets/${folder}\``,
  illustration: () => '`{ image, alt }`',
  button: () => '`inquire`, `none`, or `{ text, href }`',
  email: () => 'an e-mail address',
  url: () => 'a full web address, `https://…`',
  checked: ({ expects }) => expects,
  date: () => "a date, `'YYYY-MM-DD'`",
  line: ({ count, item }) => `a list of ${countOf(count)}${item}`,
  week: ({ days }) =>
    `${days.map(code).join(', ')}, each a list of \`'HH:MM-HH:MM'\`, or \`[]\` for none`,
  uniqueId: ({ rule, span }) =>
    `${shapeOf(rule.message)}, ${span.min}-${span.max} characters, each one's own`,
  group: () => '',
  body: () => '',
  list: ({ count, label, of }) => {
    const list = `a list of ${countOf(count)}${label.toLowerCase()}`;
    return of.kind === 'group' ? list : `${list}, each ${takes(of)}`;
  },
};

const takes = (field: Field): string => (kinds[field.kind] as Takes<Field['kind']>)(field as never);

/** Whether the file may leave the field out, and what the site then takes (a default), if anything. */
function leftOut(field: Field): { optional: boolean; value?: unknown } {
  if ('schema' in field && field.schema) {
    const parsed = field.schema.safeParse(undefined);
    if (!parsed.success) return { optional: false };
    const value = parsed.data;
    return { optional: true, value: Array.isArray(value) && !value.length ? undefined : value };
  }
  if ('default' in field && field.default !== undefined)
    return { optional: true, value: Array.isArray(field.default) ? undefined : field.default };
  return { optional: 'optional' in field && !!field.optional };
}

function suffix(field: Field) {
  const { optional, value } = leftOut(field);
  if (!optional) return '';
  return value === undefined ? ', optional' : `, optional (default ${code(value)})`;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** A field's line: its key, its name in the editor, what it takes, what it is for. */
function line(path: string, field: Field) {
  const label = 'label' in field && field.label ? ` (**${field.label}**)` : '';
  const words = field.about ?? field.hint;
  const what = `${takes(field)}${suffix(field)}`.replace(/^, /, '');
  const parts = [what && sentence(what), words && sentence(words)];
  return `- \`${path}\`${label} — ${parts.filter(Boolean).join(' ')}`;
}

function lines(fields: Fields, prefix = ''): string[] {
  return Object.entries(fields).flatMap(([key, field]) => {
    const path = `${prefix}${key}`;
    if (field.kind === 'body') return [];
    if (field.kind === 'group') {
      const own = (field.about ?? field.hint ?? field.optional) ? [line(path, field)] : [];
      return [...own, ...lines(field.fields, `${path}.`)];
    }
    if (field.kind === 'list' && field.of.kind === 'group')
      return [line(path, field), ...lines(field.of.fields, `${path}[].`)];
    return [line(path, field)];
  });
}

/** The reference of one collection: a markdown list, a line a field (not wrapped). */
export const fieldReference = (model: CollectionModel) => lines(model.fields).join('\n');

const start = (name: string) =>
  `<!-- The fields of ${name}: written by \`npm run docs:content\` from src/content-model/, edit them there. -->`;
const end = (name: string) => `<!-- End of the fields of ${name}. -->`;

/**
 * content-schema.md with each collection's list written anew between its markers; the prose
 * around is kept. Throws naming a collection whose markers are missing.
 */
export function withReference(doc: string, model: Record<string, CollectionModel> = contentModel) {
  let text = doc;
  for (const [name, collection] of Object.entries(model)) {
    const from = text.indexOf(start(name));
    const to = text.indexOf(end(name), from);
    if (from < 0 || to < 0)
      throw new Error(`content-schema.md has no place for the fields of ${name}: ${start(name)}`);
    const head = text.slice(0, from + start(name).length);
    text = `${head}\n\n${fieldReference(collection)}\n\n${text.slice(to)}`;
  }
  return text;
}
