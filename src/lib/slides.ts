/** Maps content entries to the serialisable props of the carousel and gallery islands. */
import type { ImageMetadata } from 'astro';
import type { ImageData, SlideData } from '../islands/carousel-types';
import { asset } from './assets';
import { getFeedback, getHomePortfolio, getPortfolio, getTestimonials } from './content';
import type { Project } from '../islands/PortfolioGallery';
import type { AssetFolder } from './asset-names';

function imageData(folder: AssetFolder, name: string, alt: string): ImageData {
  const meta: ImageMetadata = asset(folder, name);
  return { src: meta.src, width: meta.width, height: meta.height, alt };
}

export async function testimonialSlides(): Promise<SlideData[]> {
  return (await getTestimonials()).map(({ id, data }) => ({
    kind: 'testimonial',
    id,
    company: data.company,
    person: data.person,
    quote: data.content,
    logo: imageData('logos', data.image, data.alt),
  }));
}

export async function projectSlides(): Promise<SlideData[]> {
  return (await getHomePortfolio()).map(({ id, data }) => ({
    kind: 'project',
    id,
    title: data.title,
    href: data.href,
    image: imageData('portfolio', data.image, data.alt),
  }));
}

export async function feedbackSlides(): Promise<SlideData[]> {
  return (await getFeedback()).map(({ id, data }) => ({
    kind: 'feedback',
    id,
    quote: data.quote,
    name: data.name,
    company: data.company,
  }));
}

export async function portfolioProjects(): Promise<Project[]> {
  return (await getPortfolio()).map(({ id, data }) => ({
    id,
    title: data.title,
    client: data.client,
    tags: data.tags,
    image: imageData('portfolio', data.image, data.alt),
  }));
}
