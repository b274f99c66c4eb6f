/**
 * Every example in content-schema.md is valid: copied into its file, it passes the real schema.
 * Each YAML block is checked against the collection its section is about.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collections } from '../../src/content.config';

type Schema = {
  safeParse(data: unknown): {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
};

const doc = readFileSync('content-schema.md', 'utf8');

/** The collection a section of the document is about, from its heading. */
function collectionOf(heading: string): keyof typeof collections | undefined {
  if (heading.startsWith('## Service pages')) return 'services';
  if (heading.startsWith('## Other pages')) return 'pages';
  const file = /^### `([a-z-]+)\.yaml`/.exec(heading)?.[1];
  if (!file) return undefined;
  const name = file.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return name in collections ? (name as keyof typeof collections) : undefined;
}

/** The YAML examples of the document, each with the heading it sits under. */
function examples() {
  const found: { heading: string; line: number; yaml: string }[] = [];
  let heading = '';
  const lines = doc.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{2,3} /.test(line)) heading = line;
    if (line === '```yaml') {
      const end = lines.indexOf('```', i + 1);
      found.push({ heading, line: i + 1, yaml: lines.slice(i + 1, end).join('\n') });
      i = end;
    }
  }
  return found;
}

const problems = (schema: Schema, data: unknown) => {
  const result = schema.safeParse(data);
  return result.success
    ? []
    : result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the examples of content-schema.md', () => {
  it('are found, one per kind of file at least', () => {
    const kinds = new Set(examples().map((e) => collectionOf(e.heading)));
    for (const name of Object.keys(collections)) expect(kinds, name).toContain(name);
  });

  for (const example of examples()) {
    const name = collectionOf(example.heading);
    it(`line ${example.line} (${name ?? 'no collection'}) passes the schema`, () => {
      expect(name, `no collection for "${example.heading}"`).toBeDefined();
      const schema = collections[name!].schema as unknown as Schema;
      if (name === 'services') {
        const frontmatter = /^---\n([\s\S]*?)\n---/.exec(example.yaml)![1]!;
        expect(problems(schema, parse(frontmatter))).toEqual([]);
      } else if (name === 'pages') {
        expect(problems(schema, parse(example.yaml))).toEqual([]);
      } else {
        // A data file holds its list under `entries:`, as the file loaders read it.
        const { entries } = parse(example.yaml) as { entries: unknown[] };
        expect(Array.isArray(entries)).toBe(true);
        for (const entry of entries) expect(problems(schema, entry)).toEqual([]);
      }
    });
  }
});
