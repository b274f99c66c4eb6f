import { atom } from 'nanostores';

export const portfolioFilters = ['all', 'websites', 'apps', 'social-media'] as const;
export type PortfolioFilter = (typeof portfolioFilters)[number];

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

/** The portfolio filter chosen. */
export const $portfolioFilter = atom<PortfolioFilter>('all');

/** The project shown enlarged, by its place in the portfolio; null while the lightbox is closed. */
export const $lightboxIndex = atom<number | null>(null);

export const openLightbox = (index: number) => $lightboxIndex.set(index);
export const closeLightbox = () => $lightboxIndex.set(null);

/**
 * The project `by` places away from `from` among those `shown` (indexes in portfolio order),
 * wrapping around at either end: the lightbox's previous and next follow the filter.
 */
export function stepProject(shown: number[], from: number, by: number): number {
  if (shown.length === 0) return from;
  const at = shown.indexOf(from);
  return shown[((((at === -1 ? 0 : at) + by) % shown.length) + shown.length) % shown.length]!;
}
