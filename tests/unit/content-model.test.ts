/**
 * The content model (src/content-model/) is the one place a field is declared: the site's schema,
 * the editor's and content-schema.md's reference are made from it. ARCHITECTURE.md's recipe "Add a
 * field", followed in memory: an optional field added to the service page's declaration, and
 * nothing else, is taken by the build, shown and written by the editor, and explained in the
 * reference.
 */
import { readFileSync } from 'node:fs';
import { z } from 'astro/zod';
import { describe, expect, it } from 'vitest';
import { collections } from '../../src/content.config';
import { contentModel } from '../../src/content-model';
import { text } from '../../src/content-model/fields';
import { fieldReference } from '../../src/content-model/reference';
import { siteSchema } from '../../src/content-model/zod';
import { readEntry, writeEntry } from '../../src/editor/format';
import { contentPlace } from '../../src/content-model/places';
import { editorConfig } from '../../src/editor/schema';
import { currentAssetNames } from '../../src/shared/asset-names';
import { patterns } from '../../src/domain/content-rules';

const checks = { imageNames: currentAssetNames };
const iphone = 'src/content/services/iphone.mdx';

/** The recipe's one edit: the field's declaration, among the service page's fields. */
const subtitle = text({
  label: 'Subtitle',
  span: { min: 2, max: 60 },
  optional: true,
  hint: 'A short line under the heading.',
  about: 'A line under the page heading.',
});
const grown = {
  ...contentModel,
  services: {
    ...contentModel.services,
    fields: { ...contentModel.services.fields, subtitle },
  },
};

const json = (schema: unknown) => z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any' });

describe('the site and the editor are made from the model', () => {
  it.each(Object.keys(contentModel) as (keyof typeof contentModel)[])(
    "the build's schema of %s is the model's",
    (name) => {
      const built = (collections[name] as { schema: unknown }).schema;
      expect(json(built)).toEqual(json(siteSchema(contentModel[name], checks)));
    },
  );

  it("the editor's schema is the model's", () => {
    const config = editorConfig();
    expect(Object.keys(config.collections)).toEqual(['services', 'pages']);
    expect(Object.keys(config.singletons).sort()).toEqual(
      Object.keys(contentModel)
        .filter((name) => name !== 'services' && name !== 'pages')
        .sort(),
    );
  });
});

describe('"Add a field": an optional field declared on the service page, and nothing else', () => {
  const schema = siteSchema(grown.services, checks);
  const page = readEntry(editorConfig(), iphone, readFileSync(iphone, 'utf8')).data;
  const problems = (data: unknown) =>
    schema.safeParse(data).error?.issues.map((issue) => issue.path.join('.')) ?? [];

  it('the build takes it when present, and a page without it as before', () => {
    const parsed = schema.parse({ ...page, subtitle: 'Native apps for every iPhone' });
    expect(parsed.subtitle).toBe('Native apps for every iPhone');
    expect(schema.parse(page).subtitle).toBeUndefined();
    expect(problems(page)).toEqual([]);
  });

  it('the build refuses it outside its limits, naming it', () => {
    expect(problems({ ...page, subtitle: 'x' })).toEqual(['subtitle']);
    expect(problems({ ...page, subtitle: 'x'.repeat(61) })).toEqual(['subtitle']);
    expect(problems({ ...page, subtitle: 42 })).toEqual(['subtitle']);
  });

  it('the editor shows it, with its label and hint, and writes it, leaving an empty one out', () => {
    const config = editorConfig(grown);
    const field = config.collections.services.schema.subtitle as {
      label: string;
      validate(value: string): unknown;
    };
    expect(field.label).toBe('Subtitle');
    expect(() => field.validate('x'.repeat(61))).toThrow(/Subtitle/);
    const written = writeEntry(config, iphone, { ...page, subtitle: 'Native apps' }, '');
    expect(written).toMatch(/^subtitle: Native apps$/m);
    expect(writeEntry(config, iphone, { ...page, subtitle: '' }, '')).not.toMatch(/subtitle/);
    expect(contentPlace(iphone, 'subtitle', undefined, grown)).toBe(
      'Service pages → iphone → Subtitle',
    );
  });

  it('the reference explains it, with its limits, its label and its words', () => {
    expect(fieldReference(grown.services)).toContain(
      '- `subtitle` (**Subtitle**) — text, 2-60, optional. A line under the page heading.',
    );
    expect(fieldReference(contentModel.services)).not.toContain('subtitle');
  });
});

describe('links', () => {
  // The build's and the editor's link checks (src/lib/content-checks.ts internalLinks) and the
  // editor's "Point them at" read a link to a page of the site under an `href` key: a link field
  // named otherwise went unchecked (pricing's sign-up link, once `signUp`).
  it('every field holding a path of the site is named href', () => {
    const misnamed: string[] = [];
    const seen = new Set<unknown>();
    const walk = (value: unknown, path: string[]) => {
      if (!value || typeof value !== 'object' || seen.has(value)) return;
      seen.add(value);
      for (const [key, item] of Object.entries(value)) {
        const rule = (item as { rule?: unknown } | null)?.rule;
        if (rule === patterns.internalPath && key !== 'href')
          misnamed.push([...path, key].join('.'));
        walk(item, [...path, key]);
      }
    };
    walk(contentModel, []);
    expect(seen.size).toBeGreaterThan(50);
    expect(misnamed).toEqual([]);
  });
});
