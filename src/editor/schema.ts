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
  availabilityRanges,
  calendarDate,
  isTimeZone,
  openingHours,
  weekdays,
} from '../domain/booking.ts';
import { imageField } from './image-field.tsx';
import { flagged } from './problems.ts';
import {
  calendarDateField,
  heroButton,
  openingHoursField,
  optionalIllustration,
  someOf,
  timeZoneField,
} from './fields.tsx';

/** The image names of a src/assets folder, as content writes them (no extension). */
const names = (files: Record<string, unknown>) =>
  Object.keys(files)
    .map((path) => path.replace(/^.*\//, '').replace(/\.[^.]+$/, ''))
    .sort();
const assets = {
  icons: names(import.meta.glob('/src/assets/icons/*.svg')),
  illustrations: names(import.meta.glob('/src/assets/illustrations/*.{svg,png,jpg,jpeg,webp}')),
  portfolio: names(import.meta.glob('/src/assets/portfolio/*.{svg,png,jpg,jpeg,webp}')),
  logos: names(import.meta.glob('/src/assets/logos/*.{svg,png,jpg,jpeg,webp}')),
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
  imageField('icons', label, assets.icons, { description: hints.icon });
const illustration = (label = 'Illustration') =>
  imageField('illustrations', label, assets.illustrations, { description: hints.illustration });
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
const entryOrder = () => whole('Order', { min: 0 });

/** A YAML list file: one singleton whose `entries` are the file's entries, each with its `id`. */
const listFile = (
  label: string,
  file: string,
  entry: Record<string, Parameters<typeof fields.object>[0][string]>,
  itemLabel: (entry: Record<string, unknown>) => string,
) =>
  singleton({
    label,
    path: `src/content/data/${file}`,
    format: { data: 'yaml' },
    schema: {
      entries: fields.array(
        fields.object({ id: matching('Id', patterns.id, hints.id), ...entry }),
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

const services = collection({
  label: 'Service pages',
  path: 'src/content/services/*',
  slugField: 'slug',
  format: { contentField: 'body' },
  columns: ['title'],
  schema: {
    slug: fields.slug({
      name: {
        label: 'Slug',
        description: hints.serviceSlug,
        validation: { isRequired: true, pattern: patterns.serviceSlug },
      },
      slug: { label: 'File name', generate: (name) => name },
    }),
    title: text('Title', lengths.serviceTitle, { description: hints.serviceTitle }),
    category: choice('Category', serviceCategories, hints.category),
    order: whole('Order', orderRule, hints.order),
    hero: fields.object(
      {
        description: text('Hero text', lengths.heroDescription, {
          description: hints.heroDescription,
          multiline: true,
        }),
        image: illustration(),
        alt: alt(),
        button: heroButton('Button', hints.heroButton),
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
    body: fields.mdx({ label: 'Page text (below the blocks)', extension: 'mdx' }),
  },
});

const pageSection = fields.object({
  id: matching('Anchor', patterns.sectionId, 'Anchor name, also how the page finds this section.'),
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
      icon: imageField('icons', 'Icon', assets.icons, { description: hints.icon, optional: true }),
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
  slugField: 'name',
  format: { data: 'yaml' },
  schema: {
    // The file's name, not a key of the file: a text field used as the slug field writes nothing
    // into the file (a `fields.slug` would write `name: ''`, which the site's strict schema refuses).
    name: fields.text({
      label: 'Page',
      description: 'The file name in src/content/pages, e.g. "about" for the About page.',
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

export default config({
  storage: { kind: 'local' },
  ui: { brand: { name: 'Site content' } },
  collections: { services, pages },
  singletons: {
    testimonials: listFile(
      'Testimonials',
      'testimonials',
      {
        company: text('Company', fileLengths.testimonials.company),
        content: text('Quote', fileLengths.testimonials.quote, { multiline: true }),
        person: text('Person', fileLengths.testimonials.person),
        image: imageField('logos', 'Logo', assets.logos),
        alt: alt(),
        order: entryOrder(),
      },
      (entry) => String((entry as { company?: unknown }).company ?? ''),
    ),
    portfolio: listFile(
      'Portfolio',
      'portfolio',
      {
        title: text('Title', fileLengths.portfolio.title),
        client: text('Client', fileLengths.portfolio.client),
        tags: someOf('Tags', portfolioTags, 'The filters that show the project: at least one.'),
        image: imageField('portfolio', 'Image', assets.portfolio),
        alt: alt(),
        order: entryOrder(),
      },
      (entry) => String(entry.title ?? ''),
    ),
    homePortfolio: listFile(
      'Home carousel: portfolio',
      'home-portfolio',
      {
        title: text('Title', fileLengths.portfolio.title),
        image: imageField('portfolio', 'Image', assets.portfolio),
        alt: alt(),
        href: optionalPath('Link'),
        order: entryOrder(),
      },
      (entry) => String(entry.title ?? ''),
    ),
    feedback: listFile(
      'Home carousel: feedback',
      'feedback',
      {
        quote: text('Quote', fileLengths.feedback.quote, { multiline: true }),
        name: text('Name', fileLengths.feedback.name),
        company: text('Company', fileLengths.feedback.company),
        order: entryOrder(),
      },
      (entry) => String(entry.name ?? ''),
    ),
    pricing: listFile(
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
        order: entryOrder(),
      },
      (entry) => String(entry.name ?? ''),
    ),
    enquiryServices: listFile(
      'Enquiry services',
      'enquiry-services',
      { label: text('Label', fileLengths.enquiryServices.label), order: entryOrder() },
      (entry) => String(entry.label ?? ''),
    ),
    technologies: listFile(
      'Technologies',
      'technologies',
      {
        name: text('Name', fileLengths.technologies.name),
        href: internalPath('Link'),
        stack: choice('Stack', technologyStacks),
        monogram: text('Monogram', fileLengths.technologies.monogram),
        color: matching('Colour', patterns.color),
        order: entryOrder(),
      },
      (entry) => String(entry.name ?? ''),
    ),
    settings: listFile(
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
      },
      (entry) => String(entry.brand ?? ''),
    ),
    availability: listFile(
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
      },
      () => 'Calls',
    ),
  },
});
