/**
 * A content mistake's place in the editor's words (src/editor/labels.ts), read from the editor's
 * schema: what the dev site's error page and the build's messages say beside the file and field.
 */
import { describe, expect, it } from 'vitest';
import { editorPlace } from '../../src/editor/labels';

describe('editorPlace', () => {
  it("a page section's link", () => {
    expect(editorPlace('src/content/pages/home.yaml', 'sections.0.items.0.links.1.href')).toBe(
      'Page copy → home → Sections → 1st section → Items → 1st item → Links → 2nd link → Link',
    );
  });

  it("a service page's tile, its hero, its text", () => {
    expect(editorPlace('src/content/services/iphone.mdx', 'services.2.summary')).toBe(
      'Service pages → iphone → Tiles → 3rd tile → Summary',
    );
    expect(editorPlace('src/content/services/iphone.mdx', 'hero.button.href')).toBe(
      'Service pages → iphone → Hero → Button',
    );
    expect(editorPlace('src/content/services/iphone.mdx', 'intro.tagLines.1')).toBe(
      'Service pages → iphone → Intro → Tag lines → 2nd tag line',
    );
    expect(editorPlace('src/content/services/iphone.mdx', 'body')).toBe(
      'Service pages → iphone → Page text (below the blocks)',
    );
  });

  it("a list file's entry", () => {
    expect(editorPlace('src/content/data/technologies.yaml', 'entries.16.href')).toBe(
      'Technologies → 17th technology → Link',
    );
    expect(editorPlace('src/content/data/testimonials.yaml', 'entries.0.content')).toBe(
      'Testimonials → 1st testimonial → Quote',
    );
  });

  it('a list inside a list entry, and a key the editor does not know', () => {
    expect(editorPlace('src/content/data/pricing.yaml', 'entries.1.features.10')).toBe(
      'Pricing → 2nd item → Features → 11th feature',
    );
    expect(editorPlace('src/content/data/availability.yaml', 'entries.0.hosts.2.name')).toBe(
      'Availability → 1st item → Hosts → 3rd host → Name',
    );
    expect(editorPlace('src/content/services/iphone.mdx', 'hero.imgae')).toBe(
      'Service pages → iphone → Hero → imgae',
    );
  });

  it("names a list's items by their names when the file's values are known; a text alone by its place", () => {
    const technologies = { entries: [{ name: 'Laravel' }, { name: 'Symfony', href: '/x' }] };
    expect(
      editorPlace('src/content/data/technologies.yaml', 'entries.1.href', undefined, technologies),
    ).toBe('Technologies → Symfony → Link');
    const home = {
      sections: [
        {
          title: 'What we build',
          items: [{ title: 'Web apps', links: [{ label: 'Laravel' }, { label: 'Symfony' }] }],
        },
      ],
    };
    expect(
      editorPlace(
        'src/content/pages/home.yaml',
        'sections.0.items.0.links.1.href',
        undefined,
        home,
      ),
    ).toBe(
      'Page copy → home → Sections → What we build → Items → Web apps → Links → Symfony → Link',
    );
    const iphone = { services: [{}, {}, { title: '' }], intro: { tagLines: ['a', 'b'] } };
    // An item with no name yet, and a text alone: their places.
    expect(
      editorPlace('src/content/services/iphone.mdx', 'services.2.title', undefined, iphone),
    ).toBe('Service pages → iphone → Tiles → 3rd tile → Title');
    expect(
      editorPlace('src/content/services/iphone.mdx', 'intro.tagLines.1', undefined, iphone),
    ).toBe('Service pages → iphone → Intro → Tag lines → 2nd tag line');
    // A long name, shortened.
    const long = {
      entries: [{ company: 'A company whose name runs on far beyond a line of a message' }],
    };
    expect(
      editorPlace('src/content/data/testimonials.yaml', 'entries.0.content', undefined, long),
    ).toBe('Testimonials → A company whose name runs on far beyond… → Quote');
  });

  it('a file the editor does not show', () => {
    expect(editorPlace('src/content/other/x.yaml', 'a')).toBeUndefined();
    expect(editorPlace('src/content/pages/sub/x.yaml', 'a')).toBeUndefined();
  });
});
