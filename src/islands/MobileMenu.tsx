import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { $menuOpen, closeMenu, toggleMenu } from '../stores/menu';

interface Props {
  links: { href: string; label: string }[];
  /** The path of the page, to mark its link as current. */
  current: string;
}

/**
 * The main navigation. On wide screens it is a row of links; below the desktop
 * breakpoint a toggle opens and closes it. Without JavaScript the links are
 * always shown (see the `scripting: none` rule in its styles).
 */
export default function MobileMenu({ links, current }: Props) {
  const open = useStore($menuOpen);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      closeMenu();
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <div className="site-menu" data-open={open || undefined}>
      <button
        ref={toggle}
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls="site-menu"
        onClick={toggleMenu}
      >
        <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            d={open ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'}
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
        <span className="menu-toggle__label">Menu</span>
      </button>
      <nav id="site-menu" className="site-nav" aria-label="Main">
        <ul role="list" className="site-nav__list">
          {links.map(({ href, label }) => (
            <li key={href}>
              <a
                href={href}
                aria-current={current === href ? 'page' : undefined}
                onClick={closeMenu}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
