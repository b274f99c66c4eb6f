export interface CarouselOptions {
  /** Which carousel it is; its slides-in-view are set in carousel.css per variant. */
  variant: 'testimonials' | 'projects' | 'feedback';
  autoplayMs: number;
  transitionMs: number;
  loop: boolean;
  arrows: boolean;
  dots: boolean;
}
