import { ArrowIcon } from './icons';

interface Props {
  direction: 'previous' | 'next';
  /** What it moves to, for assistive technology: 'Next slide', 'Previous project'. */
  label: string;
  onClick: () => void;
  /** The element it moves through. */
  controls?: string;
  /** The attribute by which the page's first move finds it before hydration, e.g. data-carousel-step. */
  firstMove: `data-${string}`;
}

/** A round previous / next control, for the carousels and the lightbox. */
export default function StepButton({ direction, label, onClick, controls, firstMove }: Props) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-controls={controls}
      {...{ [firstMove]: direction === 'next' ? '1' : '-1' }}
      onClick={onClick}
    >
      <ArrowIcon direction={direction} />
      <span className="visually-hidden">{label}</span>
    </button>
  );
}
