/**
 * The kinds of field a content file holds, declared neutrally: what a field takes (its kind, its
 * limits, whether it may be left out) and its words (the editor's label and hint, the reference's
 * sentence). The site's schema (./zod.ts), the visual editor's (src/editor/schema.ts) and
 * content-schema.md's field reference (./reference.ts) are each made from these declarations, so
 * that a field is written once (ARCHITECTURE.md, "Add a field").
 *
 * The limits are the rules of src/domain/content-rules.ts; a limit no other code needs may be
 * written in the declaration itself. Where the domain owns a field's rule because the server reads
 * the file too (availability.yaml), the declaration carries the domain's zod as `schema`, and the
 * site's schema takes it as it is.
 */
import type { z } from 'astro/zod';
import type { Rule, Span } from '../domain/content-rules.ts';
import type { AssetFolder } from '../domain/images.ts';

/** A field's words. */
export interface Words {
  /** Its name in the editor. */
  label: string;
  /** Under it in the editor. */
  hint?: string;
  /**
   * What content-schema.md's reference says of it, after what it takes; also its description in the
   * JSON schema Astro writes for the files. The hint when there is none.
   */
  about?: string;
}

interface Base extends Words {
  /** May be left out of the file (and left empty in the editor). */
  optional?: boolean;
  /** The domain's rule for the field, where the server shares it: the site's schema is this. */
  schema?: z.ZodType;
}

/** A text; `span` its fewest and most characters (none: any text). */
export interface TextField extends Base {
  kind: 'text';
  span?: Span;
  multiline?: boolean;
  /** The heading the page makes of it, shown under the field in the editor (a service's name). */
  heading?: (text: string) => string;
}

/** A text of a fixed form: `rule` says which, and what is wrong when it is not. */
export interface PatternField extends Base {
  kind: 'pattern';
  rule: Rule;
  /** What the site takes when the file leaves it out; the editor then may leave it empty. */
  default?: string;
}

export interface IntegerField extends Base {
  kind: 'integer';
  range: Span;
  default?: number;
}

export interface CheckboxField extends Base {
  kind: 'checkbox';
  default: boolean;
}

/** One of a fixed list; the editor starts on the first (Keystatic's own select). */
export interface SelectField<Options extends readonly string[] = readonly string[]> extends Base {
  kind: 'select';
  options: Options;
}

/** One of a fixed list; the editor starts with none chosen, and a new entry must choose. */
export interface OneOfField<Options extends readonly string[] = readonly string[]> extends Base {
  kind: 'oneOf';
  options: Options;
  /**
   * The page copy (src/content/pages/NAME.yaml) whose sections, by the options as their ids, name
   * the options in the editor ("Mobile, native" for mobile-native); none: the options as written.
   */
  optionsNamedBy?: string;
}

/** One or more of a fixed list. */
export interface SomeOfField<Options extends readonly string[] = readonly string[]> extends Base {
  kind: 'someOf';
  options: Options;
}

/** The name of an image of a src/assets folder, without its extension. */
export interface ImageField extends Base {
  kind: 'image';
  folder: AssetFolder;
}

/** An illustration and its alt text, `{ image, alt }`, or nothing (a page hero's). */
export interface IllustrationField extends Base {
  kind: 'illustration';
  optional: true;
}

/** A service hero's button: "inquire", "none", or a link of its own, `{ text, href }`. */
export interface ButtonField extends Base {
  kind: 'button';
}

export interface EmailField extends Base {
  kind: 'email';
}

/** A full web address. */
export interface UrlField extends Base {
  kind: 'url';
}

/** A service page's address, which is also its file's name: no two pages may share one. */
export interface PageAddressField extends Base {
  kind: 'pageAddress';
  rule: Rule;
}

/** A one-line text checked by `problem`, the site's own rule for it, in a marketer's words. */
export interface CheckedField extends Base {
  kind: 'checked';
  problem: (text: string) => string | undefined;
  /** What the value is, for a file that holds something else: "an address". */
  expects: string;
}

/** A calendar date, 'YYYY-MM-DD', by the domain's rule. */
export interface DateField extends Base {
  kind: 'date';
  schema: z.ZodType;
}

/** A list of short texts, written in the editor as one line, comma-separated, by the domain's rule. */
export interface LineField extends Base {
  kind: 'line';
  schema: z.ZodType;
  /** What each item is: 'lead times like "24h"'. */
  expects: string;
  /** The words of one item, in the reference. */
  item: string;
  /** How many items, in the reference (the rule counts them). */
  count?: Span;
}

/** A week of opening hours: each of `days`, a list of ranges by the rule `day`. */
export interface WeekField extends Base {
  kind: 'week';
  days: readonly string[];
  day: z.ZodType;
  schema: z.ZodType;
}

/** An item's id in a list whose items' ids must differ (a host's). */
export interface UniqueIdField extends Base {
  kind: 'uniqueId';
  rule: Rule;
  span: Span;
}

/** The MDX text below a service page's front matter: the editor's only. */
export interface BodyField extends Words {
  kind: 'body';
}

/** Fields side by side, as one object of the file. */
export interface GroupField<Of extends Fields = Fields>
  extends Partial<Words>, Omit<Base, 'label'> {
  kind: 'group';
  fields: Of;
}

/** A list of items, each `of` one field (a text, or a group). */
export interface ListField<Of extends Field = Field> extends Base {
  kind: 'list';
  of: Of;
  /** How many items: the fewest and the most. */
  count?: Span;
  /** What is wrong with a list of another count, when the count is exact. */
  countMessage?: string;
  /** The site takes no items when the file leaves the list out. */
  default?: readonly [];
  /** Where the site shows the items, in a marketer's words ("the footer's Popular services"). */
  shownAt?: string;
  /**
   * An item's row in the editor: words made of its fields, or of its text. (A method, so that a
   * list of texts is a list of fields.)
   */
  itemLabel?(item: Value<Of>): string;
}

export type Field =
  | TextField
  | PatternField
  | IntegerField
  | CheckboxField
  | SelectField
  | OneOfField
  | SomeOfField
  | ImageField
  | IllustrationField
  | ButtonField
  | EmailField
  | UrlField
  | PageAddressField
  | CheckedField
  | DateField
  | LineField
  | WeekField
  | UniqueIdField
  | BodyField
  | GroupField
  | ListField;

export type Fields = Readonly<Record<string, Field>>;

/** A service hero's button as the site reads it. */
export type HeroButton = 'inquire' | 'none' | { text: string; href: string };

/** What the site reads of a field that is there. */
export type Value<F> = F extends { schema: infer S extends z.ZodType }
  ? z.output<S>
  : F extends { kind: 'integer' }
    ? number
    : F extends { kind: 'checkbox' }
      ? boolean
      : F extends { kind: 'select' | 'oneOf'; options: readonly (infer O)[] }
        ? O
        : F extends { kind: 'someOf'; options: readonly (infer O)[] }
          ? O[]
          : F extends { kind: 'illustration' }
            ? { image: string; alt: string }
            : F extends { kind: 'button' }
              ? HeroButton
              : F extends { kind: 'group'; fields: infer Of }
                ? Shape<Of>
                : F extends { kind: 'list'; of: infer Of }
                  ? Value<Of>[]
                  : string;

/** Whether the site may find a field left out (a default fills it in: not). */
type LeftOut<F> = F extends { schema: infer S extends z.ZodType }
  ? undefined extends z.output<S>
    ? true
    : false
  : F extends { optional: true }
    ? true
    : false;

type Keys<Of, Out extends boolean> = {
  [K in keyof Of]: Of[K] extends { kind: 'body' } ? never : LeftOut<Of[K]> extends Out ? K : never;
}[keyof Of];

/** What the site reads of a group of fields: the fields that may be left out are optional. */
export type Shape<Of> = {
  [K in Keys<Of, false>]: Value<Of[K]>;
} & { [K in Keys<Of, true>]?: Value<Of[K]> | undefined } extends infer S
  ? { [K in keyof S]: S[K] }
  : never;

/** A field's declaration as written, without its kind. */
type Declared<F> = Omit<F, 'kind'>;

export const text = <const F extends Declared<TextField>>(field: F) =>
  ({ kind: 'text', ...field }) as const;
export const pattern = <const F extends Declared<PatternField>>(field: F) =>
  ({ kind: 'pattern', ...field }) as const;
export const integer = <const F extends Declared<IntegerField>>(field: F) =>
  ({ kind: 'integer', ...field }) as const;
export const checkbox = <const F extends Declared<CheckboxField>>(field: F) =>
  ({ kind: 'checkbox', ...field }) as const;
export const select = <const F extends Declared<SelectField>>(field: F) =>
  ({ kind: 'select', ...field }) as const;
export const oneOf = <const F extends Declared<OneOfField>>(field: F) =>
  ({ kind: 'oneOf', ...field }) as const;
export const someOf = <const F extends Declared<SomeOfField>>(field: F) =>
  ({ kind: 'someOf', ...field }) as const;
export const image = <const F extends Declared<ImageField>>(field: F) =>
  ({ kind: 'image', ...field }) as const;
export const illustration = <const F extends Declared<Omit<IllustrationField, 'optional'>>>(
  field: F,
) => ({ kind: 'illustration', optional: true, ...field }) as const;
export const button = <const F extends Declared<ButtonField>>(field: F) =>
  ({ kind: 'button', ...field }) as const;
export const email = <const F extends Declared<EmailField>>(field: F) =>
  ({ kind: 'email', ...field }) as const;
export const url = <const F extends Declared<UrlField>>(field: F) =>
  ({ kind: 'url', ...field }) as const;
export const pageAddress = <const F extends Declared<PageAddressField>>(field: F) =>
  ({ kind: 'pageAddress', ...field }) as const;
export const checked = <const F extends Declared<CheckedField>>(field: F) =>
  ({ kind: 'checked', ...field }) as const;
export const date = <const F extends Declared<DateField>>(field: F) =>
  ({ kind: 'date', ...field }) as const;
export const line = <const F extends Declared<LineField>>(field: F) =>
  ({ kind: 'line', ...field }) as const;
export const week = <const F extends Declared<WeekField>>(field: F) =>
  ({ kind: 'week', ...field }) as const;
export const uniqueId = <const F extends Declared<UniqueIdField>>(field: F) =>
  ({ kind: 'uniqueId', ...field }) as const;
export const body = <const F extends Declared<BodyField>>(field: F) =>
  ({ kind: 'body', ...field }) as const;
export const group = <const F extends Declared<GroupField>>(field: F) =>
  ({ kind: 'group', ...field }) as const;

/** A list: `of` first, so that `itemLabel` is told what an item holds. */
export function list<
  const Of extends Field,
  const Optional extends boolean | undefined = undefined,
>(field: Declared<ListField<Of>> & { optional?: Optional }) {
  return { kind: 'list', ...field } as ListField<Of> & { kind: 'list'; optional: Optional };
}
