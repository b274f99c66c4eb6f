import { useLayoutEffect, useRef, type MouseEvent, type SyntheticEvent } from 'react';
import { OPEN_MODAL } from '../domain/hand-over';
import { useTakeOver } from './use-take-over';

/**
 * Drives a native, server-rendered <dialog> from a store: opens it modal when
 * `open` turns true (the page behind becomes inert, focus moves in), close()
 * when it turns false. Escape, a click on the backdrop and the returned `close`
 * (for its close button) close it and ask `onClose`, which updates the store;
 * the store, not the browser, decides whether it opens again.
 * Tab and Shift+Tab wrap around inside it by the page's first move
 * (BaseLayout.astro), for every open dialog, before hydration and after.
 *
 * Before hydration the page's first move opens and closes the dialog itself;
 * `adopt` is handed the dialog when React takes over, to bring the store in
 * line with it (see useTakeOver).
 */
export function useModalDialog(
  open: boolean,
  onClose: () => void,
  adopt: (dialog: HTMLDialogElement) => void | (() => void),
) {
  const ref = useTakeOver<HTMLDialogElement>(adopt);
  const mounted = useRef(false);

  useLayoutEffect(() => {
    const dialog = ref.current!;
    // At mount the dialog is as the first move left it, and `adopt` has just read it.
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    if (open && !dialog.open) {
      // As the first move opens it (OPEN_MODAL): shown in the frame of the tap, modal from the next.
      // Here, if no first move did.
      dialog.dispatchEvent(new Event(OPEN_MODAL, { bubbles: true }));
      if (!dialog.open) dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  // Closed at once, in the task of the tap or the key, and the store told after: the page behind is
  // neither restyled while still inert nor painted only once React has rendered (`onClose` may then
  // focus what opened it, on a page no longer inert); the effect above then finds it closed.
  const close = () => {
    ref.current?.close();
    onClose();
  };

  const props = {
    ref,
    onCancel: (event: SyntheticEvent) => {
      event.preventDefault();
      close();
    },
    // The browser may still close it on a repeated Escape: the store follows. A `close` event is
    // queued after the close, and a dialog open again by the time it runs stays open.
    onClose: (event: SyntheticEvent<HTMLDialogElement>) => {
      if (open && !event.currentTarget.open) onClose();
    },
    // A click on the backdrop lands on the <dialog> itself, outside its panel.
    onClick: (event: MouseEvent<HTMLDialogElement>) => {
      if (event.target === event.currentTarget) close();
    },
  };
  return { props, close };
}
