/** A service page: src/content/services/<page>.mdx, its front matter and its MDX text. */
import {
  SERVICE_STATS,
  SERVICE_TILES,
  countMessages,
  lengths,
  order,
  patterns,
  serviceCategories,
} from '../domain/content-rules.ts';
import { folder } from './collections.ts';
import {
  body,
  button,
  checkbox,
  group,
  image,
  integer,
  list,
  oneOf,
  pageAddress,
  pattern,
  text,
} from './fields.ts';
import { alt, icon, paragraph, seo } from './shared.ts';

export const services = folder({
  label: 'Service pages',
  folder: 'src/content/services',
  extension: 'mdx',
  fields: {
    slug: pageAddress({
      label: 'Page address',
      rule: patterns.serviceSlug,
      hint: 'The end of the page\'s address, after the slash: lowercase letters and digits, words joined by hyphens. "react-native" is the page /react-native.',
      about:
        "Must be unique, not the address of one of the site's own pages (`about`, `contact`, `schedule` …), and the same as the file's name (`iphone.mdx` for `/iphone`), as the editor writes it.",
    }),
    title: text({
      label: 'Service name',
      span: lengths.serviceTitle,
      heading: (title) => `${title} Development`,
      hint: 'The technology or service, e.g. "Laravel".',
      about:
        'The technology or service. The big heading shows it followed by "Development": `iPhone App` becomes "iPhone App Development".',
    }),
    category: oneOf({
      label: 'Group on the services page',
      options: serviceCategories,
      optionsNamedBy: 'service',
      hint: 'Which group of the /service page lists this page.',
    }),
    order: integer({
      label: 'Order',
      range: order,
      default: order.default,
      hint: 'Position inside its group on the /service page; lower comes first.',
    }),
    hero: group({
      label: 'Hero',
      fields: {
        description: text({
          label: 'Hero text',
          span: lengths.heroDescription,
          multiline: true,
          hint: 'Two or three sentences under the heading.',
        }),
        image: image({
          label: 'Illustration',
          folder: 'illustrations',
          hint: 'The picture beside the heading.',
          about: 'The picture beside the heading, 560 × 420.',
        }),
        alt,
        button: button({
          label: 'Button',
          hint: 'The button under the hero text: Inquire Now (to the contact page of the settings), none, or a link of its own on this site.',
          about:
            '`inquire` shows "Inquire Now", linking to the external contact page in the settings. `none` shows no button. `{ text: Get in Touch, href: /contact }` shows your own text and link (text 2-30, a path on this site).',
        }),
      },
    }),
    intro: group({
      label: 'Intro',
      hint: "The 'We Help You Win' block.",
      fields: {
        tagLines: list({
          label: 'Tag lines',
          of: text({ label: 'Tag line', span: lengths.tagLine }),
          count: lengths.tagLines,
          itemLabel: (line) => line,
          hint: 'One to three short labels shown above the title, e.g. "Native iOS".',
          about: 'Small labels above the "We Help You Win" heading.',
        }),
        title: text({
          label: 'Title',
          span: lengths.introTitle,
          about: 'The promise under "We Help You Win".',
        }),
        description: list({
          label: 'Paragraphs',
          of: paragraph,
          count: lengths.introParagraphs,
          itemLabel: (text) => text.slice(0, 60),
          hint: 'One to four paragraphs, each 40-700 characters.',
          about: 'The intro text. Each `- ` item is one paragraph.',
        }),
      },
    }),
    services: list({
      label: 'Tiles',
      count: { min: SERVICE_TILES, max: SERVICE_TILES },
      countMessage: countMessages.tiles,
      itemLabel: (tile) => tile.title,
      hint: "The 8 tiles of the 'We Provide' grid.",
      about: 'The "We Provide" grid.',
      of: group({
        fields: {
          title: text({ label: 'Title', span: lengths.tileTitle, about: 'The tile heading.' }),
          summary: text({
            label: 'Summary',
            span: lengths.tileSummary,
            hint: 'One sentence under the tile title.',
          }),
          icon,
          alt,
        },
      }),
    }),
    stats: list({
      label: 'Counters',
      count: { min: SERVICE_STATS, max: SERVICE_STATS },
      countMessage: countMessages.stats,
      itemLabel: (stat) => `${stat.count} ${stat.label}`,
      hint: "The 4 counters of 'Numbers That Speak Our Power'.",
      about: 'The "Numbers That Speak Our Power" strip.',
      of: group({
        fields: {
          icon,
          alt,
          count: pattern({
            label: 'Count',
            rule: patterns.count,
            about: 'The number shown above the label.',
          }),
          label: text({
            label: 'Label',
            span: lengths.statLabel,
            about: 'What is counted, e.g. "Expert Developers".',
          }),
        },
      }),
    }),
    testimonials: checkbox({
      label: 'Show testimonials',
      default: true,
      hint: 'Whether the shared testimonial carousel is shown on this page.',
    }),
    seo,
    body: body({ label: 'Page text (below the blocks)' }),
  },
});
