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
  /** Slides in view: at the base width, from 480 px and from 768 px. */
  perView: { base: number; sm: number; md: number };
  autoplayMs: number;
  transitionMs: number;
  loop: boolean;
  arrows: boolean;
  dots: boolean;
}
