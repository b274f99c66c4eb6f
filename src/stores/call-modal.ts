import { atom } from 'nanostores';

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
