import type { CSSProperties } from 'react';
import type { CarouselOptions, SlideData } from './carousel-types';

interface Props {
  /** Accessible name of the carousel region, e.g. 'Testimonials'. */
  label: string;
  slides: SlideData[];
  options: CarouselOptions;
}

function Slide({ slide }: { slide: SlideData }) {
  switch (slide.kind) {
    case 'testimonial':
      return (
        <figure className="carousel-quote">
          <img
            className="carousel-quote__logo"
            src={slide.logo.src}
            width={slide.logo.width}
            height={slide.logo.height}
            alt={slide.logo.alt}
            loading="lazy"
            decoding="async"
          />
          <blockquote>
            <p>{slide.quote}</p>
          </blockquote>
          <figcaption>
            <strong>{slide.company}</strong>
            <span>{slide.person}</span>
          </figcaption>
        </figure>
      );
    case 'project':
      return (
        <a className="carousel-project" href={slide.href}>
          <img
            src={slide.image.src}
            width={slide.image.width}
            height={slide.image.height}
            alt={slide.image.alt}
            loading="lazy"
            decoding="async"
          />
          <span className="carousel-project__title">{slide.title}</span>
        </a>
      );
    case 'feedback':
      return (
        <figure className="carousel-quote carousel-quote--plain">
          <blockquote>
            <p>{slide.quote}</p>
          </blockquote>
          <figcaption>
            <strong>{slide.name}</strong>
            <span>{slide.company}</span>
          </figcaption>
        </figure>
      );
  }
}

/**
 * One carousel for the testimonial, home portfolio and feedback variants.
 * Rendered on the server it is a horizontally scrollable list, complete
 * without JavaScript.
 */
export default function Carousel({ label, slides, options }: Props) {
  const style = {
    '--per-view': options.perView.base,
    '--per-view-sm': options.perView.sm,
    '--per-view-md': options.perView.md,
  } as CSSProperties;
  return (
    <section className="carousel" aria-roledescription="carousel" aria-label={label} style={style}>
      <div className="carousel__viewport" tabIndex={0} aria-label={`${label}, scrollable`}>
        <ul className="carousel__track" role="list">
          {slides.map((slide, index) => (
            <li
              key={slide.id}
              className="carousel__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${slides.length}`}
            >
              <Slide slide={slide} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
