/** Maps the portfolio entries to the serialisable props of the gallery island. */
import type { Project } from '../domain/portfolio';
import { asset } from './assets';
import { getPortfolio } from './content';
import { responsiveImage } from './images';

export async function portfolioProjects(): Promise<Project[]> {
  return Promise.all(
    (await getPortfolio()).map(async ({ id, data }, index) => ({
      id,
      title: data.title,
      client: data.client,
      tags: data.tags,
      // Shown up to 800 px wide in the grid and the lightbox; the widths offered go up to 1600. A
      // drawing as a raster (src/lib/images.ts): the first, in view as the page opens and its
      // largest paint, as AVIF (the fewest bytes) before the SVG itself; the rest as WebP.
      image: {
        ...(await responsiveImage(
          asset('portfolio', data.image),
          800,
          index > 0 ? 'webp' : 'avif',
        )),
        alt: data.alt,
      },
    })),
  );
}
