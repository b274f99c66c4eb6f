/** Maps the portfolio entries to the serialisable props of the gallery island. */
import type { ImageData, Project } from '../islands/PortfolioGallery';
import { asset } from './assets';
import { getPortfolio } from './content';

function imageData(name: string, alt: string): ImageData {
  const meta = asset('portfolio', name);
  return { src: meta.src, width: meta.width, height: meta.height, alt };
}

export async function portfolioProjects(): Promise<Project[]> {
  return (await getPortfolio()).map(({ id, data }) => ({
    id,
    title: data.title,
    client: data.client,
    tags: data.tags,
    image: imageData(data.image, data.alt),
  }));
}
