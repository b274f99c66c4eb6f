import type { CAROUSEL_STEP, LIGHTBOX_STEP } from '../domain/hand-over';
import { ArrowIcon } from './icons';

interface Props {
  direction: 'previous' | 'next';
  /** What it moves to, for assistive technology: 'Next slide', 'Previous project'. */
  label: string;
  onClick: () => void;
  /** The element it moves through. */
  controls?: string;
  /** The attribute by which its first move finds it before hydration. */
  firstMove: typeof CAROUSEL_STEP | typeof LIGHTBOX_STEP;
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
