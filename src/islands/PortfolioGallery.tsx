import { useStore } from '@nanostores/react';
import { memo, useEffect, useId, useRef, type MouseEvent, type RefObject } from 'react';
import CloseButton from './CloseButton';
import StepButton from './StepButton';
import { useTakeOver } from './use-take-over';
import { useModalDialog } from './use-modal-dialog';
import { LIGHTBOX_STEP, PROJECT_INDEX, PROJECT_TAGS } from '../domain/hand-over';
import { $lightboxIndex, $portfolioFilter, closeLightbox, openLightbox } from '../stores/portfolio';
import {
  filterFromSearch,
  filterLabels,
  isPortfolioFilter,
  portfolioFilters,
  searchForFilter,
  stepProject,
  type ImageData,
  type PortfolioFilter,
  type Project,
} from '../domain/portfolio';

// On the client the filter starts from the address, so that a shared ?filter= link opens filtered.
if (typeof window !== 'undefined') $portfolioFilter.set(filterFromSearch(window.location.search));

interface Props {
  projects: Project[];
}

/**
 * The portfolio filter bar, grid and lightbox. The filter is a radio group
 * that filters with CSS alone (:has), so it works before and without
 * JavaScript; once hydrated it also keeps the address (?filter=apps) in step.
 * A project opens enlarged in a lightbox (without JavaScript, its link leads
 * to the image), with previous and next among the projects the filter shows.
 * Every project's title is in the server-rendered lightbox, hidden but the one
 * shown, so that its first move (components/PortfolioGallery.astro) can open it
 * before this island hydrates; the picture of the one shown is put in by that
 * script, before and after hydration alike (a picture per project, hidden, made
 * every load resolve ten more images that nobody had asked to see).
 */
export default function PortfolioGallery({ projects }: Props) {
  const filter = useStore($portfolioFilter);
  const index = useStore($lightboxIndex);
  const id = useId();
  const { props: lightbox, close } = useModalDialog(index !== null, closeLightbox, (dialog) => {
    if (dialog.open) openLightbox(Number(dialog.getAttribute(PROJECT_INDEX)));
  });
  const radios = useRef<HTMLFieldSetElement>(null);

  // The radios stay uncontrolled, so that a choice made before hydration is kept: the store
  // follows a radio checked then, as React takes over (before any tap reaches the island, so that
  // previous / next go through the projects it shows), and the radios follow the store after.
  const root = useTakeOver<HTMLDivElement>((element) => {
    const checked = element.querySelector<HTMLInputElement>('input[name="filter"]:checked')?.value;
    if (isPortfolioFilter(checked) && checked !== $portfolioFilter.get()) choose(checked);
  });

  useEffect(() => {
    // The back and forward buttons move between filters.
    const onPopState = () => $portfolioFilter.set(filterFromSearch(window.location.search));
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  useEffect(() => {
    const radio = radios.current?.querySelector<HTMLInputElement>(`input[value="${filter}"]`);
    if (radio) radio.checked = true;
  }, [filter]);

  const shown = projects.flatMap((project, i) =>
    filter === 'all' || project.tags.includes(filter) ? [i] : [],
  );
  const step = (by: number) => index !== null && openLightbox(stepProject(shown, index, by));
  const titleId = (i: number) => `${id}-title-${i}`;

  return (
    <div className="gallery" ref={root}>
      <FilterBar radios={radios} />
      <ProjectGrid projects={projects} />
      <dialog
        {...lightbox}
        // Escape and a click outside close it while it is not yet modal (BaseLayout.astro's first move).
        closedby="any"
        className="modal lightbox"
        aria-labelledby={titleId(index ?? 0)}
        {...{ [PROJECT_INDEX]: index ?? undefined }}
      >
        <div className="modal__panel">
          <div className="modal__head lightbox__head">
            <StepButton
              direction="previous"
              label="Previous project"
              firstMove={LIGHTBOX_STEP}
              onClick={() => step(-1)}
            />
            <StepButton
              direction="next"
              label="Next project"
              firstMove={LIGHTBOX_STEP}
              onClick={() => step(1)}
            />
            <CloseButton onClick={close} />
          </div>
          {projects.map((project, i) => (
            <figure key={project.id} className="lightbox__item" hidden={i !== index}>
              <h2 id={titleId(i)}>{project.title}</h2>
              <div className="lightbox__picture" dangerouslySetInnerHTML={filledByFirstMove} />
            </figure>
          ))}
        </div>
      </dialog>
    </div>
  );
}

/** Shows a filter's projects, and keeps it in the address, so that the back button goes back to it. */
function choose(value: PortfolioFilter) {
  $portfolioFilter.set(value);
  const url = `${window.location.pathname}${searchForFilter(value, window.location.search)}`;
  window.history.pushState(null, '', url);
}

function enlarge(event: MouseEvent<HTMLAnchorElement>, index: number) {
  event.preventDefault();
  openLightbox(index);
}

// The filter bar and the grid are rendered once: a filter chosen, or a project opened or stepped to
// in the lightbox, does not render the grid's ten pictures again in the task of the tap.
const FilterBar = memo(function FilterBar({
  radios,
}: {
  radios: RefObject<HTMLFieldSetElement | null>;
}) {
  return (
    <fieldset className="gallery__filters" ref={radios}>
      <legend className="visually-hidden">Show projects</legend>
      {portfolioFilters
        .map((value) => ({ value, label: filterLabels[value] }))
        .map((option) => (
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
  );
});

const ProjectGrid = memo(function ProjectGrid({ projects }: { projects: Project[] }) {
  return (
    <ul className="gallery__grid" role="list">
      {projects.map((project, i) => (
        <li
          key={project.id}
          className="gallery__item"
          {...{ [PROJECT_TAGS]: project.tags.join(' '), [PROJECT_INDEX]: i }}
        >
          <a
            className="gallery__link"
            href={project.image.full}
            onClick={(event) => enlarge(event, i)}
          >
            <ProjectImage image={project.image} />
            <span className="gallery__caption">
              <strong>{project.title}</strong>
              <span>{project.client}</span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
});

/**
 * The lightbox's place for the shown project's picture, which the first move's script puts in: the
 * same empty inner HTML on every render, so React neither hydrates what is inside nor replaces it.
 */
const filledByFirstMove = { __html: '' };

/** How wide a project's image is shown: a column of the grid (20rem and up). */
const thumbnailSizes = '(min-width: 1280px) 400px, (min-width: 720px) 50vw, 100vw';

/** A project's image in the grid (the lightbox shows a copy): loaded only when it comes into view. */
const ProjectImage = memo(function ProjectImage({ image }: { image: ImageData }) {
  const img = (
    <img
      src={image.src}
      srcSet={image.srcset}
      sizes={image.srcset && thumbnailSizes}
      width={image.width}
      height={image.height}
      alt={image.alt}
      loading="lazy"
      decoding="async"
    />
  );
  if (!image.sources) return img;
  return (
    <picture>
      {image.sources.map((source) => (
        <source
          key={source.type}
          type={source.type}
          srcSet={source.srcset}
          sizes={thumbnailSizes}
        />
      ))}
      {img}
    </picture>
  );
});
