/**
 * content-schema.md stays complete and true: its field reference is the one the content model makes
 * (`npm run docs:content`), and every field of every collection is named in it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'astro/zod';
import { describe, expect, it } from 'vitest';
import { currentReference } from '../../scripts/content-docs.mjs';
import { collections } from '../../src/content.config';
import { withReference } from '../../src/content-model/reference';

/** A JSON Schema, as far as this walk reads it. */
type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/**
 * Every field name of a schema, nested ones included, read from zod 4's public JSON Schema of it
 * (the input an editor writes; a type JSON Schema cannot express, such as a transform, counts as
 * "any" instead of failing the walk).
 */
function fieldNames(schema: z.ZodType): Set<string> {
  const names = new Set<string>();
  const walk = (node: JsonSchema | undefined) => {
    if (!node || typeof node !== 'object') return;
    for (const [name, field] of Object.entries(node.properties ?? {})) {
      names.add(name);
      walk(field);
    }
    for (const item of ([] as (JsonSchema | undefined)[]).concat(node.items)) walk(item);
    for (const option of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
      walk(option);
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  return names;
}

const doc = readFileSync('content-schema.md', 'utf8');

describe("content-schema.md's field reference", () => {
  it('is the one the content model makes: run npm run docs:content', async () => {
    expect(await currentReference(doc)).toBe(doc);
  });

  it('is told from a list edited by hand, and its place from a lost marker', async () => {
    const edited = doc.replace('`title` (**Service name**) — text, 2-40.', '`title` — text, 2-50.');
    expect(edited).not.toBe(doc);
    expect(await currentReference(edited)).toBe(doc);
    const lost = doc.replace(/<!-- End of the fields of pricing\. -->/, '');
    expect(() => withReference(lost)).toThrow(/no place for the fields of pricing/);
  });
});

describe('content-schema.md', () => {
  it('reads the nested fields of the service pages', () => {
    const fields = fieldNames(collections.services.schema as z.ZodType);
    for (const nested of ['tagLines', 'summary', 'count', 'button', 'href'])
      expect(fields).toContain(nested);
  });

  for (const [name, collection] of Object.entries(collections)) {
    it(`documents every field of ${name}`, () => {
      const fields = fieldNames(collection.schema as z.ZodType);
      expect(fields.size).toBeGreaterThan(1);
      const missing = [...fields].filter(
        (field) => field !== 'id' && !new RegExp('`[^`]*\\b' + field + '\\b[^`]*`').test(doc),
      );
      expect(missing).toEqual([]);
    });
  }
});
