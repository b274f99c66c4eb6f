/** Fields several files hold, declared once: an image's alt text, an icon, a link, SEO, an entry's id. */
import { lengths, patterns } from '../domain/content-rules.ts';
import { group, image, pattern, text } from './fields.ts';

export const alt = text({
  label: 'Alt text',
  span: lengths.alt,
  hint: 'What the image shows, for people who cannot see it. Do not start with "Image of".',
});

export const icon = image({
  label: 'Icon',
  folder: 'icons',
  hint: 'A line drawing from the icons, or one you upload (SVG).',
  about: 'A line drawing, 100 × 100: `database` is `src/assets/icons/database.svg`.',
});

export const paragraph = text({ label: 'Paragraph', span: lengths.paragraph, multiline: true });

export const link = group({
  fields: {
    label: text({ label: 'Label', span: lengths.linkLabel, hint: 'The link text.' }),
    href: pattern({
      label: 'Link',
      rule: patterns.internalPath,
      hint: 'Where the link goes, a path on this site such as "/reactjs".',
      about: 'Where the link goes.',
    }),
  },
});

export const seo = group({
  label: 'SEO',
  hint: 'How the page appears in search engines and when shared.',
  fields: {
    title: text({
      label: 'SEO title',
      span: lengths.seoTitle,
      hint: 'Browser tab and search result title. 5-70 characters; the brand name is added.',
      about: 'The browser tab and search result title. The brand name is added after it.',
    }),
    description: text({
      label: 'SEO description',
      span: lengths.seoDescription,
      multiline: true,
      hint: 'Search result snippet. 50-160 characters, one or two plain sentences.',
      about: 'The search result snippet: one or two plain sentences.',
    }),
  },
});

/** The `id` of an entry of a list file: how the site tells the entries apart. */
export const entryId = pattern({
  label: 'Reference',
  rule: patterns.id,
  hint: 'A short name that tells this entry from the others, e.g. "rogi". Not shown on the site.',
  about: 'A unique name for the entry.',
});
