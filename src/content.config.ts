/**
 * The content schema. Marketing staff edit the files under src/content/;
 * every field here is explained in content-schema.md. A wrong value fails
 * `npm run build` with the file and the field named.
 */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { parse as parseYaml } from 'yaml';
import { currentAssetNames, type AssetFolder } from './shared/asset-names';
import { availabilityFields } from './domain/booking';
import { portfolioTags } from './domain/portfolio';
import { addressProblem, type RedirectField } from './domain/redirects';
import {
  SERVICE_STATS,
  SERVICE_TILES,
  SOCIAL_LINKS,
  countMessages,
  fileLengths,
  heroButtonKinds,
  hints,
  lengths,
  order as orderRule,
  patterns,
  serviceCategories,
  socialIcons,
  technologyStacks,
  type Rule,
  type Span,
} from './domain/content-rules';

export { serviceCategories };

const text = ({ min, max }: Span) => z.string().min(min).max(max);
const matching = ({ regex, message }: Rule) => z.string().regex(regex, message);

/**
 * The name of an image of a src/assets folder. Checked against the folder when a file is checked,
 * not when this schema loads, so that `npm run edit` knows an image uploaded in the editor at once.
 */
const image = (folder: AssetFolder) =>
  z.string().superRefine((name, context) => {
    const names = currentAssetNames(folder);
    if (!names.includes(name))
      context.addIssue({
        code: 'custom',
        message: `Invalid option: expected one of ${names.map((each) => JSON.stringify(each)).join('|')}`,
      });
  });

const icon = image('icons').describe(hints.icon);

const illustration = image('illustrations').describe(hints.illustration);

const alt = text(lengths.alt).describe(hints.alt);

const internalPath = matching(patterns.internalPath);

const link = z.strictObject({
  label: text(lengths.linkLabel).describe(hints.linkLabel),
  href: internalPath.describe(hints.linkHref),
});

const seo = z
  .strictObject({
    title: text(lengths.seoTitle).describe(hints.seoTitle),
    description: text(lengths.seoDescription).describe(hints.seoDescription),
  })
  .describe(hints.seo);

const paragraph = text(lengths.paragraph);

/** Where an entry kept aside in `astro dev` holds what is wrong with it (see `confinedInDev`). */
export const CONTENT_PROBLEMS = '__contentProblems';
/** One mistake of an entry: the field's path in its file ('stats.2.label') and the schema's message. */
export interface SchemaProblem {
  path: string;
  message: string;
}

/**
 * In `astro dev` (`npm run dev`, `npm run edit`), an entry the schema refuses is kept, with its
 * mistakes under CONTENT_PROBLEMS, instead of being refused: Astro would fail to start, or keep the
 * entry as it was before the mistake without a word (a page, a service page), or empty the whole
 * list (a list file's entries are one collection). The pages that show the entry then fail with its
 * mistakes in the editor's words (src/lib/content.ts); every other page renders. A build refuses it
 * as before.
 */
/** What zod hands a `catch`: the value it was given and what is wrong with it. */
interface CatchContext {
  value: unknown;
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

function confinedInDev<Collections extends Record<string, { schema?: unknown }>>(
  all: Collections,
): Collections {
  // Vite's hot-update API, which only the dev server's modules have: not import.meta.env.DEV, which
  // a build run with NODE_ENV=test (tests/build/) has too, and Vitest reading the schema itself.
  if (!import.meta.hot) return all;
  // A `catch`, not a transform: the JSON schemas Astro writes for the list files stay the schema's.
  const confine = (schema: z.ZodType) =>
    schema.catch((context: CatchContext) => ({
      ...(isRecord(context.value) ? context.value : {}),
      // `error.issues`, not `issues`: these have their messages.
      [CONTENT_PROBLEMS]: context.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        // Astro's own wording puts the path first, in Markdown ("**title**: Expected type
        // `"string"` …"): the path is said already, in the editor's words.
        message: issue.message.replace(/^\*\*[^*]*\*\*: /, '').replaceAll('`', ''),
      })),
    }));
  return Object.fromEntries(
    Object.entries(all).map(([name, collection]) => [
      name,
      { ...collection, schema: confine(collection.schema as z.ZodType) },
    ]),
  ) as Collections;
}

/**
 * A YAML list file: its entries under `entries:` (an object at the root, as the visual editor
 * writes it). The site shows them in the order of the file (src/lib/content.ts).
 */
const listFile = (path: string) =>
  file(path, {
    parser: (text) => (parseYaml(text) as { entries: Record<string, unknown>[] }).entries,
  });

/** An entry of a YAML list file: a strict object with its unique `id`. */
const entry = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.strictObject({
    id: matching(patterns.id).describe(hints.id),
    ...shape,
  });

const services = defineCollection({
  // Keyed by file name (laravel.mdx: 'laravel'), not by the glob loader's default, the `slug` field:
  // two files of one slug (a page duplicated in the editor) would be one entry, the other dropped
  // with a warning at most. Both reach lib/content-checks.ts, which fails the build naming both files.
  // Pages use `data.slug` for their address, never the id.
  loader: glob({
    base: './src/content/services',
    pattern: '*.mdx',
    generateId: ({ entry }) => entry.replace(/\.mdx$/, ''),
  }),
  schema: z.strictObject({
    slug: matching(patterns.serviceSlug).describe(hints.serviceSlug),
    title: text(lengths.serviceTitle).describe(hints.serviceTitle),
    category: z.enum(serviceCategories).describe(hints.category),
    order: z
      .number()
      .int()
      .min(orderRule.min)
      .max(orderRule.max)
      .default(orderRule.default)
      .describe(hints.order),
    hero: z.strictObject({
      description: text(lengths.heroDescription).describe(hints.heroDescription),
      image: illustration,
      alt,
      button: z
        .union([
          z.literal(heroButtonKinds[0]),
          z.literal(heroButtonKinds[1]),
          z.strictObject({
            text: text(lengths.buttonText),
            href: internalPath,
          }),
        ])
        .default('inquire')
        .describe(hints.heroButton),
    }),
    intro: z
      .strictObject({
        tagLines: z
          .array(text(lengths.tagLine))
          .min(lengths.tagLines.min)
          .max(lengths.tagLines.max)
          .describe(hints.tagLines),
        title: text(lengths.introTitle),
        description: z
          .array(paragraph)
          .min(lengths.introParagraphs.min)
          .max(lengths.introParagraphs.max)
          .describe(hints.introParagraphs),
      })
      .describe(hints.intro),
    services: z
      .array(
        z.strictObject({
          title: text(lengths.tileTitle),
          summary: text(lengths.tileSummary).describe(hints.tileSummary),
          icon,
          alt,
        }),
      )
      .length(SERVICE_TILES, countMessages.tiles)
      .describe(hints.tiles),
    stats: z
      .array(
        z.strictObject({
          icon,
          alt,
          count: matching(patterns.count),
          label: text(lengths.statLabel),
        }),
      )
      .length(SERVICE_STATS, countMessages.stats)
      .describe(hints.stats),
    testimonials: z.boolean().default(true).describe(hints.testimonials),
    seo,
  }),
});

const testimonials = defineCollection({
  loader: listFile('./src/content/data/testimonials.yaml'),
  schema: entry({
    company: text(fileLengths.testimonials.company),
    content: text(fileLengths.testimonials.quote).describe('The quote, without quotation marks.'),
    person: text(fileLengths.testimonials.person).describe('Who said it, with their role.'),
    image: image('logos').describe('Logo in src/assets/logos, without ".svg".'),
    alt,
  }),
});

const portfolioTag = z.enum(portfolioTags);

const portfolio = defineCollection({
  loader: listFile('./src/content/data/portfolio.yaml'),
  schema: entry({
    title: text(fileLengths.portfolio.title),
    client: text(fileLengths.portfolio.client),
    tags: z
      .array(portfolioTag)
      .min(1)
      .describe(
        `One or more of ${portfolioTags.map((tag) => `"${tag}"`).join(', ')}: the filters that show it.`,
      ),
    image: image('portfolio').describe('Mockup in src/assets/portfolio.'),
    alt,
  }),
});

const homePortfolio = defineCollection({
  loader: listFile('./src/content/data/home-portfolio.yaml'),
  schema: entry({
    title: text(fileLengths.portfolio.title),
    image: image('portfolio'),
    alt,
    href: internalPath.default('/portfolio'),
  }),
});

const feedback = defineCollection({
  loader: listFile('./src/content/data/feedback.yaml'),
  schema: entry({
    quote: text(fileLengths.feedback.quote),
    name: text(fileLengths.feedback.name),
    company: text(fileLengths.feedback.company),
  }),
});

const pricing = defineCollection({
  loader: listFile('./src/content/data/pricing.yaml'),
  schema: entry({
    name: text(fileLengths.pricing.name),
    price: matching(patterns.price),
    features: z
      .array(text(fileLengths.pricing.feature))
      .min(fileLengths.pricing.features.min)
      .max(fileLengths.pricing.features.max),
    usersNote: text(fileLengths.pricing.usersNote),
    popular: z.boolean().default(false).describe('Shows the "Most popular" badge.'),
    signUp: internalPath.default('/'),
  }),
});

const enquiryServices = defineCollection({
  loader: listFile('./src/content/data/enquiry-services.yaml'),
  schema: entry({
    label: text(fileLengths.enquiryServices.label).describe(
      'The checkbox label, also the value sent.',
    ),
  }),
});

const technologies = defineCollection({
  loader: listFile('./src/content/data/technologies.yaml'),
  schema: entry({
    name: text(fileLengths.technologies.name),
    href: internalPath,
    stack: z.enum(technologyStacks).describe('The About page technology-stack tab that lists it.'),
    monogram: text(fileLengths.technologies.monogram).describe(
      'Up to 3 letters drawn on its badge.',
    ),
    color: matching(patterns.color).describe(
      'Badge colour; keep it dark enough for white letters (4.5:1).',
    ),
  }),
});

const settings = defineCollection({
  loader: listFile('./src/content/data/settings.yaml'),
  schema: entry({
    brand: text(fileLengths.settings.brand),
    tagline: text(fileLengths.settings.tagline),
    email: z.email(),
    address: z.strictObject({
      street: z.string(),
      locality: z.string(),
      region: z.string().optional(),
      postalCode: z.string(),
      country: z
        .string()
        .length(fileLengths.settings.country.max)
        .describe('Two-letter country code, e.g. "GB".'),
    }),
    socials: z
      .array(
        z.strictObject({
          name: text(fileLengths.settings.socialName),
          href: z.url(),
          icon: z.enum(socialIcons),
        }),
      )
      .length(SOCIAL_LINKS),
    banner: z
      .strictObject({
        title: text(fileLengths.settings.bannerTitle),
        text: text(fileLengths.settings.bannerText),
      })
      .describe("The 'get in touch' banner above the footer; its button leads to /contact."),
    inquireUrl: z.url().describe("The external contact page that 'Inquire Now' buttons open."),
    popularServices: z
      .array(link)
      .min(fileLengths.settings.popularServices.min)
      .max(fileLengths.settings.popularServices.max)
      .describe("The footer's 'Popular services' links, e.g. { label: Laravel, href: /laravel }."),
    copyrightYear: z
      .number()
      .int()
      .min(fileLengths.settings.copyrightYear.min)
      .max(fileLengths.settings.copyrightYear.max),
    speedPage: z
      .boolean()
      .default(false)
      .describe(
        "Lists /speed ('How fast is this site?', from the field data of real visits) in the footer and the sitemap.",
      ),
  }),
});

const availability = defineCollection({
  loader: listFile('./src/content/data/availability.yaml'),
  schema: entry(availabilityFields),
});

/** One address of a redirect, with the rule the editor's field uses (src/domain/redirects.ts). */
const redirectAddress = (field: RedirectField, description: string) =>
  z
    .string()
    .superRefine((value, context) => {
      const problem = addressProblem(value, field);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .describe(description);

/**
 * Old addresses answered with a 301 to their new one (src/pages/[...redirect].astro). An entry has no
 * id of its own: its old address is its id. Two entries of one old address keep both (the second
 * as "/old (2)"), so that the build's check names the second (src/lib/content-checks.ts) rather
 * than the loader keeping one in silence. An empty list (`entries: []`) is the usual case.
 */
const redirects = defineCollection({
  loader: file('./src/content/data/redirects.yaml', {
    parser: (text) => {
      const entries = (parseYaml(text) as { entries?: unknown } | null)?.entries;
      const byFrom: Record<string, Record<string, unknown>> = {};
      for (const entry of (Array.isArray(entries) ? entries : []) as Record<string, unknown>[]) {
        const from = String(entry?.from ?? '');
        let id = from;
        for (let n = 2; id in byFrom; n++) id = `${from} (${n})`;
        byFrom[id] = entry;
      }
      return byFrom;
    },
  }),
  schema: z.strictObject({
    from: redirectAddress(
      'from',
      'The old address, a path of this site that is no page now: "/old-page".',
    ),
    to: redirectAddress(
      'to',
      'The page it leads to: "/new-page", or a section of it, "/new-page#section".',
    ),
  }),
});

/** Copy of the pages that are not service pages, one YAML file each. */
const pages = defineCollection({
  loader: glob({ base: './src/content/pages', pattern: '*.yaml' }),
  schema: z.strictObject({
    seo,
    hero: z
      .strictObject({
        eyebrow: text(fileLengths.page.eyebrow).optional(),
        title: text(fileLengths.page.title),
        description: text(fileLengths.page.description).optional(),
        illustration: z
          .strictObject({ image: illustration, alt })
          .optional()
          .describe('An illustration beside the heading.'),
      })
      .optional(),
    sections: z
      .array(
        z.strictObject({
          id: matching(patterns.sectionId).describe(
            'Anchor name, also how the page finds this section.',
          ),
          eyebrow: text(fileLengths.page.eyebrow).optional(),
          title: text(fileLengths.page.title),
          paragraphs: z.array(paragraph).default([]),
          items: z
            .array(
              z.strictObject({
                title: text(fileLengths.page.itemTitle),
                text: text(fileLengths.page.itemText),
                icon: icon.optional(),
                links: z.array(link).optional(),
              }),
            )
            .default([]),
        }),
      )
      .default([]),
  }),
});

export const collections = confinedInDev({
  services,
  testimonials,
  portfolio,
  homePortfolio,
  feedback,
  pricing,
  enquiryServices,
  technologies,
  settings,
  availability,
  pages,
  redirects,
});
