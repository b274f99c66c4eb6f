import { useStore } from '@nanostores/react';
import { useLayoutEffect, type MouseEvent, type ReactNode } from 'react';
import { $menuOpen, closeMenu, toggleMenu } from '../stores/menu';
import { useTakeOver } from './use-take-over';

interface Props {
  /** The list of links, server-rendered (SiteHeader): static HTML, so no props to serialise per page. */
  children: ReactNode;
}

/** A chosen link closes the menu (the page it leads to may be this one, with a #fragment). */
const closeOnLink = (event: MouseEvent) => {
  if ((event.target as Element).closest('a')) closeMenu();
};

/**
 * The main navigation. On wide screens it is a row of links; below the desktop
 * breakpoint a toggle opens and closes it. Until this island hydrates, the
 * page's first move (first-move/page.ts) opens and closes it; without JavaScript
 * the links are always shown (see the `scripting: none` rule in its styles).
 */
export default function MobileMenu({ children }: Props) {
  const open = useStore($menuOpen);
  const root = useTakeOver<HTMLDivElement>((menu) => $menuOpen.set(menu.hasAttribute('data-open')));

  // Listening from the commit that takes the menu over (a layout effect, after useTakeOver's): an
  // Escape pressed while the menu the first move opened is being adopted is not lost between them.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !$menuOpen.get()) return;
      closeMenu();
      root.current?.querySelector<HTMLElement>('[data-menu-toggle]')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div ref={root} className="site-menu" data-open={open || undefined}>
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls="site-menu"
        data-menu-toggle=""
        onClick={toggleMenu}
      >
        {/* Both icons are drawn; CSS shows the one for aria-expanded, whoever set it. */}
        <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            className="menu-toggle__open"
            d="M4 7h16M4 12h16M4 17h16"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
          <path
            className="menu-toggle__close"
            d="M6 6l12 12M18 6 6 18"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
        <span className="menu-toggle__label">Menu</span>
      </button>
      <nav id="site-menu" className="site-nav" aria-label="Main" onClick={closeOnLink}>
        {children}
      </nav>
    </div>
  );
}
