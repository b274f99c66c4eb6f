/** The brand and contact details: src/content/data/settings.yaml, one entry (`id: site`). */
import { SOCIAL_LINKS, fileLengths, socialIcons } from '../domain/content-rules.ts';
import { listFile } from './collections.ts';
import { checkbox, email, group, integer, list, select, text, url } from './fields.ts';
import { link } from './shared.ts';

const sizes = fileLengths.settings;

export const settings = listFile({
  label: 'Settings',
  file: 'src/content/data/settings.yaml',
  shownAt: 'the header and footer of every page',
  itemLabel: (entry) => entry.brand,
  fields: {
    brand: text({
      label: 'Brand',
      span: sizes.brand,
      about: 'The brand name, used in the header, footer, page titles and structured data.',
    }),
    tagline: text({
      label: 'Tagline',
      span: sizes.tagline,
      about: 'The sentence under the brand in the footer.',
    }),
    email: email({ label: 'E-mail', about: 'The contact address in the footer.' }),
    address: group({
      about: 'The postal address.',
      fields: {
        street: text({ label: 'Street', about: 'The street and number.' }),
        locality: text({ label: 'Town', about: 'The town or city.' }),
        region: text({ label: 'Region', optional: true, about: 'The county or region.' }),
        postalCode: text({ label: 'Postcode', about: 'The postcode.' }),
        country: text({
          label: 'Country',
          span: sizes.country,
          about: 'The two-letter country code, e.g. `GB`.',
        }),
      },
    }),
    socials: list({
      label: 'Social links',
      count: { min: SOCIAL_LINKS, max: SOCIAL_LINKS },
      itemLabel: (social) => social.name,
      about: "The footer's social and messaging links.",
      of: group({
        fields: {
          name: text({
            label: 'Name',
            span: sizes.socialName,
            about: 'The link\'s accessible name, e.g. "LinkedIn".',
          }),
          href: url({ label: 'Address', about: 'Where it goes.' }),
          icon: select({ label: 'Icon', options: socialIcons, about: 'The icon drawn.' }),
        },
      }),
    }),
    banner: group({
      about:
        'The "get in touch" banner above the footer; its button ("Get in Touch") always leads to /contact.',
      fields: {
        title: text({ label: 'Title', span: sizes.bannerTitle, about: 'Its heading.' }),
        text: text({ label: 'Text', span: sizes.bannerText, about: 'Its sentence.' }),
      },
    }),
    inquireUrl: url({
      label: 'Inquire URL',
      about: 'The external contact page that every "Inquire Now" button opens.',
    }),
    popularServices: list({
      label: 'Popular services',
      of: link,
      count: sizes.popularServices,
      itemLabel: (link) => link.label,
      about: "The footer's 'Popular services' links, e.g. `{ label: Laravel, href: /laravel }`.",
      shownAt: "the footer's Popular services",
    }),
    copyrightYear: integer({
      label: 'Copyright year',
      range: sizes.copyrightYear,
      about: "The year in the footer's copyright line.",
    }),
    speedPage: checkbox({
      label: 'Show the speed page in the footer and the sitemap',
      default: false,
      hint: "/speed ('How fast is this site?') shows the site's real speed, from its visits.",
      about:
        'Lists /speed ("How fast is this site?": the real speed of the site from its visits, its words in `pages/speed.yaml`) in the footer and the sitemap. The page itself answers either way.',
    }),
  },
});
