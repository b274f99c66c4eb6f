import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, type MouseEvent } from 'react';
import CloseButton from './CloseButton';
import { useModalDialog } from './use-modal-dialog';
import {
  $lightboxImage,
  $portfolioFilter,
  closeLightbox,
  filterFromSearch,
  isPortfolioFilter,
  openLightbox,
  searchForFilter,
  type PortfolioFilter,
} from '../stores/portfolio';

export type PortfolioTag = Exclude<PortfolioFilter, 'all'>;

export interface ImageData {
  src: string;
  width: number;
  height: number;
  alt: string;
}

export interface Project {
  id: string;
  title: string;
  client: string;
  tags: PortfolioTag[];
  image: ImageData;
}

export const filters: { value: PortfolioFilter; label: string }[] = [
  { value: 'all', label: 'All projects' },
  { value: 'websites', label: 'Websites' },
  { value: 'apps', label: 'Apps' },
  { value: 'social-media', label: 'Social-media' },
];

// On the client the filter starts from the address, so that a shared ?filter= link opens filtered.
if (typeof window !== 'undefined') $portfolioFilter.set(filterFromSearch(window.location.search));

interface Props {
  projects: Project[];
}

/**
 * The portfolio filter bar, grid and lightbox. The filter is a radio group
 * that filters with CSS alone (:has), so it works before and without
 * JavaScript; once hydrated it also keeps the address (?filter=apps) in step,
 * and a project opens enlarged instead of following its link to the image.
 */
export default function PortfolioGallery({ projects }: Props) {
  const filter = useStore($portfolioFilter);
  const image = useStore($lightboxImage);
  const lightbox = useModalDialog(image !== null, closeLightbox);
  const id = useId();

  const radios = useRef<HTMLFieldSetElement>(null);

  const choose = (value: PortfolioFilter) => {
    $portfolioFilter.set(value);
    const url = `${window.location.pathname}${searchForFilter(value, window.location.search)}`;
    window.history.pushState(null, '', url);
  };

  // The radios stay uncontrolled, so that a choice made before hydration is kept:
  // the store follows a radio checked then, and the radios follow the store after.
  useEffect(() => {
    const checked = radios.current?.querySelector<HTMLInputElement>('input:checked')?.value;
    if (isPortfolioFilter(checked) && checked !== $portfolioFilter.get()) choose(checked);
    // The back and forward buttons move between filters.
    const onPopState = () => $portfolioFilter.set(filterFromSearch(window.location.search));
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  useEffect(() => {
    const radio = radios.current?.querySelector<HTMLInputElement>(`input[value="${filter}"]`);
    if (radio) radio.checked = true;
  }, [filter]);

  const enlarge = (event: MouseEvent<HTMLAnchorElement>, project: Project) => {
    event.preventDefault();
    openLightbox({ ...project.image, title: project.title });
  };

  return (
    <div className="gallery">
      <fieldset className="gallery__filters" ref={radios}>
        <legend className="visually-hidden">Show projects</legend>
        {filters.map((option) => (
          <label key={option.value} className="gallery__filter">
            <input
              type="radio"
              name="filter"
              value={option.value}
              defaultChecked={option.value === 'all'}
              onChange={() => choose(option.value)}
            />
            <span className="pill">{option.label}</span>
          </label>
        ))}
      </fieldset>
      <ul className="gallery__grid" role="list">
        {projects.map((project) => (
          <li key={project.id} className="gallery__item" data-tags={project.tags.join(' ')}>
            <a
              className="gallery__link"
              href={project.image.src}
              onClick={(event) => enlarge(event, project)}
            >
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
      <dialog {...lightbox} className="modal lightbox" aria-labelledby={`${id}-title`}>
        <div className="modal__panel">
          <div className="modal__head">
            <h2 id={`${id}-title`}>{image?.title}</h2>
            <CloseButton onClick={closeLightbox} />
          </div>
          {image && (
            <img src={image.src} width={image.width} height={image.height} alt={image.alt} />
          )}
        </div>
      </dialog>
    </div>
  );
}
