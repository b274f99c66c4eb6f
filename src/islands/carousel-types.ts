/** The data a carousel slide shows; serialisable, because islands receive it as props. */
export interface ImageData {
  src: string;
  width: number;
  height: number;
  alt: string;
}

export type SlideData =
  | {
      kind: 'testimonial';
      id: string;
      company: string;
      person: string;
      quote: string;
      logo: ImageData;
    }
  | { kind: 'project'; id: string; title: string; href: string; image: ImageData }
  | { kind: 'feedback'; id: string; quote: string; name: string; company: string };

export interface CarouselOptions {
  /** Which carousel it is; its slides-in-view are set in carousel.css per variant. */
  variant: 'testimonials' | 'projects' | 'feedback';
  autoplayMs: number;
  transitionMs: number;
  loop: boolean;
  arrows: boolean;
  dots: boolean;
}
