/**
 * What History says changed between two versions of an entry (src/editor/field-diff.ts): fields in
 * the editor's own labels, list items by their names, old and new text, never YAML lines.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  changedFields,
  changeName,
  fieldChanges,
  textParts,
  type FieldChange,
} from '../../src/editor/field-diff.ts';
import { contentPlace } from '../../src/content-model/places.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const service = 'src/content/services/ipad.mdx';
const ipad = read(service);

describe('fieldChanges', () => {
  it("names a service page's fields as the editor labels them, with their texts", () => {
    const after = ipad
      .replace('title: iPad App\n', 'title: iPad App Pro\n')
      .replace('keyboard instead of stretching', 'keyboard rather than stretching');
    expect(fieldChanges(service, ipad, after)).toEqual([
      { place: ['Service name'], kind: 'changed', before: 'iPad App', after: 'iPad App Pro' },
      {
        place: ['Hero', 'Hero text'],
        kind: 'changed',
        before: expect.stringContaining('Apple Pencil and keyboard instead of stretching a phone'),
        after: expect.stringContaining('Apple Pencil and keyboard rather than stretching a phone'),
      },
    ]);
    // The YAML's folding (`>-`, a line break inside the text) is not the text.
    const [, hero] = fieldChanges(service, ipad, after);
    expect(hero!.before).not.toMatch(/\n|>-/);
  });

  it('uses the labels the editor shows (src/editor/labels.ts reads them from its schema)', () => {
    const pairs: [string, string][] = [
      ['title', 'Service name'],
      ['hero.description', 'Hero → Hero text'],
      ['hero.alt', 'Hero → Alt text'],
      ['intro.title', 'Intro → Title'],
      ['seo.description', 'SEO → SEO description'],
      ['testimonials', 'Show testimonials'],
    ];
    for (const [path, words] of pairs)
      expect(contentPlace(service, path)).toBe(`Service pages → ipad → ${words}`);
    const after = ipad
      .replace(/^( {2}alt: ).*(?:\n {4}.*)*$/m, '$1An iPad on a desk')
      .replace(/^testimonials: true$/m, 'testimonials: false');
    expect(fieldChanges(service, ipad, after)).toEqual([
      {
        place: ['Hero', 'Alt text'],
        kind: 'changed',
        before: expect.stringContaining('Illustration of an iPad'),
        after: 'An iPad on a desk',
      },
      { place: ['Show testimonials'], kind: 'changed', before: 'Ticked', after: 'Not ticked' },
    ]);
  });

  it('names a list item by its name, not its position, and says items added, removed, reordered', () => {
    const tile = (title: string) =>
      `  - title: ${title}\n    summary: A tile.\n    icon: layout\n    alt: An icon\n`;
    const page = (tiles: string[]) => `---\nslug: x\ntitle: X\nservices:\n${tiles.join('')}---\n`;
    const file = 'src/content/services/x.mdx';
    const before = page([tile('Alpha'), tile('Beta'), tile('Gamma')]);
    // Beta's summary edited where it stands.
    expect(
      fieldChanges(
        file,
        before,
        before.replace('Beta\n    summary: A tile.', 'Beta\n    summary: Two tiles.'),
      ),
    ).toEqual([
      {
        place: ['Tiles', 'Beta', 'Summary'],
        kind: 'changed',
        before: 'A tile.',
        after: 'Two tiles.',
      },
    ]);
    // One added, one removed.
    const changes = fieldChanges(file, before, page([tile('Alpha'), tile('Gamma'), tile('Delta')]));
    expect(changes.map(changeName)).toEqual(['Tiles → Delta (added)', 'Tiles → Beta (removed)']);
    expect(changes[0]!.after).toBe(
      'Title: Delta\nSummary: A tile.\nIcon: layout\nAlt text: An icon',
    );
    // Reordered (dragged in the editor).
    expect(fieldChanges(file, before, page([tile('Gamma'), tile('Alpha'), tile('Beta')]))).toEqual([
      {
        place: ['Tiles'],
        kind: 'order',
        before: 'Alpha, Beta, Gamma',
        after: 'Gamma, Alpha, Beta',
      },
    ]);
  });

  it('names the entries of a list file by their names, and matches them by their ids', () => {
    const file = 'src/content/data/technologies.yaml';
    const text = read(file);
    const after = text
      .replace('href: /ipad\n', 'href: /ipad-apps\n')
      .replace(/ {2}- id: kotlin\n(?: {4}.*\n)+/, '');
    const changes = fieldChanges(file, text, after);
    expect(changes.map(changeName)).toEqual(['iPad → Link', 'Kotlin (removed)']);
    expect(changes[0]).toMatchObject({ before: '/ipad', after: '/ipad-apps' });
    expect(changedFields(changes)).toBe('iPad → Link, Kotlin (removed)');
  });

  it('says a list of texts by position, the options in their words, a button as the editor does', () => {
    const optionName = (_field: unknown, option: string) =>
      option === 'mobile-native' ? 'Mobile, native' : undefined;
    const after = ipad
      .replace('    - Apple Pencil\n', '    - Apple Pencil Pro\n')
      .replace('category: mobile-native', 'category: web')
      .replace('  button: inquire', '  button: none');
    expect(fieldChanges(service, ipad, after, { optionName })).toEqual([
      {
        place: ['Group on the services page'],
        kind: 'changed',
        before: 'Mobile, native',
        after: 'web',
      },
      {
        place: ['Hero', 'Button'],
        kind: 'changed',
        before: 'Inquire Now (external contact page)',
        after: 'No button',
      },
      {
        place: ['Intro', 'Tag lines', '2nd tag line'],
        kind: 'changed',
        before: 'Apple Pencil',
        after: 'Apple Pencil Pro',
      },
    ]);
  });

  it("a page copy's illustration, a week of hours, a text left empty", () => {
    const home = 'src/content/pages/home.yaml';
    const text = read(home);
    const changed = text.replace(/^( {4}alt: ).*(?:\n {6}.*)*$/m, '$1A new picture');
    expect(fieldChanges(home, text, changed)).toEqual([
      {
        place: ['Hero', 'Illustration', 'Alt text'],
        kind: 'changed',
        // The text, not the YAML that folds it (`>-` and its lines).
        before: expect.stringMatching(/^[^\n>]+$/),
        after: 'A new picture',
      },
    ]);
    const calls = 'src/content/data/availability.yaml';
    const hours = read(calls);
    const changes = fieldChanges(
      calls,
      hours,
      hours.replace(/saturday: \[\]/, 'saturday:\n        - 10:00-12:00'),
    );
    expect(changes).toEqual([
      {
        place: ['Calls', 'Opening hours', 'Saturday'],
        kind: 'changed',
        before: '',
        after: '10:00-12:00',
      },
    ]);
  });

  it('nothing for the same entry written otherwise; the whole text for a file it cannot read', () => {
    const folded = ipad.replace('title: iPad App', "title: 'iPad App'");
    expect(fieldChanges(service, ipad, folded)).toEqual([]);
    expect(fieldChanges(service, ipad, ipad)).toEqual([]);
    expect(fieldChanges(service, ipad, '---\ntitle: [unclosed\n---\n')).toEqual([
      {
        place: ['The whole text'],
        kind: 'changed',
        before: ipad,
        after: '---\ntitle: [unclosed\n---\n',
      },
    ]);
    expect(fieldChanges('src/content/other.txt', 'a', 'b')).toHaveLength(1);
  });

  it("the page text below a service page's blocks", () => {
    const withBody = `${ipad.trimEnd()}\n\nSome words below.\n`;
    expect(fieldChanges(service, ipad, withBody)).toEqual([
      {
        place: ['Page text (below the blocks)'],
        kind: 'changed',
        before: '',
        after: 'Some words below.',
      },
    ]);
  });
  it('quotes an item whose name has an arrow of its own (a redirect)', () => {
    const file = 'src/content/data/redirects.yaml';
    const before = 'entries:\n  - from: /old\n    to: /ipad\n';
    expect(fieldChanges(file, before, before.replace('/ipad', '/android')).map(changeName)).toEqual(
      ['“/old → /android” → To (new address)'],
    );
  });
});

describe('changedFields', () => {
  it('lists each field once, and counts the rest past a few', () => {
    const change = (name: string): FieldChange => ({
      place: [name],
      kind: 'changed',
      before: 'a',
      after: 'b',
    });
    expect(changedFields([change('A'), change('A'), change('B')])).toBe('A, B');
    expect(changedFields('ABCDEFGH'.split('').map(change), 4)).toBe('A, B, C and 5 more');
  });
});

describe('textParts', () => {
  it('marks the words that differ, with the words around them kept', () => {
    const { before, after } = textParts(
      'We build apps. They work offline.',
      'We build apps. They work offline. Added here.',
    );
    expect(before).toEqual([{ text: 'We build apps. They work offline.', changed: false }]);
    expect(after).toEqual([
      { text: 'We build apps. They work offline. ', changed: false },
      { text: 'Added here.', changed: true },
    ]);
    expect(after.map((part) => part.text).join('')).toBe(
      'We build apps. They work offline. Added here.',
    );
  });
});
