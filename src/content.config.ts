/**
 * The content schema. Marketing staff edit the files under src/content/;
 * every field here is explained in content-schema.md. A wrong value fails
 * `npm run build` with the file and the field named.
 */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { parse as parseYaml } from 'yaml';
import { assetNames } from './lib/asset-names';
import { availabilityFields } from './domain/booking';
import { portfolioTags } from './domain/portfolio';

const icon = z
  .enum(assetNames('icons'))
  .describe('Name of a line icon in src/assets/icons, without ".svg", e.g. "database".');

const illustration = z
  .enum(assetNames('illustrations'))
  .describe('Name of an illustration in src/assets/illustrations, without ".svg".');

const alt = z
  .string()
  .min(3)
  .max(150)
  .describe('What the image shows, for people who cannot see it. Do not start with "Image of".');

const internalPath = z
  .string()
  .regex(/^\/[a-z0-9/-]*$/, 'must be a site path starting with "/", such as "/contact"');

const link = z.strictObject({
  label: z.string().min(2).max(40).describe('The link text.'),
  href: internalPath.describe('Where the link goes, a path on this site such as "/reactjs".'),
});

const seo = z
  .strictObject({
    title: z
      .string()
      .min(5)
      .max(70)
      .describe('Browser tab and search result title. 5-70 characters; the brand name is added.'),
    description: z
      .string()
      .min(50)
      .max(160)
      .describe('Search result snippet. 50-160 characters, one or two plain sentences.'),
  })
  .describe('How the page appears in search engines and when shared.');

const paragraph = z.string().min(40).max(700);

/**
 * A YAML list file: its entries under `entries:` (an object at the root, as the visual editor
 * writes it).
 */
const listFile = (path: string) =>
  file(path, {
    parser: (text) => (parseYaml(text) as { entries: Record<string, unknown>[] }).entries,
  });

/** An entry of a YAML list file: a strict object with its unique `id`. */
const entry = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes only')
      .describe('A unique name for the entry.'),
    ...shape,
  });

/** The service page groups, in the order the /service page lists them. */
export const serviceCategories = [
  'mobile-native',
  'mobile-cross-platform',
  'web',
  'javascript',
  'cloud',
  'design',
  'digital-marketing',
] as const;

const services = defineCollection({
  loader: glob({ base: './src/content/services', pattern: '*.mdx' }),
  schema: z.strictObject({
    slug: z
      .string()
      .regex(
        /^[a-z]+$/,
        'lowercase letters only: it is the page address, e.g. "iphone" for /iphone',
      )
      .describe('The page address without the slash: "iphone" is served at /iphone.'),
    title: z
      .string()
      .min(2)
      .max(40)
      .describe(
        'The technology or service, e.g. "iPhone App". The hero heading adds " Development".',
      ),
    category: z
      .enum(serviceCategories)
      .describe('Which group of the /service page lists this page.'),
    order: z
      .number()
      .int()
      .min(0)
      .max(999)
      .default(100)
      .describe('Position inside its group on the /service page; lower comes first.'),
    hero: z.strictObject({
      description: z
        .string()
        .min(80)
        .max(400)
        .describe('Two or three sentences under the heading.'),
      image: illustration,
      alt,
      button: z
        .union([
          z.literal('inquire'),
          z.literal('none'),
          z.strictObject({
            text: z.string().min(2).max(30),
            href: internalPath,
          }),
        ])
        .default('inquire')
        .describe(
          '"inquire" shows "Inquire Now" linking to the external contact page of the site settings; "none" shows no button; or give { text, href } for a link on this site.',
        ),
    }),
    intro: z
      .strictObject({
        tagLines: z
          .array(z.string().min(2).max(40))
          .min(1)
          .max(3)
          .describe('One to three short labels shown above the title, e.g. "Native iOS".'),
        title: z.string().min(10).max(90),
        description: z
          .array(paragraph)
          .min(1)
          .max(4)
          .describe('One to four paragraphs, each 40-700 characters.'),
      })
      .describe("The 'We Help You Win' block."),
    services: z
      .array(
        z.strictObject({
          title: z.string().min(3).max(40),
          summary: z.string().min(20).max(140).describe('One sentence under the tile title.'),
          icon,
          alt,
        }),
      )
      .length(8, 'the services grid needs exactly 8 tiles')
      .describe("The 8 tiles of the 'We Provide' grid."),
    stats: z
      .array(
        z.strictObject({
          icon,
          alt,
          count: z
            .string()
            .regex(/^\d{1,4}\+?$/, 'a whole number, optionally followed by "+", e.g. "15+"'),
          label: z.string().min(3).max(40),
        }),
      )
      .length(4, 'the stats strip needs exactly 4 counters')
      .describe("The 4 counters of 'Numbers That Speak Our Power'."),
    testimonials: z
      .boolean()
      .default(true)
      .describe('Whether the shared testimonial carousel is shown on this page.'),
    seo,
  }),
});

const testimonials = defineCollection({
  loader: listFile('./src/content/data/testimonials.yaml'),
  schema: entry({
    company: z.string().min(2).max(40),
    content: z.string().min(40).max(400).describe('The quote, without quotation marks.'),
    person: z.string().min(2).max(60).describe('Who said it, with their role.'),
    image: z.enum(assetNames('logos')).describe('Logo in src/assets/logos, without ".svg".'),
    alt,
    order: z.number().int().min(0).default(0),
  }),
});

const portfolioTag = z.enum(portfolioTags);

const portfolio = defineCollection({
  loader: listFile('./src/content/data/portfolio.yaml'),
  schema: entry({
    title: z.string().min(3).max(60),
    client: z.string().min(2).max(60),
    tags: z
      .array(portfolioTag)
      .min(1)
      .describe(
        `One or more of ${portfolioTags.map((tag) => `"${tag}"`).join(', ')}: the filters that show it.`,
      ),
    image: z.enum(assetNames('portfolio')).describe('Mockup in src/assets/portfolio.'),
    alt,
    order: z.number().int().min(0).default(0),
  }),
});

const homePortfolio = defineCollection({
  loader: listFile('./src/content/data/home-portfolio.yaml'),
  schema: entry({
    title: z.string().min(3).max(60),
    image: z.enum(assetNames('portfolio')),
    alt,
    href: internalPath.default('/portfolio'),
    order: z.number().int().min(0).default(0),
  }),
});

const feedback = defineCollection({
  loader: listFile('./src/content/data/feedback.yaml'),
  schema: entry({
    quote: z.string().min(40).max(320),
    name: z.string().min(2).max(60),
    company: z.string().min(2).max(60),
    order: z.number().int().min(0).default(0),
  }),
});

const pricing = defineCollection({
  loader: listFile('./src/content/data/pricing.yaml'),
  schema: entry({
    name: z.string().min(2).max(30),
    price: z.string().regex(/^\$\d+(\.\d{2})?$/, 'a dollar price such as "$29.99"'),
    features: z.array(z.string().min(2).max(60)).min(2).max(8),
    usersNote: z.string().min(2).max(60),
    popular: z.boolean().default(false).describe('Shows the "Most popular" badge.'),
    signUp: internalPath.default('/'),
    order: z.number().int().min(0).default(0),
  }),
});

const enquiryServices = defineCollection({
  loader: listFile('./src/content/data/enquiry-services.yaml'),
  schema: entry({
    label: z.string().min(2).max(40).describe('The checkbox label, also the value sent.'),
    order: z.number().int().min(0).default(0),
  }),
});

const technologies = defineCollection({
  loader: listFile('./src/content/data/technologies.yaml'),
  schema: entry({
    name: z.string().min(2).max(30),
    href: internalPath,
    stack: z
      .enum(['mobile', 'backend', 'frontend'])
      .describe('The About page technology-stack tab that lists it.'),
    monogram: z.string().min(1).max(3).describe('Up to 3 letters drawn on its badge.'),
    color: z
      .string()
      .regex(/^#[0-9a-f]{6}$/i, 'a hex colour such as "#2563eb"')
      .describe('Badge colour; keep it dark enough for white letters (4.5:1).'),
    order: z.number().int().min(0).default(0),
  }),
});

const settings = defineCollection({
  loader: listFile('./src/content/data/settings.yaml'),
  schema: entry({
    brand: z.string().min(2).max(40),
    tagline: z.string().min(10).max(120),
    email: z.email(),
    address: z.strictObject({
      street: z.string(),
      locality: z.string(),
      region: z.string().optional(),
      postalCode: z.string(),
      country: z.string().length(2).describe('Two-letter country code, e.g. "GB".'),
    }),
    socials: z
      .array(
        z.strictObject({
          name: z.string().min(1).max(30),
          href: z.url(),
          icon: z.enum(['linkedin', 'whatsapp', 'x', 'facebook', 'instagram', 'github']),
        }),
      )
      .length(3),
    banner: z
      .strictObject({
        title: z.string().min(5).max(60),
        text: z.string().min(20).max(160),
      })
      .describe("The 'get in touch' banner above the footer; its button leads to /contact."),
    inquireUrl: z.url().describe("The external contact page that 'Inquire Now' buttons open."),
    popularServices: z
      .array(link)
      .min(1)
      .max(6)
      .describe("The footer's 'Popular services' links, e.g. { label: Laravel, href: /laravel }."),
    copyrightYear: z.number().int().min(2000).max(2100),
  }),
});

const availability = defineCollection({
  loader: listFile('./src/content/data/availability.yaml'),
  schema: entry(availabilityFields),
});

/** Copy of the pages that are not service pages, one YAML file each. */
const pages = defineCollection({
  loader: glob({ base: './src/content/pages', pattern: '*.yaml' }),
  schema: z.strictObject({
    seo,
    hero: z
      .strictObject({
        eyebrow: z.string().min(2).max(40).optional(),
        title: z.string().min(3).max(120),
        description: z.string().min(20).max(400).optional(),
        illustration: z
          .strictObject({ image: illustration, alt })
          .optional()
          .describe('An illustration beside the heading.'),
      })
      .optional(),
    sections: z
      .array(
        z.strictObject({
          id: z
            .string()
            .regex(/^[a-z-]+$/)
            .describe('Anchor name, also how the page finds this section.'),
          eyebrow: z.string().min(2).max(40).optional(),
          title: z.string().min(3).max(120),
          paragraphs: z.array(paragraph).default([]),
          items: z
            .array(
              z.strictObject({
                title: z.string().min(2).max(60),
                text: z.string().min(20).max(400),
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

export const collections = {
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
};
