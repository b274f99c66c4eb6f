import {
  useLayoutEffect,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type SyntheticEvent,
} from 'react';
import { useTakeOver } from './use-take-over';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Drives a native, server-rendered <dialog> from a store: showModal() when
 * `open` turns true (the page behind becomes inert, focus moves in), close()
 * when it turns false. Escape and a click on the backdrop ask `onClose`, which
 * updates the store; the store, not the browser, decides the dialog's state.
 * Tab and Shift+Tab wrap around inside the dialog instead of leaving for the
 * browser's own controls.
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
    // The browser may still close it on a repeated Escape: the store follows.
    onClose: () => {
      if (open) onClose();
    },
    onKeyDown: (event: KeyboardEvent<HTMLDialogElement>) => {
      if (event.key !== 'Tab') return;
      const items = [...event.currentTarget.querySelectorAll<HTMLElement>(focusable)];
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    },
    // A click on the backdrop lands on the <dialog> itself, outside its panel.
    onClick: (event: MouseEvent<HTMLDialogElement>) => {
      if (event.target === event.currentTarget) onClose();
    },
  };
}
