/**
 * The content's rules that the content model (src/content-model/) declares its fields with, and that
 * other code needs too (the editor's own fields, the redirects and the bookings of src/domain/):
 * counts, enums, lengths and patterns. The fields' words are the model's.
 */

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

/** The 'We Provide' grid of a service page has exactly this many tiles. */
export const SERVICE_TILES = 8;
/** The 'Numbers That Speak Our Power' strip has exactly this many counters. */
export const SERVICE_STATS = 4;
/** The footer's social links. */
export const SOCIAL_LINKS = 3;

export const technologyStacks = ['mobile', 'backend', 'frontend'] as const;
export const socialIcons = [
  'linkedin',
  'whatsapp',
  'x',
  'facebook',
  'instagram',
  'github',
] as const;
/** What a service hero's button may be besides a link of its own. */
export const heroButtonKinds = ['inquire', 'none'] as const;

/** A length rule: the fewest and most characters (or items). */
export interface Span {
  min: number;
  max: number;
}

export const lengths = {
  alt: { min: 3, max: 150 },
  linkLabel: { min: 2, max: 40 },
  seoTitle: { min: 5, max: 70 },
  seoDescription: { min: 50, max: 160 },
  paragraph: { min: 40, max: 700 },
  serviceTitle: { min: 2, max: 40 },
  heroDescription: { min: 80, max: 400 },
  buttonText: { min: 2, max: 30 },
  tagLine: { min: 2, max: 40 },
  tagLines: { min: 1, max: 3 },
  introTitle: { min: 10, max: 90 },
  introParagraphs: { min: 1, max: 4 },
  tileTitle: { min: 3, max: 40 },
  tileSummary: { min: 20, max: 140 },
  statLabel: { min: 3, max: 40 },
} as const satisfies Record<string, Span>;

/**
 * The lengths of the page copy's and the data files' texts, and their lists' counts, by file: what
 * the content schema and the editor both take (a list's span is its number of items).
 */
export const fileLengths = {
  page: {
    eyebrow: { min: 2, max: 40 },
    title: { min: 3, max: 120 },
    description: { min: 20, max: 400 },
    itemTitle: { min: 2, max: 60 },
    itemText: { min: 20, max: 400 },
  },
  testimonials: {
    company: { min: 2, max: 40 },
    quote: { min: 40, max: 400 },
    person: { min: 2, max: 60 },
  },
  portfolio: { title: { min: 3, max: 60 }, client: { min: 2, max: 60 } },
  feedback: {
    quote: { min: 40, max: 320 },
    name: { min: 2, max: 60 },
    company: { min: 2, max: 60 },
  },
  pricing: {
    name: { min: 2, max: 30 },
    feature: { min: 2, max: 60 },
    features: { min: 2, max: 8 },
    usersNote: { min: 2, max: 60 },
  },
  enquiryServices: { label: { min: 2, max: 40 } },
  technologies: { name: { min: 2, max: 30 }, monogram: { min: 1, max: 3 } },
  settings: {
    brand: { min: 2, max: 40 },
    tagline: { min: 10, max: 120 },
    country: { min: 2, max: 2 },
    socialName: { min: 1, max: 30 },
    bannerTitle: { min: 5, max: 60 },
    bannerText: { min: 20, max: 160 },
    popularServices: { min: 1, max: 6 },
    copyrightYear: { min: 2000, max: 2100 },
  },
} as const satisfies Record<string, Record<string, Span>>;

export const order = { min: 0, max: 999, default: 100 } as const;

/** A pattern and the message that explains it. */
export interface Rule {
  regex: RegExp;
  message: string;
}

export const patterns = {
  id: { regex: /^[a-z0-9-]+$/, message: 'lowercase letters, digits and dashes only' },
  serviceSlug: {
    regex: /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    message:
      'lowercase letters and digits, words joined by single hyphens: it is the page address, e.g. "react-native" for /react-native',
  },
  internalPath: {
    regex: /^\/[a-z0-9/-]*$/,
    message: 'must be a site path starting with "/", such as "/contact"',
  },
  count: {
    regex: /^\d{1,4}[+%]?$/,
    message: 'a whole number, optionally followed by "+" or "%", e.g. "15+" or "98%"',
  },
  price: { regex: /^\$\d+(\.\d{2})?$/, message: 'a dollar price such as "$29.99"' },
  color: { regex: /^#[0-9a-f]{6}$/i, message: 'a hex colour such as "#2563eb"' },
  sectionId: { regex: /^[a-z-]+$/, message: 'lowercase letters and dashes only' },
} as const satisfies Record<string, Rule>;

export const countMessages = {
  tiles: `the services grid needs exactly ${SERVICE_TILES} tiles`,
  stats: `the stats strip needs exactly ${SERVICE_STATS} counters`,
} as const;

/**
 * The first line of a page's error for a content mistake (src/lib/content-checks.ts): in `astro
 * dev`, the pages that rendered know by it that the error is another page's
 * (src/editor/browser/site-reload.ts).
 */
export const contentMistakeHeadings = {
  page: 'This page shows content with a mistake. Correct it in the editor, then reload:',
  build: 'The content links to pages that do not exist, or has a slug that cannot be used:',
} as const;
