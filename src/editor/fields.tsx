/**
 * Fields Keystatic has no built-in for, because the site's files hold a shape its own fields would
 * write differently: a value that is either a word or an object (a service hero's button), and an
 * object that may be left out (a page hero's illustration). Each reads and writes the file's shape
 * unchanged and refuses, next to the field, what the site's schema refuses.
 */
import type { BasicFormField, FormFieldStoredValue, SlugFormField } from '@keystatic/core';
import { Checkbox, CheckboxGroup } from '@keystar/ui/checkbox';
import { FieldMessage } from '@keystar/ui/field';
import { Flex } from '@keystar/ui/layout';
import { Item, Picker } from '@keystar/ui/picker';
import { TextField } from '@keystar/ui/text-field';
import { Heading, Text } from '@keystar/ui/typography';
import { createContext, useContext, useState, type Context, type ReactNode } from 'react';
import { heroButtonKinds, lengths, patterns } from '../domain/content-rules.ts';
import { ImageChooser, isKnownImage, type FolderPictures } from './image-field.tsx';
import { KEYSTATIC_CONTEXTS, type SlugInfo } from './keystatic-contexts.ts';

class FieldError extends Error {}

/** A group of inputs under one label, laid out as Keystatic lays out its own object fields. */
function Group(props: { label: string; description?: string; children: ReactNode }) {
  return (
    <Flex direction="column" gap="large" role="group" aria-label={props.label}>
      <Flex direction="column" gap="regular">
        <Heading size="small" elementType="h3">
          {props.label}
        </Heading>
        {props.description && (
          <Text size="small" color="neutralSecondary">
            {props.description}
          </Text>
        )}
      </Flex>
      {props.children}
    </Flex>
  );
}

type Button = (typeof heroButtonKinds)[number] | { text: string; href: string };

const buttonProblem = (value: Button): string | undefined => {
  if (typeof value === 'string') return undefined;
  const { min, max } = lengths.buttonText;
  if (value.text.length < min || value.text.length > max)
    return `Button text must be ${min}-${max} characters`;
  if (!patterns.internalPath.regex.test(value.href)) return `Link ${patterns.internalPath.message}`;
  return undefined;
};

function ButtonInput(props: {
  value: Button;
  onChange(value: Button): void;
  forceValidation: boolean;
  label: string;
  description: string;
}) {
  const { value, onChange } = props;
  const kind = typeof value === 'string' ? value : 'link';
  const problem = props.forceValidation ? buttonProblem(value) : undefined;
  const kinds = [
    { key: 'inquire', label: 'Inquire Now (external contact page)' },
    { key: 'none', label: 'No button' },
    { key: 'link', label: 'A link on this site' },
  ];
  return (
    <Group label={props.label} description={props.description}>
      <Picker
        label="Kind"
        items={kinds}
        value={kind}
        onChange={(next) => {
          if (next === null || next === kind) return;
          onChange(next === 'link' ? { text: '', href: '/contact' } : (next as Button));
        }}
        width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
      >
        {(item) => <Item key={item.key}>{item.label}</Item>}
      </Picker>
      {typeof value === 'object' && (
        <>
          <TextField
            label="Button text"
            value={value.text}
            onChange={(text) => onChange({ ...value, text })}
          />
          <TextField
            label="Link"
            value={value.href}
            onChange={(href) => onChange({ ...value, href })}
          />
        </>
      )}
      {problem && <FieldMessage>{problem}</FieldMessage>}
    </Group>
  );
}

/** A service hero's button: "inquire", "none", or { text, href }. */
export function heroButton(label: string, description: string): BasicFormField<Button> {
  const parse = (value: FormFieldStoredValue): Button => {
    if (value === undefined) return 'inquire';
    if (value === 'inquire' || value === 'none') return value;
    if (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(value).every((key) => key === 'text' || key === 'href') &&
      typeof (value as { text?: unknown }).text === 'string' &&
      typeof (value as { href?: unknown }).href === 'string'
    ) {
      return { text: (value as { text: string }).text, href: (value as { href: string }).href };
    }
    throw new FieldError('must be "inquire", "none" or { text, href }');
  };
  return {
    kind: 'form',
    label,
    Input: (props) => <ButtonInput {...props} label={label} description={description} />,
    defaultValue: () => 'inquire',
    parse,
    serialize: (value) => ({ value: typeof value === 'string' ? value : { ...value } }),
    validate(value) {
      const problem = buttonProblem(value);
      if (problem) throw new FieldError(problem);
      return value;
    },
    reader: { parse: (value) => parse(value) },
  };
}

type Illustration = { image: string; alt: string } | null;

/** An optional { image, alt } object (a page hero's illustration): left out of the file when empty. */
export function optionalIllustration(
  label: string,
  pictures: FolderPictures,
  description: string,
): BasicFormField<Illustration> {
  const problem = (value: Illustration) => {
    if (value === null) return undefined;
    if (!isKnownImage('illustrations', pictures, value.image)) return 'Choose an illustration';
    const { min, max } = lengths.alt;
    if (value.alt.length < min || value.alt.length > max)
      return `Alt text must be ${min}-${max} characters`;
    return undefined;
  };
  const parse = (value: FormFieldStoredValue): Illustration => {
    if (value === undefined || value === null) return null;
    const record = value as Record<string, unknown>;
    if (
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(record).every((key) => key === 'image' || key === 'alt') &&
      typeof record.image === 'string' &&
      typeof record.alt === 'string'
    ) {
      return { image: record.image, alt: record.alt };
    }
    throw new FieldError('must be { image, alt }');
  };
  return {
    kind: 'form',
    label,
    Input({ value, onChange, forceValidation }) {
      const shown = forceValidation ? problem(value) : undefined;
      return (
        <Group label={label} description={description}>
          <ImageChooser
            folder="illustrations"
            pictures={pictures}
            label="Image"
            value={value?.image ?? ''}
            optional
            onChange={(image) => onChange(image ? { image, alt: value?.alt ?? '' } : null)}
          />
          {value && (
            <TextField
              label="Alt text"
              value={value.alt}
              onChange={(alt) => onChange({ ...value, alt })}
            />
          )}
          {shown && <FieldMessage>{shown}</FieldMessage>}
        </Group>
      );
    },
    defaultValue: () => null,
    parse,
    serialize: (value) => ({ value: value === null ? undefined : { ...value } }),
    validate(value) {
      const shown = problem(value);
      if (shown) throw new FieldError(shown);
      return value;
    },
    reader: { parse: (value) => parse(value) },
  };
}

/**
 * A one-line text field that shows its problem once it has been left or a save was tried, as
 * Keystatic's own fields do (a list item's dialog closes with its problems, so leaving the field is
 * when they can be seen there).
 */
function CheckedText(props: {
  label: string;
  description: string;
  value: string;
  onChange(value: string): void;
  forceValidation: boolean;
  problem(value: string): string | undefined;
}) {
  const [left, setLeft] = useState(false);
  return (
    <TextField
      label={props.label}
      description={props.description}
      value={props.value}
      onChange={props.onChange}
      onBlur={() => setLeft(true)}
      errorMessage={props.forceValidation || left ? props.problem(props.value) : undefined}
      // The whole width, as Keystatic's own text fields: an e-mail address or a video room's
      // address was cut short in the narrow width of a number's field.
      width="auto"
    />
  );
}

/** The problem of a value, or undefined: what a field's `validate` throws. */
const problemOf = (check: () => unknown) => {
  try {
    check();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

/** How a one-line text of the editor is kept in the file. */
interface Stored {
  parse(value: FormFieldStoredValue): string;
  serialize(text: string): FormFieldStoredValue;
}

/** Kept as the string itself; left out of the file when empty if `optional`. */
const asString = (kind: string, optional = false): Stored => ({
  parse(value) {
    if (value === undefined) return '';
    if (typeof value !== 'string') throw new FieldError(`must be ${kind}`);
    return value;
  },
  serialize: (text) => (optional && text === '' ? undefined : text),
});

/** A one-line text checked by `check` (which throws the problem), kept in the file as `stored` says. */
function checkedTextField(
  label: string,
  description: string,
  check: (text: string) => void,
  stored: Stored,
): BasicFormField<string> {
  const validate = (text: string) => {
    check(text);
    return text;
  };
  return {
    kind: 'form',
    label,
    Input: (props) => (
      <CheckedText
        {...props}
        label={label}
        description={description}
        problem={(text) => problemOf(() => validate(text))}
      />
    ),
    defaultValue: () => '',
    parse: stored.parse,
    serialize: (text) => ({ value: stored.serialize(text) }),
    validate,
    reader: { parse: (value) => validate(stored.parse(value)) },
  };
}

/**
 * A time zone name the platform knows ("Europe/London"), as availability.yaml's `timeZone`; empty
 * leaves it out of the file, and the site then uses its default.
 */
export const timeZoneField = (
  label: string,
  description: string,
  isTimeZone: (name: string) => boolean,
) =>
  checkedTextField(
    label,
    description,
    (value) => {
      if (value !== '' && !isTimeZone(value))
        throw new FieldError(`"${value}" is not a time zone name such as "Europe/London"`);
    },
    asString('a time zone name', true),
  );

/** What a zod schema refuses in a value, as one line naming the list item when there is one. */
type Check = {
  safeParse(value: unknown): {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
};
function zodProblem(schema: Check, value: string[]) {
  const issue = schema.safeParse(value).error?.issues[0];
  if (!issue) return undefined;
  const index = issue.path[0];
  return typeof index === 'number' ? `"${value[index]}" ${issue.message}` : issue.message;
}

/** "09:30-12:30, 13:30-17:00" → the items as the file lists them. */
const ranges = (text: string) =>
  text
    .split(',')
    .map((range) => range.trim())
    .filter(Boolean);

/** A list of texts as the file holds it → the line the editor shows (`kind`: what each item is). */
const listLine =
  (kind: string, whenLeftOut: readonly string[] = []) =>
  (value: FormFieldStoredValue): string => {
    if (value === undefined) return whenLeftOut.join(', ');
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
      throw new FieldError(`must be a list of ${kind}`);
    return value.join(', ');
  };

/**
 * A list of short texts written as one line, comma-separated (empty for none), kept in the file as
 * the list the site reads and checked with the site's own rule (`rule`, a zod schema of the list).
 */
export function listLineField(
  label: string,
  description: string,
  rule: Check,
  kind: string,
  /** What the site takes when the file leaves the list out (shown, and written on save). */
  whenLeftOut: readonly string[] = [],
): BasicFormField<string> {
  return checkedTextField(
    label,
    description,
    (text) => {
      const problem = zodProblem(rule, ranges(text));
      if (problem) throw new FieldError(`${label}: ${problem}`);
    },
    { parse: listLine(kind, whenLeftOut), serialize: ranges },
  );
}

/**
 * A weekday's opening hours, written as one line ("09:30-12:30, 13:30-17:00"; empty for none) and
 * kept in the file as the list of ranges the site reads. Checked with the site's own rule
 * (`openingHours` of src/domain/booking.ts): each range opens before it closes, none overlap.
 */
export const openingHoursField = (label: string, rule: Check) =>
  listLineField(
    label,
    'Opening and closing times on a 24-hour clock, comma-separated; empty for none.',
    rule,
    'times like "09:30-12:30"',
  );

/**
 * A one-line text checked by `problem`, the site's own rule for that value; `optional`, it may be
 * left empty (and is then left out of the file).
 */
export const checkedField = (
  label: string,
  description: string,
  problem: (text: string) => string | undefined,
  kind: string,
  { optional = false } = {},
) =>
  checkedTextField(
    label,
    description,
    (value) => {
      const found = value || !optional ? problem(value) : undefined;
      if (found) throw new FieldError(found);
    },
    asString(kind, optional),
  );

type Week<Day extends string> = Record<Day, string> | null;

/**
 * A week of opening hours that may be left out of the file (a host's own hours; left out, the
 * entry's apply): a checkbox, then one line per weekday as `openingHoursField` writes it, each
 * checked with the site's own rule.
 */
export function optionalWeekField<Day extends string>(
  label: string,
  description: string,
  days: readonly Day[],
  rule: Check,
): BasicFormField<Week<Day>> {
  const dayLabel = (day: string) => day[0]!.toUpperCase() + day.slice(1);
  const dayProblem = (day: Day, text: string) => {
    const problem = zodProblem(rule, ranges(text));
    return problem && `${dayLabel(day)}: ${problem}`;
  };
  const problem = (value: Week<Day>) =>
    value ? days.map((day) => dayProblem(day, value[day])).find(Boolean) : undefined;
  const parse = (value: FormFieldStoredValue): Week<Day> => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'object' || Array.isArray(value))
      throw new FieldError('must be a list of hours per weekday');
    const record = value as Record<string, FormFieldStoredValue>;
    const unknown = Object.keys(record).find((key) => !days.includes(key as Day));
    if (unknown) throw new FieldError(`has no weekday "${unknown}"`);
    return Object.fromEntries(
      days.map((day) => [day, listLine('times like "09:30-12:30"')(record[day])]),
    ) as Record<Day, string>;
  };
  return {
    kind: 'form',
    label,
    Input({ value, onChange, forceValidation }) {
      return (
        <Group label={label} description={description}>
          <Checkbox
            isSelected={value !== null}
            onChange={(own) =>
              onChange(
                own
                  ? (Object.fromEntries(days.map((day) => [day, ''])) as Record<Day, string>)
                  : null,
              )
            }
          >
            {label}
          </Checkbox>
          {value &&
            days.map((day) => (
              <CheckedText
                key={day}
                label={dayLabel(day)}
                description="Opening and closing times on a 24-hour clock, comma-separated; empty for none."
                value={value[day]}
                onChange={(text) => onChange({ ...value, [day]: text })}
                forceValidation={forceValidation}
                problem={(text) => dayProblem(day, text)}
              />
            ))}
        </Group>
      );
    },
    defaultValue: () => null,
    parse,
    serialize: (value) => ({
      value: value ? Object.fromEntries(days.map((day) => [day, ranges(value[day])])) : undefined,
    }),
    validate(value) {
      const shown = problem(value);
      if (shown) throw new FieldError(shown);
      return value;
    },
    reader: { parse: (value) => parse(value) },
  };
}

/**
 * A calendar date as availability.yaml writes it ("2026-12-25"), checked with the site's own rule
 * (`calendarDate` of src/domain/booking.ts), which refuses a day that does not exist (2026-02-30).
 */
export const calendarDateField = (label: string, description: string, rule: Check) =>
  checkedTextField(
    label,
    description,
    (value) => {
      const issue = rule.safeParse(value).error?.issues[0];
      if (issue) throw new FieldError(`${label} ${issue.message}`);
    },
    asString('a date like 2026-12-25'),
  );

/** Several choices of a fixed list, at least one of them (a project's portfolio tags). */
export function someOf(
  label: string,
  options: readonly string[],
  description: string,
): BasicFormField<string[]> {
  const validate = (value: string[]) => {
    if (value.length === 0) throw new FieldError(`${label}: choose at least one`);
    return value;
  };
  const parse = (value: FormFieldStoredValue) => {
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((item) => options.includes(item as string)))
      throw new FieldError(`must be a list of ${options.join(', ')}`);
    return value as string[];
  };
  return {
    kind: 'form',
    label,
    Input({ value, onChange, forceValidation }) {
      return (
        <CheckboxGroup
          label={label}
          description={description}
          value={[...value]}
          // Kept in the order of the options, as the files list them.
          onChange={(chosen) => onChange(options.filter((option) => chosen.includes(option)))}
          errorMessage={
            forceValidation || value.length === 0 ? problemOf(() => validate(value)) : undefined
          }
        >
          {options.map((option) => (
            <Checkbox key={option} value={option}>
              {option}
            </Checkbox>
          ))}
        </CheckboxGroup>
      );
    },
    defaultValue: () => [],
    parse,
    serialize: (value) => ({ value: [...value] }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}

/**
 * A service page's address ("laravel" for /laravel), which is also its file's name: one value, so
 * that two pages can never share an address without the editor saying so. Keystatic's own slug
 * field keeps the two apart, and its Duplicate copied the address to a new file name, replacing
 * the live page. A copy starts with no address and must be given its own.
 */
export function pageAddressField(
  label: string,
  description: string,
  rule: { regex: RegExp; message: string },
  taken: (address: string) => string | undefined,
  existing: readonly string[],
): SlugFormField<string, string, string, string> {
  const problem = (address: string, others: ReadonlySet<string> = new Set()) => {
    if (address === '') return 'Give the page an address of its own, e.g. "laravel" for /laravel';
    if (!rule.regex.test(address)) return `The address must be ${rule.message}`;
    if (others.has(address))
      return `Another page is already at /${address}: choose another address`;
    return taken(address);
  };
  const validate = (address: string, extra?: { slugField: { slugs: Set<string> } }): string => {
    const found = problem(address, extra?.slugField.slugs);
    if (found) throw new FieldError(found);
    return address;
  };
  const parse = (value: FormFieldStoredValue, extra?: { slug: string }) => {
    const address = typeof value === 'string' ? value : '';
    // Keystatic's Duplicate hands the copy the file name "<address>-copy": not an address to keep
    // (addresses may have hyphens, so it is told by that name, not by the rule).
    if (extra && extra.slug !== address && extra.slug.startsWith(`${address}-copy`)) return '';
    return address;
  };
  return {
    kind: 'form',
    formKind: 'slug',
    label,
    Input({ value, onChange, forceValidation }) {
      const [left, setLeft] = useState(false);
      // The pages there were when the editor opened, less this one (as it was when opened): Save
      // checks against Keystatic's own list, which this field cannot read.
      const [own] = useState(value);
      const others = new Set(existing.filter((address) => address !== own));
      const shown = forceValidation || left ? problem(value, others) : undefined;
      return (
        <TextField
          label={label}
          description={`${description} ${value && rule.regex.test(value) ? `This page: /${value}` : ''}`.trim()}
          value={value}
          onChange={(next) => onChange(next.trim().toLowerCase())}
          onBlur={() => setLeft(true)}
          errorMessage={shown}
          width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
        />
      );
    },
    defaultValue: () => '',
    parse,
    serialize: (value) => ({ value }),
    serializeWithSlug: (value) => ({ value, slug: value }),
    validate,
    reader: {
      parse: (value) => validate(parse(value)),
      parseWithSlug: (value, extra) => validate(parse(value, extra)),
    },
  };
}

/**
 * An item's id in a list whose ids must differ (a host's, which CALENDAR_FEEDS names): the list's
 * `slugField`, so that Keystatic hands it the other items' ids and it says which one is taken.
 */
const noSlugInfo = createContext<SlugInfo | undefined>(undefined);
const noPath = createContext<readonly unknown[]>([]);
const noIds: ReadonlySet<string> = new Set();

/**
 * The ids of the other items of the list whose item's dialog holds this field, as Keystatic's own
 * id fields read them (its context, made available by src/integrations/editor-keystatic.ts); none
 * where Keystatic gives none. Read on each render, so a later Keystatic without it still renders.
 */
function useOtherIds(): ReadonlySet<string> {
  const contexts = (globalThis as Record<symbol, unknown>)[Symbol.for(KEYSTATIC_CONTEXTS)] as
    | { SlugFieldContext: Context<SlugInfo | undefined>; PathContext: Context<readonly unknown[]> }
    | undefined;
  const slug = useContext(contexts?.SlugFieldContext ?? noSlugInfo);
  const path = useContext(contexts?.PathContext ?? noPath);
  // As Keystatic checks it: the item's own field, directly under the item.
  return slug && path.length === 1 && path[0] === slug.field ? slug.slugs : noIds;
}

/** A list item's id, checked at the field against the other items' ids too. */
function UniqueIdInput(
  props: Parameters<typeof CheckedText>[0] & {
    problem(id: string, others: ReadonlySet<string>): string | undefined;
  },
) {
  const others = useOtherIds();
  // Another item's id is said at once, as the item's row says it, not only once the field is left.
  return (
    <CheckedText
      {...props}
      forceValidation={props.forceValidation || others.has(props.value)}
      problem={(id) => props.problem(id, others)}
    />
  );
}

export function uniqueIdField(
  label: string,
  description: string,
  rule: { regex: RegExp; message: string },
  length: { min: number; max: number },
): SlugFormField<string, string, string, string> {
  const problem = (id: string, others: ReadonlySet<string> = noIds) => {
    if (id.length < length.min || id.length > length.max)
      return `${label} must be ${length.min}-${length.max} characters`;
    if (!rule.regex.test(id)) return `${label} must be ${rule.message}`;
    if (others.has(id))
      return `"${id}" is the ${label.toLowerCase()} of another item: each needs its own`;
    return undefined;
  };
  const validate = (id: string, extra?: { slugField: { slugs: Set<string> } }): string => {
    const found = problem(id, extra?.slugField.slugs);
    if (found) throw new FieldError(found);
    return id;
  };
  const parse = (value: FormFieldStoredValue) => (typeof value === 'string' ? value : '');
  return {
    kind: 'form',
    formKind: 'slug',
    label,
    Input: (props) => (
      <UniqueIdInput
        {...props}
        label={label}
        description={description}
        onChange={(next) => props.onChange(next.trim().toLowerCase())}
        problem={problem}
      />
    ),
    defaultValue: () => '',
    parse,
    serialize: (value) => ({ value }),
    serializeWithSlug: (value) => ({ value, slug: value }),
    validate,
    reader: {
      parse: (value) => validate(parse(value)),
      parseWithSlug: (value) => validate(parse(value)),
    },
  };
}

/** An e-mail address, checked with the forms' own rule (`isValidEmail` of src/domain/forms.ts). */
export const emailField = (
  label: string,
  description: string,
  isValidEmail: (value: string) => boolean,
) =>
  checkedTextField(
    label,
    description,
    (value) => {
      if (!isValidEmail(value))
        throw new FieldError(`"${value}" is not an e-mail address such as anna@agency.example`);
    },
    asString('an e-mail address'),
  );

/**
 * One of a fixed list, with no default: a new entry starts with none chosen and cannot be saved
 * until one is (Keystatic's select always starts on its first option, which then went unnoticed).
 */
export function oneOf(
  label: string,
  options: readonly { value: string; label: string }[],
  description?: string,
): BasicFormField<string> {
  const values = options.map((option) => option.value);
  const validate = (value: string) => {
    if (!values.includes(value)) throw new FieldError(`${label}: choose one`);
    return value;
  };
  const parse = (value: FormFieldStoredValue) => {
    if (value === undefined) return '';
    if (typeof value !== 'string' || !values.includes(value))
      throw new FieldError(`must be one of ${values.join(', ')}`);
    return value;
  };
  return {
    kind: 'form',
    label,
    Input({ value, onChange, forceValidation }) {
      return (
        <Picker
          label={label}
          description={description}
          placeholder="Choose one"
          items={options}
          value={value === '' ? null : value}
          onChange={(key) => key !== null && onChange(String(key))}
          errorMessage={forceValidation ? problemOf(() => validate(value)) : undefined}
          width={{ mobile: 'auto', tablet: 'alias.singleLineWidth' }}
        >
          {(item) => <Item key={item.value}>{item.label}</Item>}
        </Picker>
      );
    },
    defaultValue: () => '',
    parse,
    serialize: (value) => ({ value }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}

/**
 * A service's name, with the hero heading shown as the page will read it ("Laravel" makes
 * "Laravel Development").
 */
export function serviceTitleField(
  label: string,
  description: string,
  span: { min: number; max: number },
  heading: (title: string) => string,
): BasicFormField<string> {
  const validate = (text: string) => {
    if (text.length < span.min || text.length > span.max)
      throw new FieldError(`${label} must be ${span.min}-${span.max} characters`);
    return text;
  };
  return {
    kind: 'form',
    label,
    Input: (props) => (
      <Flex direction="column" gap="regular">
        <CheckedText
          {...props}
          label={label}
          description={description}
          problem={(text) => problemOf(() => validate(text))}
        />
        <Text size="small" color="neutralSecondary">
          {props.value ? `The page's heading reads: “${heading(props.value)}”` : ''}
        </Text>
      </Flex>
    ),
    defaultValue: () => '',
    parse: asString('a text').parse,
    serialize: (text) => ({ value: text }),
    validate,
    reader: { parse: (value) => validate(asString('a text').parse(value)) },
  };
}
