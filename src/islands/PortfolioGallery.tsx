import type { ImageData } from './carousel-types';

export type PortfolioTag = 'websites' | 'apps' | 'social-media';

export interface Project {
  id: string;
  title: string;
  client: string;
  tags: PortfolioTag[];
  image: ImageData;
}

export const filters: { value: 'all' | PortfolioTag; label: string }[] = [
  { value: 'all', label: 'All projects' },
  { value: 'websites', label: 'Websites' },
  { value: 'apps', label: 'Apps' },
  { value: 'social-media', label: 'Social-media' },
];

interface Props {
  projects: Project[];
}

/**
 * The portfolio filter bar and grid. The filter is a radio group, so it
 * filters with CSS alone (:has) before and without JavaScript.
 */
export default function PortfolioGallery({ projects }: Props) {
  return (
    <div className="gallery">
      <fieldset className="gallery__filters">
        <legend className="visually-hidden">Show projects</legend>
        {filters.map((filter) => (
          <label key={filter.value} className="gallery__filter">
            <input
              type="radio"
              name="filter"
              value={filter.value}
              defaultChecked={filter.value === 'all'}
            />
            <span>{filter.label}</span>
          </label>
        ))}
      </fieldset>
      <ul className="gallery__grid" role="list">
        {projects.map((project) => (
          <li key={project.id} className="gallery__item" data-tags={project.tags.join(' ')}>
            <a className="gallery__link" href={project.image.src}>
              <img
                src={project.image.src}
                width={project.image.width}
                height={project.image.height}
                alt={project.image.alt}
                loading="lazy"
                decoding="async"
              />
              <span className="gallery__caption">
                <strong>{project.title}</strong>
                <span>{project.client}</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
