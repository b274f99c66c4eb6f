/**
 * Two versions of one entry, field by field (src/editor/merge.ts): what the editor's conflict view
 * shows when a Save is refused because the file changed since it was opened, and the file the
 * marketer's choices make. On the project's own content files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { editorText } from '../../src/editor/format';
import {
  differences,
  editorAddress,
  keyOf,
  merged,
  type Side,
  type Version,
} from '../../src/editor/merge';
import editorConfig from '../../src/editor/schema';

const path = 'src/content/services/ipad.mdx';
const text = readFileSync(path, 'utf8');
const base: Version = { path, text };
const edit = (from: string, to: string, version = base): Version => {
  expect(version.text).toContain(from);
  return { ...version, text: version.text.replace(from, to) };
};

describe('two versions of an entry, field by field', () => {
  it('names each field that differs in the editor’s words, and who changed it', () => {
    const mine = edit('title: iPad App\n', 'title: iPad App Pro\n');
    const theirs = edit('reliable connection.', 'reliable connection. Also offline.');
    const found = differences(mine, theirs, base);
    expect(found.map(({ label, changedBy }) => [label, changedBy])).toEqual([
      ['Service name', 'mine'],
      ['Hero → Hero text', 'theirs'],
    ]);
    expect(found[0]).toMatchObject({ mine: 'iPad App Pro', theirs: 'iPad App' });
  });

  it('merged as suggested, the file holds both changes, written as the editor writes it', () => {
    const mine = edit('title: iPad App\n', 'title: iPad App Pro\n');
    const theirs = edit('reliable connection.', 'reliable connection. Also offline.');
    const found = differences(mine, theirs, base);
    const result = merged(mine, theirs, found, new Map());
    expect(result.path).toBe(path);
    expect(result.text).toContain('title: iPad App Pro\n');
    expect(result.text).toContain('Also offline.');
    expect(editorText(editorConfig as never, path, result.text)).toBe(result.text);
    // Every field from one side: that side's text, byte for byte.
    const all = (side: Side) => new Map(found.map((d) => [keyOf(d.path), side]));
    expect(merged(mine, theirs, found, all('mine'))).toBe(mine);
    expect(merged(mine, theirs, found, all('theirs'))).toBe(theirs);
  });

  it('a field both changed is the marketer’s unless they take the other', () => {
    const mine = edit('title: iPad App\n', 'title: Mine\n');
    const theirs = edit('title: iPad App\n', 'title: Theirs\n');
    const [title] = differences(mine, theirs, base);
    expect(title).toMatchObject({ label: 'Service name', changedBy: 'both' });
    expect(merged(mine, theirs, [title!], new Map())).toBe(mine);
    // Without the version both began from, who changed it is not known.
    expect(differences(mine, theirs).map((d) => d.changedBy)).toEqual(['both']);
  });

  it('a page renamed in one version: its address is a field, and keeping the other’s keeps its file', () => {
    const renamed = edit('slug: ipad\n', 'slug: ipad-apps\n');
    const mine = { path: 'src/content/services/ipad-apps.mdx', text: renamed.text };
    const theirs = edit('order: 20\n', 'order: 21\n');
    const found = differences(mine, theirs, base);
    expect(found.map((d) => [d.label, d.changedBy])).toEqual([
      ['Page address', 'mine'],
      ['Order', 'theirs'],
    ]);
    expect(merged(mine, theirs, found, new Map()).path).toBe(mine.path);
    const kept = merged(mine, theirs, found, new Map([[keyOf(found[0]!.path), 'theirs']]));
    expect(kept.path).toBe(path);
    expect(kept.text).toContain('slug: ipad\n');
    expect(kept.text).toContain('order: 21\n');
    expect(editorAddress(kept.path)).toBe('/keystatic/collection/services/item/ipad');
  });

  it('a list file: items compared one by one while both hold the same items', () => {
    const file = 'src/content/data/technologies.yaml';
    const list: Version = { path: file, text: readFileSync(file, 'utf8') };
    const mine = edit('name: iPad\n', 'name: iPad and iPadOS\n', list);
    const theirs = edit('monogram: iOS\n', 'monogram: iO\n', list);
    const found = differences(mine, theirs, list);
    expect(found.map((d) => [d.label, d.changedBy])).toEqual([
      ['1st technology → Monogram', 'theirs'],
      ['2nd technology → Name', 'mine'],
    ]);
    const both = merged(mine, theirs, found, new Map());
    expect(both.text).toContain('name: iPad and iPadOS\n');
    expect(both.text).toContain('monogram: iO\n');
    // An item added on one side: the whole list is one field.
    const added = edit(
      'entries:\n',
      'entries:\n  - id: new\n    name: New\n    href: /new\n',
      list,
    );
    expect(differences(added, theirs, list).map((d) => d.label)).toEqual(['Technologies']);
    expect(editorAddress(file)).toBe('/keystatic/singleton/technologies');
  });
});
