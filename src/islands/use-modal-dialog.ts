import { useLayoutEffect, useRef, type MouseEvent, type SyntheticEvent } from 'react';
import { useTakeOver } from './use-take-over';

/**
 * Drives a native, server-rendered <dialog> from a store: showModal() when
 * `open` turns true (the page behind becomes inert, focus moves in), close()
 * when it turns false. Escape and a click on the backdrop ask `onClose`, which
 * updates the store; the store, not the browser, decides the dialog's state.
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
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  return {
    ref,
    onCancel: (event: SyntheticEvent) => {
      event.preventDefault();
      onClose();
    },
    // The browser may still close it on a repeated Escape: the store follows. A `close` event is
    // queued after the close, and a dialog open again by the time it runs stays open.
    onClose: (event: SyntheticEvent<HTMLDialogElement>) => {
      if (open && !event.currentTarget.open) onClose();
    },
    // A click on the backdrop lands on the <dialog> itself, outside its panel.
    onClick: (event: MouseEvent<HTMLDialogElement>) => {
      if (event.target === event.currentTarget) onClose();
    },
  };
}
