/**
 * The visual editor (Keystatic, keystatic.config.ts → src/editor/schema.ts) and the site's schema
 * (src/content.config.ts) agree: (a) every real content file opens in Keystatic's reader; (b) what
 * Keystatic writes passes the site's schema, re-writing a file unchanged leaves it byte-identical, and
 * changing one field changes only that field's lines; (c) every field of the site's schema is declared
 * in the editor's, with the same limits. What the editor writes is src/editor/format.ts's
 * (tests/editor/ checks it against the editor itself, in Chromium).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createReader } from '@keystatic/core/reader';
import type { ComponentSchema } from '@keystatic/core';
import { load } from 'js-yaml';
import keystaticConfig from '../../keystatic.config';
import {
  editorText,
  entryOf,
  readEntry,
  serialise,
  splitFrontMatter,
  writeEntry,
} from '../../src/editor/format';
import { collections } from '../../src/content.config';
import { itemNoun, ordinal } from '../../src/content-model/places';
import { describeProblem, firstProblem, flagged } from '../../src/editor/problems';

const reader = createReader(process.cwd(), keystaticConfig);
const singletons = keystaticConfig.singletons as Record<string, any>;
const editorCollections = keystaticConfig.collections as Record<string, any>;

/** The site collection each editor singleton or collection stands for. */
const siteOf: Record<string, keyof typeof collections> = {
  services: 'services',
  pages: 'pages',
  testimonials: 'testimonials',
  portfolio: 'portfolio',
  homePortfolio: 'homePortfolio',
  feedback: 'feedback',
  pricing: 'pricing',
  enquiryServices: 'enquiryServices',
  technologies: 'technologies',
  settings: 'settings',
  availability: 'availability',
  redirects: 'redirects',
};

const siteSchema = (name: keyof typeof collections) =>
  (collections[name] as unknown as { schema: any }).schema;

/** The entry schema of an editor singleton or collection, as one object field. */
function editorEntry(name: string): Record<string, ComponentSchema> {
  if (name in singletons) {
    const entries = singletons[name]!.schema.entries as any;
    return entries.element.fields;
  }
  const { schema, slugField } = editorCollections[name]!;
  const { body: _body, ...rest } = schema as Record<string, ComponentSchema>;
  void slugField;
  // The pages' slug field is the file name, not a key of the file.
  if (name === 'pages') delete (rest as Record<string, unknown>).name;
  return rest;
}

// Zod 4: unwrap optional/default/pipe and read an object's shape, an array's element.
const defOf = (schema: any) => schema._zod.def;
function unwrap(schema: any): any {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable')
      current = def.innerType;
    else if (def.type === 'pipe') current = def.in.type === 'transform' ? def.out : def.in;
    else return current;
  }
}

/** Every field path of the site's schema ('hero.image', 'services.[].icon'), with its leaf. */
function sitePaths(schema: any, prefix = ''): string[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'object') {
    return Object.entries(def.shape).flatMap(([key, value]) => [
      `${prefix}${key}`,
      ...sitePaths(value, `${prefix}${key}.`),
    ]);
  }
  if (def.type === 'array') return sitePaths(def.element, `${prefix}[].`);
  return [];
}

function editorPaths(fields: Record<string, ComponentSchema>, prefix = ''): string[] {
  return Object.entries(fields).flatMap(([key, field]) => [
    `${prefix}${key}`,
    ...editorFieldPaths(field, `${prefix}${key}.`),
  ]);
}
function editorFieldPaths(field: ComponentSchema, prefix: string): string[] {
  if (field.kind === 'object') return editorPaths(field.fields, prefix);
  if (field.kind === 'array') return editorFieldPaths(field.element, `${prefix}[].`);
  return [];
}

/** The editor's own fields (src/editor/fields/) hold the whole sub-object: its keys are theirs. */
const customLeaves = ['hero.button', 'hero.illustration', 'hosts.[].hours'];
const underCustom = (path: string) => customLeaves.some((leaf) => path.startsWith(`${leaf}.`));

/** The names that differ on purpose between the site's and the editor's schema. */
export function missingFromEditor(
  siteName: keyof typeof collections,
  editor: Record<string, ComponentSchema>,
) {
  const inEditor = new Set(editorPaths(editor));
  return sitePaths(siteSchema(siteName)).filter(
    (path) => !underCustom(path) && !inEditor.has(path),
  );
}

describe('(c) every field of the site schema is in the editor schema', () => {
  it.each(Object.entries(siteOf))('%s', (editorName, siteName) => {
    const missing = missingFromEditor(siteName, editorEntry(editorName));
    expect(missing, `fields of ${siteName} missing from the editor`).toEqual([]);
    const site = new Set(sitePaths(siteSchema(siteName)));
    const extra = editorPaths(editorEntry(editorName)).filter(
      (path) => !site.has(path) && !underCustom(path),
    );
    expect(extra, `fields of the editor's ${editorName} the site does not know`).toEqual([]);
  });

  it('names a field added to the site schema but not to the editor', () => {
    const { z } = require('astro/zod') as typeof import('astro/zod');
    const grown = siteSchema('services').extend({ subtitle: z.string() });
    const missing = sitePaths(grown).filter(
      (path) => !underCustom(path) && !new Set(editorPaths(editorEntry('services'))).has(path),
    );
    expect(missing).toEqual(['subtitle']);
  });
});

const serviceSlugs = readdirSync('src/content/services').map((file) => file.replace(/\.mdx$/, ''));
const pageSlugs = readdirSync('src/content/pages').map((file) => file.replace(/\.yaml$/, ''));

describe('(a) every real content file opens in the editor reader', () => {
  it.each(serviceSlugs)('service %s', async (slug) => {
    const entry = await reader.collections.services.read(slug, { throwOnError: true } as any);
    expect(entry).not.toBeNull();
  });
  it.each(pageSlugs)('page %s', async (slug) => {
    const entry = await reader.collections.pages.read(slug, { throwOnError: true } as any);
    expect(entry).not.toBeNull();
  });
  it.each(Object.keys(singletons))('%s', async (name) => {
    const entry = await (reader.singletons as any)[name].read({ throwOnError: true });
    expect(entry).not.toBeNull();
  });
});

/** What the site's schema refuses in a value, as 'path: message' lines. */
const problems = (schema: any, value: unknown): string[] =>
  schema
    .safeParse(value)
    .error?.issues.map((issue: any) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

/** Every file the editor edits, as the repository holds it. */
const files = [
  ...serviceSlugs.map((slug) => `src/content/services/${slug}.mdx`),
  ...pageSlugs.map((slug) => `src/content/pages/${slug}.yaml`),
  ...Object.values(singletons).map((singleton) => `${singleton.path}.yaml`),
];

/** The data of a file the editor wrote: its front matter, or the whole YAML file. */
const dataOf = (path: string, text: string) =>
  load(path.endsWith('.mdx') ? splitFrontMatter(text).data : text) as Record<string, unknown>;

/** The site collection of a file, and the entries of it that the site's schema checks. */
function siteEntries(path: string, data: Record<string, unknown>) {
  const entry = entryOf(keystaticConfig, path)!;
  const site = siteOf[entry.name]!;
  return { site, entries: entry.kind === 'singleton' ? (data.entries as unknown[]) : [data] };
}

describe('(b) what the editor writes passes the site schema', () => {
  it.each(files)('%s', (path) => {
    const written = editorText(keystaticConfig, path, readFileSync(path, 'utf8'));
    const { site, entries } = siteEntries(path, dataOf(path, written));
    for (const entry of entries) expect(problems(siteSchema(site), entry)).toEqual([]);
  });
});

describe('saving an entry unchanged leaves its file byte-identical', () => {
  it.each(files)('%s', (path) => {
    const text = readFileSync(path, 'utf8');
    expect(
      editorText(keystaticConfig, path, text),
      `${path} is not in the editor's format: run npm run format:content`,
    ).toBe(text);
  });
});

/** The lines that differ between two texts: what is left once their common first and last lines go. */
function changedLines(before: string, after: string) {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (
    end < a.length - start &&
    end < b.length - start &&
    a[a.length - 1 - end] === b[b.length - 1 - end]
  )
    end++;
  return {
    removed: a.slice(start, a.length - end),
    added: b.slice(start, b.length - end),
    at: start,
  };
}

/** A file as the editor writes it after `change` edits one field of its data. */
function edited(path: string, change: (data: any) => void) {
  const text = readFileSync(path, 'utf8');
  const { data, body } = readEntry(keystaticConfig, path, text);
  change(data);
  return changedLines(text, writeEntry(keystaticConfig, path, data, body));
}

describe('changing one field changes only its lines', () => {
  it('a service title', () => {
    expect(
      edited('src/content/services/iphone.mdx', (data) => (data.title = 'iPhone Apps')),
    ).toMatchObject({ removed: ['title: iPhone App'], added: ['title: iPhone Apps'] });
  });

  it("a tile's summary inside the list of tiles", () => {
    const { removed, added } = edited('src/content/services/laravel.mdx', (data) => {
      data.services[2].summary = 'Slow work moved onto queues, watched in Horizon.';
    });
    expect(added).toEqual(['    summary: Slow work moved onto queues, watched in Horizon.']);
    expect(removed[0]).toMatch(/^ {4}summary: /);
    expect(removed.slice(1).every((line) => /^ {6}\S/.test(line))).toBe(true);
  });

  it("a testimonial's quote, folded over several lines", () => {
    const path = 'src/content/data/testimonials.yaml';
    const quote =
      'We came with a sketch and left with an app in both stores. Clear estimates, honest ' +
      'trade-offs and a demo every Friday kept us in control from the first week to launch.';
    const { removed, added, at } = edited(path, (data) => {
      data.entries.find((entry: any) => entry.id === 'glitty').content = quote;
    });
    // Only lines of the old quote go (from its key to the next key), only the new quote's come.
    const lines = readFileSync(path, 'utf8').split('\n');
    const from = lines.findIndex(
      (line, index) => line === '    content: >-' && lines[index - 2] === '  - id: glitty',
    );
    const to = lines.findIndex((line, index) => index > from && !line.startsWith('      '));
    expect(removed.length).toBeGreaterThan(0);
    expect(at).toBeGreaterThanOrEqual(from);
    expect(at + removed.length).toBeLessThanOrEqual(to);
    expect(added.every((line) => line.startsWith('      '))).toBe(true);
    const written = [
      ...lines.slice(from + 1, at),
      ...added,
      ...lines.slice(at + removed.length, to),
    ];
    expect(written.map((line) => line.trim()).join(' ')).toBe(quote);
  });

  it('a date of the closed days, and a plan switched to popular', () => {
    expect(
      edited('src/content/data/availability.yaml', (data) => {
        data.entries[0].closed[1].reason = 'Christmas';
      }),
    ).toMatchObject({
      removed: ['        reason: Christmas Day'],
      added: ['        reason: Christmas'],
    });
    expect(
      edited('src/content/data/pricing.yaml', (data) => (data.entries[0].popular = true)),
    ).toMatchObject({ removed: ['    popular: false'], added: ['    popular: true'] });
  });

  it("a page's heading", () => {
    expect(
      edited('src/content/pages/about.yaml', (data) => (data.hero.title = 'Meet the team')),
    ).toMatchObject({ removed: ['  title: Meet the company'], added: ['  title: Meet the team'] });
  });
});

/** The editor's verdict on one value of a field: its message, or undefined when it takes it. */
function editorRefuses(field: ComponentSchema, stored: unknown): string | undefined {
  try {
    serialise(field, stored);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("a list item's problem is named in its row", () => {
  /** What Keystatic hands an item label: the item's fields with their values. */
  const preview = (schema: any, value: any): any => {
    if (schema.kind === 'object')
      return {
        schema,
        fields: Object.fromEntries(
          Object.entries(schema.fields).map(([key, field]) => [key, preview(field, value[key])]),
        ),
      };
    if (schema.kind === 'array')
      return { schema, elements: value.map((item: unknown) => preview(schema.element, item)) };
    return { schema, value };
  };
  const tiles = (editorEntry('services') as any).services;
  const tile = {
    title: 'SwiftUI Interfaces',
    summary: 'Screens built in SwiftUI.',
    icon: 'mobile',
    alt: 'Phone icon',
  };

  it('a tile as the files hold it has none', () => {
    expect(firstProblem(preview(tiles.element, tile))).toBeUndefined();
    expect(flagged((props: any) => props.fields.title.value)(preview(tiles.element, tile))).toBe(
      'SwiftUI Interfaces',
    );
  });

  it('a tile with a title too long, or no such icon, is flagged with the problem', () => {
    const long = { ...tile, title: 'x'.repeat(300) };
    expect(flagged(() => 'Tile')(preview(tiles.element, long))).toMatch(
      /^Tile — needs fixing: Title must be no longer than \d+ characters$/,
    );
    expect(firstProblem(preview(tiles.element, { ...tile, icon: 'no-such-icon' }))).toEqual({
      path: ['Icon'],
      message: 'Icon: there is no icon named "no-such-icon" any more: choose another',
    });
  });

  it('a list with too few items is flagged', () => {
    expect(firstProblem(preview(tiles, [tile]))?.message).toBe('Tiles: at least 8');
  });

  it("a refused Save names the item and the field in the editor's words", () => {
    const eight = Array.from({ length: 8 }, () => tile);
    eight[2] = { ...tile, title: 'x' };
    const problem = firstProblem(preview(tiles, eight))!;
    // The tile by its name, as its row shows it; one with no name yet by its place.
    expect(problem.path).toEqual(['Tiles', 'x', 'Title']);
    expect(describeProblem(problem)).toMatch(/^Tiles → x → Title: must be \S/);
    eight[2] = { ...tile, title: '' };
    const unnamed = firstProblem(preview(tiles, eight))!;
    expect(unnamed.path).toEqual(['Tiles', '3rd tile', 'Title']);
    expect(describeProblem(unnamed)).toMatch(/^Tiles → 3rd tile → Title: \S/);
    expect(describeProblem({ path: ['Tiles'], message: 'Tiles: at least 8' })).toBe(
      'Tiles: at least 8',
    );
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '111th',
    ]);
    expect(['Tiles', 'Closed dates', 'Categories', 'Addresses', 'Team'].map(itemNoun)).toEqual([
      'tile',
      'closed date',
      'category',
      'address',
      'item',
    ]);
  });

  it('two hosts of one id: the list, and so the row of the entry that holds it, is flagged', () => {
    const hosts = (editorEntry('availability') as any).hosts;
    const anna = {
      id: 'anna',
      name: 'Anna Reid',
      email: 'anna@agency.example',
      hours: null,
      timeZone: '',
      meetingUrl: '',
    };
    const two = (second: object) => preview(hosts, [anna, { ...anna, ...second }]);
    expect(firstProblem(two({ id: 'ben' }))).toBeUndefined();
    const problem = firstProblem(two({ name: 'Anna Other' }))!;
    expect(problem.message).toBe('"anna" is the id of another item: each needs its own');
    expect(describeProblem(problem)).toBe(
      'Hosts → Anna Reid → Id: "anna" is the id of another item: each needs its own',
    );
  });
});

describe('where the site is stricter than a plain field, the editor refuses the same values', () => {
  const entryFields = (name: string) => editorEntry(name) as Record<string, any>;
  const calls = () =>
    (load(readFileSync('src/content/data/availability.yaml', 'utf8')) as { entries: any[] })
      .entries[0];
  /** The site's verdict on the availability entry with one field replaced. */
  const siteRefusesCalls = (change: (entry: any) => void) => {
    const entry = structuredClone(calls());
    change(entry);
    return problems(siteSchema('availability'), entry).length > 0;
  };

  it.each([
    [['apps'], false],
    [['websites', 'social-media'], false],
    [[], true],
  ])("a project's tags %j: refused %s", (tags, refused) => {
    const message = editorRefuses(entryFields('portfolio').tags, tags);
    expect(message !== undefined).toBe(refused);
    if (refused) expect(message).toContain('choose at least one');
    const project = (
      load(readFileSync('src/content/data/portfolio.yaml', 'utf8')) as { entries: any[] }
    ).entries[0];
    expect(problems(siteSchema('portfolio'), { ...project, tags }).length > 0).toBe(refused);
  });

  it.each([
    ['Europe/Berlin', false],
    ['America/Argentina/Buenos_Aires', false],
    ['Mars/Olympus_Mons', true],
    ['GMT+25', true],
  ])('time zone %s: refused %s', (zone, refused) => {
    const message = editorRefuses(entryFields('availability').timeZone, zone);
    expect(message !== undefined).toBe(refused);
    if (refused) expect(message).toContain('is not a time zone name');
    expect(siteRefusesCalls((entry) => (entry.timeZone = zone))).toBe(refused);
  });

  it.each([
    [['09:30-12:30', '13:30-17:00'], undefined],
    [[], undefined],
    [['09:30-12:30', '12:00-14:00'], 'ranges must not overlap'],
    [['12:30-09:30'], 'must open before it closes'],
    [['9.30-12:30'], 'like "09:30-12:30"'],
  ])('opening hours %j', (ranges, expected) => {
    const message = editorRefuses(entryFields('availability').hours.fields.monday, ranges);
    if (expected === undefined) expect(message).toBeUndefined();
    else expect(message).toContain(expected);
    expect(siteRefusesCalls((entry) => (entry.hours.monday = ranges))).toBe(expected !== undefined);
  });

  it.each([
    ['2026-12-25', undefined],
    ['2028-02-29', undefined],
    ['2026-02-30', '30 February 2026 does not exist'],
    ['2027-02-29', '29 February 2027 does not exist'],
    ['2026-04-31', '31 April 2026 does not exist'],
    ['2026-13-01', 'has no month 13'],
    ['25/12/2026', 'must be a date written like 2026-12-25'],
  ])('a closed day %s: refused with %s', (date, expected) => {
    const closed = entryFields('availability').closed.element;
    const message = editorRefuses(closed, { date, reason: '' });
    const refused = expected !== undefined;
    expect(message !== undefined).toBe(refused);
    if (refused) expect(message).toContain(expected);
    expect(siteRefusesCalls((entry) => (entry.closed = [{ date }]))).toBe(refused);
  });

  const anna = { id: 'anna', name: 'Anna Reid', email: 'anna@northgate-digital.example' };
  it.each([
    [[anna, { ...anna, id: 'ben' }], undefined],
    [[anna, { ...anna, name: 'Anna Two' }], '"anna" is the id of another'],
    [[{ ...anna, id: 'Anna Reid' }], 'lowercase letters, digits and dashes only'],
    [[{ ...anna, email: 'anna@' }], 'is not an e-mail address'],
    [[{ ...anna, email: 'ánna@northgate-digital.example' }], 'is not an e-mail address'],
    [
      [{ ...anna, hours: { ...calls().hours, monday: ['09:00-10:00', '09:30-11:00'] } }],
      'Monday: ranges must not overlap',
    ],
    [[{ ...anna, hours: { monday: ['09:00-10:00'] } }], undefined],
  ])('hosts %j: refused with %s', (hosts, expected) => {
    const message = editorRefuses(entryFields('availability').hosts, hosts);
    if (expected === undefined) expect(message).toBeUndefined();
    else expect(message).toContain(expected);
    // The site's schema takes a host's week whole; the editor fills the days not given.
    const site = (hosts as any[]).map((host) =>
      host.hours ? { ...host, hours: { ...calls().hours, ...host.hours } } : host,
    );
    expect(siteRefusesCalls((entry) => (entry.hosts = site))).toBe(expected !== undefined);
  });

  it("a host's own week is left out of the file until it is ticked, and written whole when it is", () => {
    const hours = entryFields('availability').hosts.element.fields.hours;
    expect(serialise(hours, undefined)).toBeUndefined();
    expect(serialise(hours, { monday: ['09:00-10:00'] })).toEqual({
      monday: ['09:00-10:00'],
      tuesday: [],
      wednesday: [],
      thursday: [],
      friday: [],
      saturday: [],
      sunday: [],
    });
  });

  it("a closed day's reason of more than 60 characters", () => {
    const closed = entryFields('availability').closed.element;
    const reason = 'r'.repeat(61);
    expect(editorRefuses(closed, { date: '2026-12-25', reason })).toContain('60');
    expect(siteRefusesCalls((entry) => (entry.closed = [{ date: '2026-12-25', reason }]))).toBe(
      true,
    );
  });
});

describe("content-schema.md's examples are in the layout the editor writes", () => {
  const lines = readFileSync('content-schema.md', 'utf8').split('\n');
  const examples: { heading: string; line: number; yaml: string }[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    if (/^#{2,3} /.test(lines[i]!)) heading = lines[i]!;
    if (lines[i] !== '```yaml') continue;
    const end = lines.indexOf('```', i + 1);
    examples.push({ heading, line: i + 1, yaml: lines.slice(i + 1, end).join('\n') + '\n' });
    i = end;
  }
  /** The file an example stands for (any file of its collection will do for the layout). */
  const fileOf = (heading: string) => {
    if (heading.startsWith('## Service pages')) return 'src/content/services/laravel.mdx';
    if (heading.startsWith('## Other pages')) return 'src/content/pages/about.yaml';
    return `src/content/data/${/^### `([a-z-]+\.yaml)`/.exec(heading)?.[1]}`;
  };

  it.each(examples.map((example) => [example.line, example] as const))(
    'line %i',
    (_, { heading, yaml }) => {
      expect(editorText(keystaticConfig, fileOf(heading), yaml)).toBe(yaml);
    },
  );
});

/**
 * (d) The limits agree, field by field: for every text the site's schema bounds, the lengths the
 * editor accepts (found by trying them with the editor field's own validate) are the site's; for
 * every list, the editor's count limits are the site's. A limit changed on one side only fails here,
 * naming the field.
 */
type Range = { min: number; max: number };
const lengthChecks = (schema: any): Partial<Range> & { pattern?: boolean } => {
  const out: Partial<Range> & { pattern?: boolean } = {};
  for (const check of defOf(schema).checks ?? []) {
    const def = check._zod.def;
    if (def.check === 'min_length') out.min = def.minimum;
    if (def.check === 'max_length') out.max = def.maximum;
    if (def.check === 'length_equals') out.min = out.max = def.length;
    if (def.check === 'string_format') out.pattern = true;
  }
  return out;
};
const isOptional = (schema: any) => ['optional', 'default'].includes(defOf(schema).type);

/** The shortest and longest text of 'a's the editor field accepts, up to 2,000 characters. */
function editorLengths(field: any): Range | undefined {
  const accepts = (n: number) => {
    try {
      field.validate(field.parse('a'.repeat(n), { slug: undefined }));
      return true;
    } catch {
      return false;
    }
  };
  const ok = Array.from({ length: 2001 }, (_, n) => accepts(n));
  const min = ok.indexOf(true);
  return min === -1 ? undefined : { min, max: ok.lastIndexOf(true) };
}

function limitMismatches(site: any, editor: ComponentSchema, path: string): string[] {
  const inner = unwrap(site);
  const def = defOf(inner);
  const field = editor as any;
  if (def.type === 'object' && field.kind === 'object') {
    return Object.entries(def.shape).flatMap(([key, value]) =>
      field.fields[key] && !underCustom(`${path}${key}.x`)
        ? limitMismatches(value, field.fields[key], `${path}${key}.`)
        : [],
    );
  }
  if (def.type === 'array' && field.kind === 'array') {
    const { min = 0, max = Infinity } = lengthChecks(inner);
    const own = field.validation?.length ?? {};
    const mismatch =
      (own.min ?? 0) !== min || (own.max ?? Infinity) !== max
        ? [`${path}[] count: site ${min}..${max}, editor ${own.min ?? 0}..${own.max ?? Infinity}`]
        : [];
    return [...mismatch, ...limitMismatches(def.element, field.element, `${path}[].`)];
  }
  if (def.type === 'string' && typeof field.validate === 'function') {
    const { min = 0, max = Infinity, pattern } = lengthChecks(inner);
    if (pattern || max === Infinity) return [];
    const editorRange = editorLengths(field);
    // An optional text: the editor writes nothing for an empty one.
    const expected = isOptional(site) ? { min: 0, max } : { min, max };
    const got = editorRange ?? { min: -1, max: -1 };
    const emptyAccepted = isOptional(site) && got.min === 0;
    const sameMin = emptyAccepted ? true : got.min === expected.min;
    return sameMin && got.max === expected.max
      ? []
      : [`${path.replace(/\.$/, '')} length: site ${min}..${max}, editor ${got.min}..${got.max}`];
  }
  return [];
}

describe('(d) the editor takes the lengths and counts the site takes', () => {
  it.each(Object.entries(siteOf))('%s', (editorName, siteName) => {
    const editor = {
      kind: 'object',
      fields: editorEntry(editorName),
    } as unknown as ComponentSchema;
    expect(limitMismatches(siteSchema(siteName), editor, '')).toEqual([]);
  });

  it('names a field whose limit changed on one side only', () => {
    const shorter = siteSchema('testimonials').extend({
      company: (require('astro/zod') as typeof import('astro/zod')).z.string().min(2).max(39),
    });
    const editor = {
      kind: 'object',
      fields: editorEntry('testimonials'),
    } as unknown as ComponentSchema;
    expect(limitMismatches(shorter, editor, '')).toEqual([
      'company length: site 2..39, editor 2..40',
    ]);
  });
});

describe("a service page's address is its file's name, and no two pages share one", () => {
  const address = (editorCollections.services.schema as any).slug;
  const others = (...slugs: string[]) => ({ slugField: { slugs: new Set(slugs), glob: '*' } });
  const refusal = (value: string, ...slugs: string[]) => {
    try {
      address.validate(value, others(...slugs));
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('writes the address as the file name and the slug alike', () => {
    expect(address.serializeWithSlug('laravel')).toEqual({ value: 'laravel', slug: 'laravel' });
    expect(address.parse('laravel', { slug: 'laravel' })).toBe('laravel');
  });

  it("gives Keystatic's duplicate (file name laravel-copy) no address, so it must be given one", () => {
    const copy = address.parse('laravel', { slug: 'laravel-copy' });
    expect(copy).toBe('');
    expect(refusal(copy, 'laravel')).toMatch(/Give the page an address of its own/);
  });

  it("refuses another page's address, a fixed page's, and one the site's rule refuses", () => {
    expect(refusal('iphone', 'iphone', 'laravel')).toBe(
      'Another page is already at /iphone: choose another address',
    );
    expect(refusal('about')).toBe("/about is one of the site's own pages: choose another address");
    expect(refusal('react-native')).toBeUndefined();
    for (const bad of ['React-Native', 'react--native', '-native', 'react-', 'react native'])
      expect(refusal(bad), bad).toMatch(/The address must be lowercase letters and digits/);
    expect(refusal('swift', 'iphone', 'laravel')).toBeUndefined();
  });

  it('a refused Save of a page at a taken address names the field, as Save checks it', () => {
    const entry = (value: string) => ({
      schema: { kind: 'object', fields: { slug: address } },
      fields: { slug: { schema: address, value } },
    });
    const slugInfo = { field: 'slug', slugs: new Set(['iphone', 'laravel']), glob: '*' };
    expect(describeProblem(firstProblem(entry('iphone') as any, [], slugInfo)!)).toBe(
      'Page address: Another page is already at /iphone: choose another address',
    );
    expect(firstProblem(entry('swift') as any, [], slugInfo)).toBeUndefined();
    // Without the other pages' addresses (a singleton's Save), the address alone is checked.
    expect(firstProblem(entry('iphone') as any)).toBeUndefined();
  });
});
