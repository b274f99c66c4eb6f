import useEmblaCarousel from 'embla-carousel-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { CarouselOptions } from './carousel-types';
import { emblaDuration } from '../client/embla-duration';
import { CAROUSEL_PAUSE, CAROUSEL_STEP, SCROLL_TO } from '../domain/hand-over';
import { PauseIcon, PlayIcon } from './icons';
import StepButton from './StepButton';
import { useTakeOver } from './use-take-over';

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
 * first, rotation pauses on hover and focus and out of view, and never starts
 * under reduced motion, and slides are announced only while it is not rotating.
 *
 * Rendered on the server it is a horizontally scrollable list, complete
 * without JavaScript, with its controls: until the island hydrates, its first
 * move (components/Carousel.astro) scrolls the list a slide at a time and the pause control keeps
 * its state; Embla takes over from the slide the list was left on.
 */
export default function Carousel({ label, options, children }: Props) {
  const id = useId();
  const [motion] = useState(() => typeof window === 'undefined' || !reducedMotion());
  const [viewportRef, embla] = useEmblaCarousel({
    loop: options.loop,
    align: 'start',
    // The slides sit in Astro's <astro-slot> (display: contents) inside the track.
    slides: '.carousel__slide',
    duration: motion ? emblaDuration(options.transitionMs) : 0,
  });
  const [ready, setReady] = useState(false);
  const [selected, setSelected] = useState(0);
  const [snaps, setSnaps] = useState<number[]>([]);
  const [userPaused, setUserPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [inView, setInView] = useState(true);
  const rotating = ready && motion && !userPaused && !hovered && !focused && inView;

  // The slide the native list was on, or heading for if a first-move scroll is under way. Read and
  // the list put back at 0 at hydration, before Embla measures the slides (in its own effect).
  const startSlide = useRef(0);
  const root = useTakeOver<HTMLElement>((section) => {
    if (section.querySelector(`[${CAROUSEL_PAUSE}]`)?.getAttribute('aria-pressed') === 'true') {
      setUserPaused(true);
    }
    const viewport = section.querySelector<HTMLElement>('.carousel__viewport')!;
    const slides = [...section.querySelectorAll<HTMLElement>('.carousel__slide')];
    const scrolled = Number(viewport.getAttribute(SCROLL_TO) ?? viewport.scrollLeft);
    viewport.removeAttribute(SCROLL_TO);
    const first = slides[0]?.offsetLeft ?? 0;
    startSlide.current = Math.max(
      slides.findIndex((slide) => slide.offsetLeft - first >= scrolled - 1),
      0,
    );
    viewport.scrollTo({ left: 0, behavior: 'instant' });
  });
  // Scrolled out of view, it waits: rotating there kept a phone's main thread busy for no one, and
  // the visitor comes back to the slide they left.
  useEffect(() => {
    const observer = new IntersectionObserver(([entry]) => setInView(entry!.isIntersecting));
    observer.observe(root.current!);
    return () => observer.disconnect();
  }, []);
  // A previous / next between hydration and Embla's start is applied once Embla is there.
  const pendingSteps = useRef(0);
  const step = (by: number) => {
    if (!embla) pendingSteps.current += by;
    else if (by < 0) embla.scrollPrev();
    else embla.scrollNext();
  };

  const sync = useCallback(() => {
    if (!embla) return;
    setSnaps(embla.scrollSnapList());
    setSelected(embla.selectedScrollSnap());
  }, [embla]);

  useEffect(() => {
    if (!embla) return;
    // Embla moves the track; the viewport itself stays at 0, even if a first-move smooth scroll
    // still runs on after the hand-over.
    const viewport = embla.rootNode();
    const pin = () => {
      if (viewport.scrollLeft !== 0) viewport.scrollLeft = 0;
    };
    pin();
    viewport.addEventListener('scroll', pin);
    // Start from the slide the native list was on, then apply any step tapped meanwhile.
    embla.scrollTo(startSlide.current, true);
    if (pendingSteps.current) embla.scrollTo(embla.selectedScrollSnap() + pendingSteps.current);
    pendingSteps.current = 0;
    setReady(true);
    sync();
    embla.on('select', sync).on('reInit', sync);
    return () => {
      viewport.removeEventListener('scroll', pin);
      embla.off('select', sync).off('reInit', sync);
    };
  }, [embla, sync]);

  // While it rotates, the next slide every autoplayMs (the first again after the last); a drag, and
  // a tab hidden then shown again, start the wait anew. Written here rather than Embla's autoplay
  // plugin: when it rotates is this island's own state, and the plugin's 1.5 KB was only a timer.
  useEffect(() => {
    if (!embla || !rotating || embla.scrollSnapList().length < 2) return;
    let timer = 0;
    const hold = () => clearTimeout(timer);
    const wait = () => {
      hold();
      if (!document.hidden) timer = window.setTimeout(next, options.autoplayMs);
    };
    const next = () => {
      if (embla.canScrollNext()) embla.scrollNext();
      else embla.scrollTo(0);
      wait();
    };
    embla.on('pointerDown', hold).on('pointerUp', wait);
    document.addEventListener('visibilitychange', wait);
    wait();
    return () => {
      hold();
      embla.off('pointerDown', hold).off('pointerUp', wait);
      document.removeEventListener('visibilitychange', wait);
    };
  }, [embla, rotating, options.autoplayMs]);

  return (
    <section
      ref={root}
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
      {/* Rendered on the server, so that they answer at once (components/Carousel.astro) and nothing moves when React arrives. */}
      <div className="carousel__controls">
        <button
          type="button"
          className="icon-button carousel__pause"
          aria-controls={`${id}-slides`}
          aria-pressed={userPaused}
          {...{ [CAROUSEL_PAUSE]: '' }}
          onClick={() => setUserPaused((paused) => !paused)}
        >
          <PauseIcon />
          <PlayIcon />
          <span className="visually-hidden">{`Pause ${label.toLowerCase()} slide show`}</span>
        </button>
        {options.arrows && (
          <>
            <StepButton
              direction="previous"
              label="Previous slide"
              controls={`${id}-slides`}
              firstMove={CAROUSEL_STEP}
              onClick={() => step(-1)}
            />
            <StepButton
              direction="next"
              label="Next slide"
              controls={`${id}-slides`}
              firstMove={CAROUSEL_STEP}
              onClick={() => step(1)}
            />
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
