/**
 * A content mistake's place in the editor's words (src/content-model/places.ts), made from the
 * content model as the editor's schema is: what the dev site's error page and the build's messages
 * say beside the file and field, and the editor's own messages.
 */
import { describe, expect, it } from 'vitest';
import { contentPlace } from '../../src/content-model/places';

describe('contentPlace', () => {
  it("a page section's link", () => {
    expect(contentPlace('src/content/pages/home.yaml', 'sections.0.items.0.links.1.href')).toBe(
      'Page copy → home → Sections → 1st section → Items → 1st item → Links → 2nd link → Link',
    );
  });

  it("a service page's tile, its hero, its text", () => {
    expect(contentPlace('src/content/services/iphone.mdx', 'services.2.summary')).toBe(
      'Service pages → iphone → Tiles → 3rd tile → Summary',
    );
    expect(contentPlace('src/content/services/iphone.mdx', 'hero.button.href')).toBe(
      'Service pages → iphone → Hero → Button',
    );
    expect(contentPlace('src/content/services/iphone.mdx', 'intro.tagLines.1')).toBe(
      'Service pages → iphone → Intro → Tag lines → 2nd tag line',
    );
    expect(contentPlace('src/content/services/iphone.mdx', 'body')).toBe(
      'Service pages → iphone → Page text (below the blocks)',
    );
  });

  it("a list file's entry", () => {
    expect(contentPlace('src/content/data/technologies.yaml', 'entries.16.href')).toBe(
      'Technologies → 17th technology → Link',
    );
    expect(contentPlace('src/content/data/testimonials.yaml', 'entries.0.content')).toBe(
      'Testimonials → 1st testimonial → Quote',
    );
  });

  it('a list inside a list entry, and a key the editor does not know', () => {
    expect(contentPlace('src/content/data/pricing.yaml', 'entries.1.features.10')).toBe(
      'Pricing → 2nd item → Features → 11th feature',
    );
    expect(contentPlace('src/content/data/availability.yaml', 'entries.0.hosts.2.name')).toBe(
      'Availability → 1st item → Hosts → 3rd host → Name',
    );
    expect(contentPlace('src/content/services/iphone.mdx', 'hero.imgae')).toBe(
      'Service pages → iphone → Hero → imgae',
    );
  });

  it("names a list's items by their names when the file's values are known; a text alone by its place", () => {
    const technologies = { entries: [{ name: 'Laravel' }, { name: 'Symfony', href: '/x' }] };
    expect(contentPlace('src/content/data/technologies.yaml', 'entries.1.href', technologies)).toBe(
      'Technologies → Symfony → Link',
    );
    const home = {
      sections: [
        {
          title: 'What we build',
          items: [{ title: 'Web apps', links: [{ label: 'Laravel' }, { label: 'Symfony' }] }],
        },
      ],
    };
    expect(
      contentPlace('src/content/pages/home.yaml', 'sections.0.items.0.links.1.href', home),
    ).toBe(
      'Page copy → home → Sections → What we build → Items → Web apps → Links → Symfony → Link',
    );
    const iphone = { services: [{}, {}, { title: '' }], intro: { tagLines: ['a', 'b'] } };
    // An item with no name yet, and a text alone: their places.
    expect(contentPlace('src/content/services/iphone.mdx', 'services.2.title', iphone)).toBe(
      'Service pages → iphone → Tiles → 3rd tile → Title',
    );
    expect(contentPlace('src/content/services/iphone.mdx', 'intro.tagLines.1', iphone)).toBe(
      'Service pages → iphone → Intro → Tag lines → 2nd tag line',
    );
    // A long name, shortened.
    const long = {
      entries: [{ company: 'A company whose name runs on far beyond a line of a message' }],
    };
    expect(contentPlace('src/content/data/testimonials.yaml', 'entries.0.content', long)).toBe(
      'Testimonials → A company whose name runs on far beyond… → Quote',
    );
  });

  it("quotes an item's name that holds an arrow of its own, among the place's arrows", () => {
    const redirects = { entries: [{ from: '/old', to: '/iphone' }] };
    expect(contentPlace('src/content/data/redirects.yaml', 'entries.0.to', redirects)).toBe(
      'Redirects (old addresses) → “/old → /iphone” → To (new address)',
    );
  });

  it('a file the editor does not show', () => {
    expect(contentPlace('src/content/other/x.yaml', 'a')).toBeUndefined();
    expect(contentPlace('src/content/pages/sub/x.yaml', 'a')).toBeUndefined();
  });
});
