/**
 * The carousels' first move (see page.ts): until a carousel island hydrates, it is a native
 * scroll-snap list, and its previous / next controls scroll it by one slide, wrapping at either end;
 * the pause control keeps its pressed state for the island to adopt. While a move is under way,
 * `data-to` on the viewport says where it is heading.
 */
const hydrated = (element: Element) => !!element.closest('[data-hydrated]');

document.addEventListener('click', (event) => {
  const control = (event.target as Element).closest?.<HTMLElement>(
    '[data-carousel-step],[data-carousel-pause]',
  );
  const carousel = control?.closest('.carousel');
  if (!carousel || event.defaultPrevented || hydrated(carousel)) return;
  if (!('carouselStep' in control!.dataset)) {
    control!.setAttribute('aria-pressed', String(control!.getAttribute('aria-pressed') !== 'true'));
    return;
  }
  const by = Number(control!.dataset.carouselStep);
  const viewport = carousel.querySelector<HTMLElement>('.carousel__viewport')!;
  const slide = carousel.querySelector<HTMLElement>('.carousel__slide')!;
  const gap = parseFloat(getComputedStyle(slide.parentElement!).columnGap) || 0;
  const max = viewport.scrollWidth - viewport.clientWidth;
  // Taps in quick succession add up: each steps from where the previous one is heading.
  const left = Number(viewport.dataset.to ?? viewport.scrollLeft);
  let to = left + by * (slide.offsetWidth + gap);
  if (by > 0 && left >= max - 1) to = 0;
  else if (by < 0 && left <= 1) to = max;
  const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
  viewport.dataset.to = String(to);
  viewport.addEventListener('scrollend', () => delete viewport.dataset.to, { once: true });
  viewport.scrollTo({ left: to, behavior: reduce ? 'instant' : 'smooth' });
});

// A module, not a global script: its names stay its own.
export {};
