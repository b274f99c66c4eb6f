/**
 * The portfolio's vocabulary: the tags a project carries (the content schema checks them), the filters
 * the gallery offers, how a filter reads in the address, and a project as the gallery island gets it.
 */

export const portfolioTags = ['websites', 'apps', 'social-media'] as const;
export type PortfolioTag = (typeof portfolioTags)[number];

export const portfolioFilters = ['all', ...portfolioTags] as const;
export type PortfolioFilter = (typeof portfolioFilters)[number];

/** The filters' labels, in the order the gallery offers them. */
export const filterLabels: Record<PortfolioFilter, string> = {
  all: 'All projects',
  websites: 'Websites',
  apps: 'Apps',
  'social-media': 'Social-media',
};

export const isPortfolioFilter = (value: unknown): value is PortfolioFilter =>
  portfolioFilters.includes(value as PortfolioFilter);

/** Reads the filter of a URL's ?filter= parameter; anything unknown means 'all'. */
export function filterFromSearch(search: string): PortfolioFilter {
  const value = new URLSearchParams(search).get('filter');
  return isPortfolioFilter(value) ? value : 'all';
}

/** The search string for a filter: 'all' is the plain page, so that URL stays canonical. */
export function searchForFilter(filter: PortfolioFilter, search = ''): string {
  const params = new URLSearchParams(search);
  if (filter === 'all') params.delete('filter');
  else params.set('filter', filter);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The project `by` places away from `from` among those `shown` (indexes in portfolio order),
 * wrapping around at either end: the lightbox's previous and next follow the filter.
 */
export function stepProject(shown: number[], from: number, by: number): number {
  if (shown.length === 0) return from;
  const at = shown.indexOf(from);
  return shown[((((at === -1 ? 0 : at) + by) % shown.length) + shown.length) % shown.length]!;
}

/** An image at several widths and formats (built by src/lib/images.ts), as plain data. */
export interface ResponsiveImage {
  src: string;
  /** The largest version, for a link to the image on its own (a project's, without JavaScript). */
  full: string;
  width: number;
  height: number;
  /** The fallback's widths (WebP), with `sizes`; absent when the fallback is the SVG itself. */
  srcset?: string;
  /** Better formats, for <source> elements before the <img>. */
  sources?: { type: string; srcset: string }[];
}

export type ImageData = ResponsiveImage & { alt: string };

/** A project as the gallery island gets it (serialisable props). */
export interface Project {
  id: string;
  title: string;
  client: string;
  tags: PortfolioTag[];
  image: ImageData;
}
