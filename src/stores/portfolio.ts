import { atom } from 'nanostores';
import type { PortfolioFilter } from '../domain/portfolio';

export const $portfolioFilter = atom<PortfolioFilter>('all');

/** The project shown enlarged, by its place in the portfolio; null while the lightbox is closed. */
export const $lightboxIndex = atom<number | null>(null);

export const openLightbox = (index: number) => $lightboxIndex.set(index);
export const closeLightbox = () => $lightboxIndex.set(null);
