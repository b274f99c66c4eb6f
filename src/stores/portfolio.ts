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

export interface LightboxImage {
  src: string;
  width: number;
  height: number;
  alt: string;
  title: string;
}

/** The image shown enlarged; null while the lightbox is closed. */
export const $lightboxImage = atom<LightboxImage | null>(null);

export const openLightbox = (image: LightboxImage) => $lightboxImage.set(image);
export const closeLightbox = () => $lightboxImage.set(null);
