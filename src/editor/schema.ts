/**
 * The visual editor's schema (Keystatic, local mode): every collection and data file of
 * src/content.config.ts, with the rules of src/domain/content-rules.ts, so that the editor refuses,
 * next to the field, what `npm run build` would refuse. tests/unit/editor-schema.test.ts checks
 * that it declares every field of the site's schema, with the same limits.
 *
 * The YAML list files (src/content/data/*.yaml) are singletons with one list field, `entries`.
 */
import { collection, config, fields, singleton } from '@keystatic/core';
import {
  SERVICE_STATS,
  SERVICE_TILES,
  SOCIAL_LINKS,
  fileLengths,
  hints,
  lengths,
  order as orderRule,
  patterns,
  serviceCategories,
  socialIcons,
  technologyStacks,
  type Rule,
  type Span,
} from '../domain/content-rules.ts';
import { portfolioTags } from '../domain/portfolio.ts';
import {
  availabilityFields,
  availabilityRanges,
  calendarDate,
  hostFields,
  isTimeZone,
  meetingUrlProblem,
  openingHours,
  weekdays,
} from '../domain/booking.ts';
import { isValidEmail } from '../domain/forms.ts';
import { addressProblem } from '../domain/redirects.ts';
import { imageField } from './image-field.tsx';
import { flagged } from './problems.ts';
import {
  calendarDateField,
  checkedField,
  emailField,
  heroButton,
  listLineField,
  oneOf,
  openingHoursField,
  optionalIllustration,
  optionalWeekField,
  pageAddressField,
  serviceTitleField,
  someOf,
  timeZoneField,
  uniqueIdField,
} from './fields.tsx';

/** A folder's pictures by the name content gives them (no extension), with where the dev server shows each. */
const pictures = (files: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(files)
      .map(([path, url]) => [path.replace(/^.*\//, '').replace(/\.[^.]+$/, ''), url] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
// Each glob's options are written out: Vite reads them from the source.
const assets = {
  icons: pictures(
    import.meta.glob<string>('/src/assets/icons/*.svg', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ),
  illustrations: pictures(
    import.meta.glob<string>('/src/assets/illustrations/*.{svg,png,jpg,jpeg,webp}', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ),
  portfolio: pictures(
    import.meta.glob<string>('/src/assets/portfolio/*.{svg,png,jpg,jpeg,webp}', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ),
  logos: pictures(
    import.meta.glob<string>('/src/assets/logos/*.{svg,png,jpg,jpeg,webp}', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ),
};

const choice = (label: string, values: readonly string[], description?: string) =>
  fields.select({
    label,
    description,
    options: values.map((value) => ({ label: value, value })),
    defaultValue: values[0]!,
  });

const text = (
  label: string,
  span: Span,
  options: { description?: string; multiline?: boolean } = {},
) => fields.text({ label, ...options, validation: { length: { min: span.min, max: span.max } } });
const optionalText = (label: string, span: Span, description?: string) =>
  fields.text({ label, description, validation: { length: { min: 0, max: span.max } } });
const matching = (label: string, rule: Rule, description?: string) =>
  fields.text({ label, description, validation: { isRequired: true, pattern: rule } });
const whole = (label: string, { min, max }: { min: number; max?: number }, description?: string) =>
  fields.integer({ label, description, validation: { min, max } });

const icon = (label = 'Icon') =>
  imageField('icons', label, assets.icons, {
    description: 'A line drawing from the icons, or one you upload (SVG).',
  });
const illustration = (label = 'Illustration') =>
  imageField('illustrations', label, assets.illustrations, {
    description: 'The picture beside the heading.',
  });
const alt = () => text('Alt text', lengths.alt, { description: hints.alt });
const internalPath = (label: string, description?: string) =>
  matching(label, patterns.internalPath, description);
/** A site path that may be left empty (the site's schema then uses its default). */
const optionalPath = (label: string) =>
  fields.text({
    label,
    description: 'Leave empty for the default.',
    validation: {
      pattern: {
        regex: new RegExp(`^(?:${patterns.internalPath.regex.source.slice(1, -1)})?$`),
        message: patterns.internalPath.message,
      },
    },
  });
const link = () =>
  fields.object({
    label: text('Label', lengths.linkLabel, { description: hints.linkLabel }),
    href: internalPath('Link', hints.linkHref),
  });
const seo = () =>
  fields.object(
    {
      title: text('SEO title', lengths.seoTitle, { description: hints.seoTitle }),
      description: text('SEO description', lengths.seoDescription, {
        description: hints.seoDescription,
        multiline: true,
      }),
    },
    { label: 'SEO', description: hints.seo },
  );
const paragraph = (label = 'Paragraph') => text(label, lengths.paragraph, { multiline: true });

/** A YAML list file: one singleton whose `entries` are the file's entries, each with its `id`. */
const listFile = (
  key: string,
  label: string,
  file: string,
  entry: Record<string, Parameters<typeof fields.object>[0][string]>,
  itemLabel: (entry: Record<string, unknown>) => string,
) =>
  singleton({
    label,
    path: `src/content/data/${file}`,
    previewUrl: `/api/editor/preview/${key}`,
    format: { data: 'yaml' },
    schema: {
      entries: fields.array(
        fields.object({
          id: matching(
            'Reference',
            patterns.id,
            'A short name that tells this entry from the others, e.g. "rogi". Not shown on the site.',
          ),
          ...entry,
        }),
        {
          label,
          itemLabel: flagged((props) =>
            itemLabel(
              Object.fromEntries(
                Object.entries(props.fields).map(([key, field]) => [
                  key,
                  (field as { value?: unknown }).value,
                ]),
              ),
            ),
          ),
        },
      ),
    },
  });

/** The site's own pages' addresses (/about, /contact, …), which no service page may take. */
const fixedAddresses = new Set(
  Object.keys(import.meta.glob('/src/pages/*.{astro,ts}'))
    .map((file) => file.replace(/^.*\//, '').replace(/\.[^.]+$/, ''))
    .filter((name) => !name.startsWith('[')),
);
/**
 * Each service group by its heading on the /service page (the sections of its page copy), as a
 * marketer knows it: "Mobile, native" rather than "mobile-native".
 */
const serviceCopy = Object.values(
  import.meta.glob<string>('/src/content/pages/service.yaml', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
).join('');
const groupHeading = (category: string) =>
  new RegExp(`- id: ${category}\\n\\s+title: (.+)`).exec(serviceCopy)?.[1] ?? category;

const pageText = 'Page text (below the blocks)';

const services = collection({
  label: 'Service pages',
  path: 'src/content/services/*',
  slugField: 'slug',
  format: { contentField: 'body' },
  columns: ['title'],
  // The entry's menu links to the page on the dev site.
  previewUrl: '/{slug}',
  schema: {
    slug: pageAddressField(
      'Page address',
      'Lowercase letters only, after the slash: "laravel" is the page /laravel.',
      patterns.serviceSlug,
      (address) =>
        fixedAddresses.has(address)
          ? `/${address} is one of the site's own pages: choose another address`
          : undefined,
      Object.keys(import.meta.glob('/src/content/services/*.mdx')).map((file) =>
        file.replace(/^.*\//, '').replace(/\.mdx$/, ''),
      ),
    ),
    title: serviceTitleField(
      'Service name',
      'The technology or service, e.g. "Laravel".',
      lengths.serviceTitle,
      (title) => `${title} Development`,
    ),
    category: oneOf(
      'Group on the services page',
      serviceCategories.map((value) => ({ value, label: groupHeading(value) })),
      hints.category,
    ),
    order: whole('Order', orderRule, hints.order),
    hero: fields.object(
      {
        description: text('Hero text', lengths.heroDescription, {
          description: hints.heroDescription,
          multiline: true,
        }),
        image: illustration(),
        alt: alt(),
        button: heroButton(
          'Button',
          'The button under the hero text: Inquire Now (to the contact page of the settings), none, or a link of its own on this site.',
        ),
      },
      { label: 'Hero' },
    ),
    intro: fields.object(
      {
        tagLines: fields.array(text('Tag line', lengths.tagLine), {
          label: 'Tag lines',
          description: hints.tagLines,
          itemLabel: flagged((props) => props.value),
          validation: { length: lengths.tagLines },
        }),
        title: text('Title', lengths.introTitle),
        description: fields.array(paragraph(), {
          label: 'Paragraphs',
          description: hints.introParagraphs,
          itemLabel: flagged((props) => props.value.slice(0, 60)),
          validation: { length: lengths.introParagraphs },
        }),
      },
      { label: 'Intro', description: hints.intro },
    ),
    services: fields.array(
      fields.object({
        title: text('Title', lengths.tileTitle),
        summary: text('Summary', lengths.tileSummary, { description: hints.tileSummary }),
        icon: icon(),
        alt: alt(),
      }),
      {
        label: 'Tiles',
        description: hints.tiles,
        itemLabel: flagged((props) => props.fields.title.value),
        validation: { length: { min: SERVICE_TILES, max: SERVICE_TILES } },
      },
    ),
    stats: fields.array(
      fields.object({
        icon: icon(),
        alt: alt(),
        count: matching('Count', patterns.count),
        label: text('Label', lengths.statLabel),
      }),
      {
        label: 'Counters',
        description: hints.stats,
        itemLabel: flagged((props) => `${props.fields.count.value} ${props.fields.label.value}`),
        validation: { length: { min: SERVICE_STATS, max: SERVICE_STATS } },
      },
    ),
    testimonials: fields.checkbox({
      label: 'Show testimonials',
      description: hints.testimonials,
      defaultValue: true,
    }),
    seo: seo(),
    // Keystatic keeps an MDX field's label to itself: it is repeated for the editor's place of a
    // mistake (./labels.ts).
    body: Object.assign(fields.mdx({ label: pageText, extension: 'mdx' }), { label: pageText }),
  },
});

const pageSection = fields.object({
  id: matching(
    'Section name',
    patterns.sectionId,
    'The end of the link to this section (#grow-with-us); the page finds the section by it, so keep it as it is.',
  ),
  eyebrow: optionalText('Eyebrow', fileLengths.page.eyebrow),
  title: text('Title', fileLengths.page.title),
  paragraphs: fields.array(paragraph(), {
    label: 'Paragraphs',
    itemLabel: flagged((props) => props.value.slice(0, 60)),
  }),
  items: fields.array(
    fields.object({
      title: text('Title', fileLengths.page.itemTitle),
      text: text('Text', fileLengths.page.itemText, { multiline: true }),
      icon: imageField('icons', 'Icon', assets.icons, {
        description: 'A line drawing beside the item, if any.',
        optional: true,
      }),
      links: fields.array(link(), {
        label: 'Links',
        itemLabel: flagged((props) => props.fields.label.value),
      }),
    }),
    { label: 'Items', itemLabel: flagged((props) => props.fields.title.value) },
  ),
});

const pages = collection({
  label: 'Page copy',
  path: 'src/content/pages/*',
  // Through the editor's own address, which knows that "home" is / (src/integrations/editor.ts).
  previewUrl: '/api/editor/preview/pages/{slug}',
  slugField: 'name',
  format: { data: 'yaml' },
  schema: {
    // The file's name, not a key of the file: a text field used as the slug field writes nothing
    // into the file (a `fields.slug` would write `name: ''`, which the site's strict schema refuses).
    name: fields.text({
      label: 'Page',
      description: 'Which page of the site this is the copy of, e.g. "about" for the About page.',
      validation: { isRequired: true },
    }),
    seo: seo(),
    hero: fields.object(
      {
        eyebrow: optionalText('Eyebrow', fileLengths.page.eyebrow),
        title: text('Title', fileLengths.page.title),
        description: optionalText('Description', fileLengths.page.description),
        illustration: optionalIllustration(
          'Illustration',
          assets.illustrations,
          'An illustration beside the heading.',
        ),
      },
      { label: 'Hero' },
    ),
    sections: fields.array(pageSection, {
      label: 'Sections',
      itemLabel: flagged((props) => props.fields.title.value),
    }),
  },
});

/**
 * redirects.yaml: old addresses answered with a 301 to a page of the site (src/domain/redirects.ts).
 * An entry is its two addresses, no id: the old address names it. Each field refuses what the build
 * refuses of one entry; what needs the whole site (a page at the old address, none at the new, a
 * chain) is `npm run build`'s.
 */
const redirects = singleton({
  label: 'Redirects (old addresses)',
  path: 'src/content/data/redirects',
  format: { data: 'yaml' },
  schema: {
    entries: fields.array(
      fields.object({
        from: checkedField(
          'From (old address)',
          'An address of this site that is no page any more, e.g. "/old-page". Visitors, search engines and old e-mails that open it are sent to the new address.',
          (value) => addressProblem(value, 'from'),
          'an address',
        ),
        to: checkedField(
          'To (new address)',
          'The page they land on instead, e.g. "/new-page", or a section of it: "/new-page#pricing".',
          (value) => addressProblem(value, 'to'),
          'an address',
        ),
      }),
      {
        label: 'Redirects (old addresses)',
        description:
          'When a page moves or goes, its old address can lead to another page, so that links from search engines and old e-mails keep working.',
        itemLabel: flagged((props) => `${props.fields.from.value} → ${props.fields.to.value}`),
      },
    ),
  },
});

export default config({
  storage: { kind: 'local' },
  ui: {
    brand: { name: 'Site content' },
    // Keystatic's own headings are "Collections" and "Singletons".
    navigation: {
      Pages: ['services', 'pages'],
      'Lists on the pages': [
        'testimonials',
        'portfolio',
        'homePortfolio',
        'feedback',
        'pricing',
        'technologies',
        'enquiryServices',
      ],
      'Site and calls': ['settings', 'availability', 'redirects'],
    },
  },
  collections: { services, pages },
  singletons: {
    redirects,
    testimonials: listFile(
      'testimonials',
      'Testimonials',
      'testimonials',
      {
        company: text('Company', fileLengths.testimonials.company),
        content: text('Quote', fileLengths.testimonials.quote, { multiline: true }),
        person: text('Person', fileLengths.testimonials.person),
        image: imageField('logos', 'Logo', assets.logos),
        alt: alt(),
      },
      (entry) => String((entry as { company?: unknown }).company ?? ''),
    ),
    portfolio: listFile(
      'portfolio',
      'Portfolio',
      'portfolio',
      {
        title: text('Title', fileLengths.portfolio.title),
        client: text('Client', fileLengths.portfolio.client),
        tags: someOf('Tags', portfolioTags, 'The filters that show the project: at least one.'),
        image: imageField('portfolio', 'Image', assets.portfolio),
        alt: alt(),
      },
      (entry) => String(entry.title ?? ''),
    ),
    homePortfolio: listFile(
      'homePortfolio',
      'Home carousel: portfolio',
      'home-portfolio',
      {
        title: text('Title', fileLengths.portfolio.title),
        image: imageField('portfolio', 'Image', assets.portfolio),
        alt: alt(),
        href: optionalPath('Link'),
      },
      (entry) => String(entry.title ?? ''),
    ),
    feedback: listFile(
      'feedback',
      'Home carousel: feedback',
      'feedback',
      {
        quote: text('Quote', fileLengths.feedback.quote, { multiline: true }),
        name: text('Name', fileLengths.feedback.name),
        company: text('Company', fileLengths.feedback.company),
      },
      (entry) => String(entry.name ?? ''),
    ),
    pricing: listFile(
      'pricing',
      'Pricing',
      'pricing',
      {
        name: text('Name', fileLengths.pricing.name),
        price: matching('Price', patterns.price),
        features: fields.array(text('Feature', fileLengths.pricing.feature), {
          label: 'Features',
          itemLabel: flagged((props) => props.value),
          validation: { length: fileLengths.pricing.features },
        }),
        usersNote: text('Users note', fileLengths.pricing.usersNote),
        popular: fields.checkbox({ label: 'Most popular', defaultValue: false }),
        signUp: optionalPath('Sign-up link'),
      },
      (entry) => String(entry.name ?? ''),
    ),
    enquiryServices: listFile(
      'enquiryServices',
      'Enquiry services',
      'enquiry-services',
      { label: text('Label', fileLengths.enquiryServices.label) },
      (entry) => String(entry.label ?? ''),
    ),
    technologies: listFile(
      'technologies',
      'Technologies',
      'technologies',
      {
        name: text('Name', fileLengths.technologies.name),
        href: internalPath('Link'),
        stack: choice('Stack', technologyStacks),
        monogram: text('Monogram', fileLengths.technologies.monogram),
        color: matching('Colour', patterns.color),
      },
      (entry) => String(entry.name ?? ''),
    ),
    settings: listFile(
      'settings',
      'Settings',
      'settings',
      {
        brand: text('Brand', fileLengths.settings.brand),
        tagline: text('Tagline', fileLengths.settings.tagline),
        email: fields.text({
          label: 'E-mail',
          validation: {
            pattern: { regex: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, message: 'an e-mail address' },
          },
        }),
        address: fields.object({
          street: fields.text({ label: 'Street' }),
          locality: fields.text({ label: 'Town' }),
          region: fields.text({ label: 'Region' }),
          postalCode: fields.text({ label: 'Postcode' }),
          country: text('Country', fileLengths.settings.country),
        }),
        socials: fields.array(
          fields.object({
            name: text('Name', fileLengths.settings.socialName),
            href: fields.url({ label: 'Address', validation: { isRequired: true } }),
            icon: choice('Icon', socialIcons),
          }),
          {
            label: 'Social links',
            itemLabel: flagged((props) => props.fields.name.value),
            validation: { length: { min: SOCIAL_LINKS, max: SOCIAL_LINKS } },
          },
        ),
        banner: fields.object({
          title: text('Title', fileLengths.settings.bannerTitle),
          text: text('Text', fileLengths.settings.bannerText),
        }),
        inquireUrl: fields.url({ label: 'Inquire URL', validation: { isRequired: true } }),
        popularServices: fields.array(link(), {
          label: 'Popular services',
          itemLabel: flagged((props) => props.fields.label.value),
          validation: { length: fileLengths.settings.popularServices },
        }),
        copyrightYear: whole('Copyright year', fileLengths.settings.copyrightYear),
        speedPage: fields.checkbox({
          label: 'Show the speed page in the footer and the sitemap',
          description:
            "/speed ('How fast is this site?') shows the site's real speed, from its visits.",
          defaultValue: false,
        }),
      },
      (entry) => String(entry.brand ?? ''),
    ),
    availability: listFile(
      'availability',
      'Availability',
      'availability',
      {
        timeZone: timeZoneField(
          'Time zone',
          'The zone the hours are in, as the time zone database names it ("Europe/London"); empty for Europe/London.',
          isTimeZone,
        ),
        callMinutes: whole('Call minutes', availabilityRanges.callMinutes),
        bufferMinutes: whole('Buffer minutes', availabilityRanges.bufferMinutes),
        noticeHours: whole('Notice hours', availabilityRanges.noticeHours),
        daysAhead: whole('Days ahead', availabilityRanges.daysAhead),
        callTitle: text('Call title', availabilityRanges.callTitle),
        hours: fields.object(
          Object.fromEntries(
            weekdays.map((day) => [
              day,
              openingHoursField(day[0]!.toUpperCase() + day.slice(1), openingHours),
            ]),
          ),
          { label: 'Opening hours' },
        ),
        closed: fields.array(
          fields.object({
            date: calendarDateField('Date', 'A day with no calls, e.g. 2026-12-25.', calendarDate),
            reason: optionalText(
              'Reason',
              availabilityRanges.closedReason,
              'Why, for the staff: "Christmas Day".',
            ),
          }),
          { label: 'Closed dates', itemLabel: flagged((props) => props.fields.date.value) },
        ),
        hosts: fields.array(
          fields.object({
            id: uniqueIdField('Id', hostFields.id.description!, patterns.id, {
              min: availabilityRanges.hostId.min,
              max: availabilityRanges.hostId.max,
            }),
            name: text('Name', availabilityRanges.hostName),
            email: emailField('E-mail', hostFields.email.description!, isValidEmail),
            hours: optionalWeekField(
              'Own weekly hours',
              "Ticked: the host's own hours for calls, a line a day. Unticked: the entry's hours.",
              weekdays,
              openingHours,
            ),
            timeZone: timeZoneField(
              'Own time zone',
              "The host's own zone (\"America/New_York\"), for their hours and their calendar's all-day events; empty for the entry's.",
              isTimeZone,
            ),
            meetingUrl: checkedField(
              'Video room',
              hostFields.meetingUrl.description!,
              meetingUrlProblem,
              'a web address',
              { optional: true },
            ),
          }),
          {
            label: 'Hosts',
            description: 'The people who take calls: a time is offered while one of them is free.',
            slugField: 'id',
            itemLabel: flagged((props) => props.fields.name.value),
            validation: { length: availabilityRanges.hosts },
          },
        ),
        location: optionalText(
          'Location',
          availabilityRanges.location,
          availabilityFields.location.description,
        ),
        reminders: listLineField(
          'Reminders',
          'Before each call, comma-separated: a number and m, h or d ("24h, 1h"); empty for none.',
          availabilityFields.reminders,
          'lead times like "24h"',
          availabilityFields.reminders.parse(undefined),
        ),
      },
      () => 'Calls',
    ),
  },
});
