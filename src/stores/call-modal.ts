import { atom } from 'nanostores';
import type { Slot } from '../domain/booking';

/** Whether the Schedule a Call modal is open. */
export const $callModalOpen = atom(false);

/** The control that opened the modal, so that focus can return to it. */
let opener: HTMLElement | null = null;

export function openCallModal(from?: HTMLElement | null) {
  opener = from ?? null;
  $callModalOpen.set(true);
}

/** Closes the modal and hands back the element that should get focus again. */
export function closeCallModal(): HTMLElement | null {
  $callModalOpen.set(false);
  const previous = opener;
  opener = null;
  return previous;
}

/**
 * What the dialog's form and its time step (an island of its own: its code loads only when a
 * visitor asks for a time) tell each other: the time chosen, which makes the form's button 'Book
 * this call', and the server's refusal of a time, which the step shows with the nearest free ones.
 */
/** Its start is the form's `slot`, all the server needs. */
export const $chosenTime = atom<Pick<Slot, 'start'> | null>(null);

/** The id of the Schedule a Call dialog (the page's first move, inline and importing nothing, spells it out). */
export const CALL_DIALOG_ID = 'schedule-call';

/** The id of the dialog's time step (its link, then its first control): a refusal links to it. */
export const CALL_TIME_ID = 'call-time';

export interface TimeRefusal {
  error?: string;
  /** When the time was just taken: the free times nearest to it. */
  alternatives?: Slot[];
}
export const $timeRefusal = atom<TimeRefusal>({});
