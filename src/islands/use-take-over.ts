import { useLayoutEffect, useRef } from 'react';
import { HYDRATED } from '../domain/hand-over';

/**
 * Marks an island's root element as taken over by React (HYDRATED, src/domain/hand-over.ts), so that
 * its first move (the inline script beside its markup) stops answering its taps, and hands `adopt` the root, to read whatever state
 * the first move left there. Both happen in one layout effect, in the commit that hydrates the
 * island, before any later tap can be dispatched: no tap falls between the two or reaches both.
 * `adopt` may return a clean-up, run if the island is ever unmounted.
 */
export function useTakeOver<T extends HTMLElement>(adopt?: (root: T) => void | (() => void)) {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const root = ref.current!;
    root.setAttribute(HYDRATED, '');
    return adopt?.(root) ?? undefined;
  }, []);
  return ref;
}
