/** The copy of a page that is not a service page: src/content/pages/<page>.yaml, one shape for all. */
import { fileLengths, patterns } from '../domain/content-rules.ts';
import { folder } from './collections.ts';
import { group, illustration, list, pattern, text } from './fields.ts';
import { icon, link, paragraph, seo } from './shared.ts';

const { page } = fileLengths;

export const pages = folder({
  label: 'Page copy',
  folder: 'src/content/pages',
  extension: 'yaml',
  named: {
    label: 'Page',
    hint: 'Which page of the site this is the copy of, e.g. "about" for the About page.',
  },
  fields: {
    seo,
    hero: group({
      label: 'Hero',
      // The editor always writes it; a file written by hand may leave it out.
      optional: true,
      about: 'The top of the page.',
      fields: {
        eyebrow: text({
          label: 'Eyebrow',
          span: page.eyebrow,
          optional: true,
          about: 'The small label above the page heading.',
        }),
        title: text({ label: 'Title', span: page.title, about: 'The page heading.' }),
        description: text({
          label: 'Description',
          span: page.description,
          optional: true,
          about: 'The sentence under the heading.',
        }),
        illustration: illustration({
          label: 'Illustration',
          hint: 'An illustration beside the heading.',
          about:
            'An illustration beside the heading: `image` names a file of `src/assets/illustrations`, `alt` says what it shows (3-150). The home page has one.',
        }),
      },
    }),
    sections: list({
      label: 'Sections',
      default: [],
      itemLabel: (section) => section.title,
      about: "The page's sections, found by their `id`.",
      of: group({
        fields: {
          id: pattern({
            label: 'Section name',
            rule: patterns.sectionId,
            hint: 'The end of the link to this section (#grow-with-us); the page finds the section by it, so keep it as it is.',
            about:
              'Which section this is. **Keep the ids as they are**: the page looks its sections up by id, and a missing one stops the build.',
          }),
          eyebrow: text({
            label: 'Eyebrow',
            span: page.eyebrow,
            optional: true,
            about: 'The small label above the section heading.',
          }),
          title: text({ label: 'Title', span: page.title, about: 'The section heading.' }),
          paragraphs: list({
            label: 'Paragraphs',
            of: paragraph,
            default: [],
            itemLabel: (text) => text.slice(0, 60),
            about: 'The text under the heading.',
          }),
          items: list({
            label: 'Items',
            default: [],
            itemLabel: (item) => item.title,
            about: 'Cards or columns.',
            of: group({
              fields: {
                title: text({ label: 'Title', span: page.itemTitle, about: 'Its heading.' }),
                text: text({
                  label: 'Text',
                  span: page.itemText,
                  multiline: true,
                  about: 'Its text.',
                }),
                icon: {
                  ...icon,
                  optional: true,
                  hint: 'A line drawing beside the item, if any.',
                  about: 'A line drawing beside it.',
                },
                links: list({
                  label: 'Links',
                  of: link,
                  optional: true,
                  itemLabel: (link) => link.label,
                  about: 'Links under its text.',
                }),
              },
            }),
          }),
        },
      }),
    }),
  },
});
