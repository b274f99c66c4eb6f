import { useLayoutEffect, useReducer, useRef } from 'react';
import { HYDRATED } from '../domain/hand-over';

/**
 * Marks an island's root element as taken over by React (HYDRATED, src/domain/hand-over.ts), so that
 * its first move (the inline script beside its markup) stops answering its taps, and hands `adopt` the root, to read whatever state
 * the first move left there. Both happen in one layout effect, in the commit that hydrates the
 * island, before any later tap can be dispatched: no tap falls between the two or reaches both.
 * `adopt` may return a clean-up, run if the island is ever unmounted.
 *
 * The island then renders again at once, in the same task (an update made in a layout effect is
 * synchronous): its handlers were made by the hydrating render, before `adopt` ran, and a store's
 * subscribers hear of what `adopt` put in it only in a passive effect, a task or a frame later. A
 * tap in between met handlers that knew nothing of the adopted state (the lightbox's Next, with no
 * project open as far as it knew, did nothing).
 */
export function useTakeOver<T extends HTMLElement>(adopt?: (root: T) => void | (() => void)) {
  const ref = useRef<T>(null);
  const [, renderAgain] = useReducer((renders: number) => renders + 1, 0);
  useLayoutEffect(() => {
    const root = ref.current!;
    root.setAttribute(HYDRATED, '');
    if (!adopt) return;
    const cleanUp = adopt(root);
    renderAgain();
    return cleanUp ?? undefined;
  }, []);
  return ref;
}
