import { atom } from 'nanostores';

/** Whether the mobile menu is open. */
export const $menuOpen = atom(false);

export const toggleMenu = () => $menuOpen.set(!$menuOpen.get());
export const closeMenu = () => $menuOpen.set(false);
