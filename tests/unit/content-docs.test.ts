/** content-schema.md stays complete: every field of every collection is named in it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collections } from '../../src/content.config';

type Def = {
  type: string;
  innerType?: Schema;
  element?: Schema;
  shape?: Record<string, Schema>;
  options?: Schema[];
};
type Schema = { _zod: { def: Def } };

/** Every field name of a schema, nested ones included. */
function fieldNames(schema: Schema, names = new Set<string>()): Set<string> {
  const def = schema._zod.def;
  if (def.innerType) return fieldNames(def.innerType, names);
  if (def.type === 'array' && def.element) return fieldNames(def.element, names);
  if (def.type === 'union') {
    for (const option of def.options ?? []) fieldNames(option, names);
    return names;
  }
  if (def.type === 'object' && def.shape) {
    for (const [name, field] of Object.entries(def.shape)) {
      names.add(name);
      fieldNames(field, names);
    }
  }
  return names;
}

const doc = readFileSync('content-schema.md', 'utf8');

describe('content-schema.md', () => {
  it('reads the nested fields of the service pages', () => {
    const fields = fieldNames(collections.services.schema as unknown as Schema);
    for (const nested of ['tagLines', 'summary', 'count', 'button', 'href'])
      expect(fields).toContain(nested);
  });

  for (const [name, collection] of Object.entries(collections)) {
    it(`documents every field of ${name}`, () => {
      const fields = fieldNames(collection.schema as unknown as Schema);
      expect(fields.size).toBeGreaterThan(1);
      const missing = [...fields].filter(
        (field) => field !== 'id' && !new RegExp('`[^`]*\\b' + field + '\\b[^`]*`').test(doc),
      );
      expect(missing).toEqual([]);
    });
  }
});
