import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback, useEffect, useId, useState } from 'react';
import type { ReactNode } from 'react';
import type { CarouselOptions } from './carousel-types';
import { emblaDuration } from './embla-duration';

interface Props {
  /** Accessible name of the carousel region, e.g. 'Testimonials'. */
  label: string;
  options: CarouselOptions;
  /** The slides (CarouselSlide.astro), rendered by Astro: their content is not repeated in the island's props. */
  children: ReactNode;
}

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * One carousel for the testimonial, home portfolio and feedback variants,
 * following the WAI-ARIA APG carousel pattern: the pause/play control comes
 * first, rotation pauses on hover and focus and never starts under reduced
 * motion, and slides are announced only while it is not rotating.
 *
 * Rendered on the server it is a horizontally scrollable list, complete
 * without JavaScript; Embla takes over once the island hydrates.
 */
export default function Carousel({ label, options, children }: Props) {
  const id = useId();
  const [motion] = useState(() => typeof window === 'undefined' || !reducedMotion());
  const [autoplay] = useState(() =>
    Autoplay({
      delay: options.autoplayMs,
      playOnInit: false,
      stopOnInteraction: false,
      stopOnFocusIn: false,
      stopOnMouseEnter: false,
    }),
  );
  const [viewportRef, embla] = useEmblaCarousel(
    {
      loop: options.loop,
      align: 'start',
      // The slides sit in Astro's <astro-slot> (display: contents) inside the track.
      slides: '.carousel__slide',
      duration: motion ? emblaDuration(options.transitionMs) : 0,
    },
    [autoplay],
  );
  const [ready, setReady] = useState(false);
  const [selected, setSelected] = useState(0);
  const [snaps, setSnaps] = useState<number[]>([]);
  const [userPaused, setUserPaused] = useState(!motion);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const rotating = ready && motion && !userPaused && !hovered && !focused;

  const sync = useCallback(() => {
    if (!embla) return;
    setSnaps(embla.scrollSnapList());
    setSelected(embla.selectedScrollSnap());
  }, [embla]);

  useEffect(() => {
    if (!embla) return;
    setReady(true);
    sync();
    embla.on('select', sync).on('reInit', sync);
    return () => {
      embla.off('select', sync).off('reInit', sync);
    };
  }, [embla, sync]);

  useEffect(() => {
    if (!embla) return;
    if (rotating) autoplay.play();
    else autoplay.stop();
  }, [embla, autoplay, rotating]);

  return (
    <section
      className={`carousel carousel--${options.variant}${ready ? ' carousel--ready' : ''}`}
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="carousel__controls">
        {ready && motion && (
          <button
            type="button"
            className="icon-button"
            aria-controls={`${id}-slides`}
            onClick={() => setUserPaused((paused) => !paused)}
          >
            {userPaused ? <PlayIcon /> : <PauseIcon />}
            <span className="visually-hidden">
              {userPaused
                ? `Play ${label.toLowerCase()} slide show`
                : `Pause ${label.toLowerCase()} slide show`}
            </span>
          </button>
        )}
        {ready && options.arrows && (
          <>
            <button
              type="button"
              className="icon-button"
              aria-controls={`${id}-slides`}
              onClick={() => embla?.scrollPrev()}
            >
              <ArrowIcon direction="previous" />
              <span className="visually-hidden">Previous slide</span>
            </button>
            <button
              type="button"
              className="icon-button"
              aria-controls={`${id}-slides`}
              onClick={() => embla?.scrollNext()}
            >
              <ArrowIcon direction="next" />
              <span className="visually-hidden">Next slide</span>
            </button>
          </>
        )}
      </div>
      <div
        className="carousel__viewport"
        ref={viewportRef}
        // Before Embla takes over, the list scrolls natively: keyboard users need to reach it.
        tabIndex={ready ? undefined : 0}
      >
        <div
          className="carousel__track"
          id={`${id}-slides`}
          aria-live={rotating ? 'off' : 'polite'}
        >
          {children}
        </div>
      </div>
      {options.dots && (
        // Rendered empty on the server, so that the dots take no space from what follows when they arrive.
        <div className="carousel__dots">
          {snaps.map((_, index) => (
            <button
              key={index}
              type="button"
              className="carousel__dot"
              aria-controls={`${id}-slides`}
              aria-current={index === selected ? 'true' : undefined}
              onClick={() => embla?.scrollTo(index)}
            >
              <span className="visually-hidden">
                Show slide {index + 1} of {snaps.length}
              </span>
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

const iconProps = {
  width: 20,
  height: 20,
  viewBox: '0 0 24 24',
  'aria-hidden': true,
  focusable: false,
} as const;

function PauseIcon() {
  return (
    <svg {...iconProps}>
      <path d="M8 5v14M16 5v14" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

function PlayIcon() {
  return (
    <svg {...iconProps}>
      <path d="M7 5l12 7-12 7z" fill="currentColor" />
    </svg>
  );
}

function ArrowIcon({ direction }: { direction: 'previous' | 'next' }) {
  return (
    <svg {...iconProps}>
      <path
        d={direction === 'next' ? 'M9 5l7 7-7 7' : 'M15 5l-7 7 7 7'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
