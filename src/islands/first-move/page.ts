/**
 * The first move of the page's widgets, inline in every page (BaseLayout). On a slow phone an
 * island's React code can take seconds to arrive; until it has, a tap on the widget is answered
 * here, in the same frame, with what the platform already does: a native <dialog>, an attribute
 * that CSS shows, a scroll. An island marks its root `data-hydrated` when React takes it over
 * (use-take-over.ts) and adopts the state left here; from then on this script leaves that widget
 * alone, so that a tap is applied once, by one of the two.
 *
 * The carousels and the portfolio have their own first moves (carousel.ts, gallery.ts), inline only
 * on their pages. Each file is free of imports so that Astro inlines it: a first move must not wait
 * for a request of its own.
 */

/** Whether React has taken over the widget that `element` belongs to. */
const hydrated = (element: Element) => !!element.closest('[data-hydrated]');

function toggleMenu(menu: Element, open: boolean) {
  menu.toggleAttribute('data-open', open);
  menu.querySelector('[data-menu-toggle]')!.setAttribute('aria-expanded', String(open));
}

document.addEventListener('click', (event) => {
  const target = event.target as Element;
  if (event.defaultPrevented || !target.closest) return;

  // A click on a modal's backdrop lands on the <dialog> itself.
  if (target instanceof HTMLDialogElement && target.open && !hydrated(target)) {
    return target.close();
  }
  const control = target.closest<HTMLElement>(
    '[data-scroll-top],[data-menu-toggle],[data-schedule-call],[data-dialog-close],[data-choose-time]',
  );
  const data = control?.dataset ?? {};

  if ('scrollTop' in data) {
    // Not an island: this is its whole behaviour. Smooth unless the visitor asked for less motion;
    // focus goes to the top of the page too, as the link's own #top would take it.
    event.preventDefault();
    const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
    scrollTo({ top: 0, behavior: reduce ? 'instant' : 'smooth' });
    document.querySelector<HTMLElement>('.skip-link')!.focus({ preventScroll: true });
  } else if ('menuToggle' in data) {
    const menu = control!.closest('.site-menu')!;
    if (!hydrated(menu)) toggleMenu(menu, !menu.hasAttribute('data-open'));
  } else if ('scheduleCall' in data) {
    const dialog = document.getElementById('schedule-call') as HTMLDialogElement | null;
    if (!dialog || hydrated(dialog)) return;
    event.preventDefault();
    if (!dialog.open) dialog.showModal();
  } else if ('dialogClose' in data) {
    const dialog = control!.closest('dialog')!;
    if (!hydrated(dialog)) dialog.close();
  } else if ('chooseTime' in data && control!.closest('astro-island[ssr]')) {
    // The time step's code is on its way (its island hydrates on this tap): it opens when it arrives.
    event.preventDefault();
    control!.dataset.requested = '';
  }
});

// Escape closes the menu (a <dialog> closes itself).
document.addEventListener('keydown', (event) => {
  const menu = document.querySelector('.site-menu[data-open]');
  if (event.key !== 'Escape' || !menu || hydrated(menu)) return;
  toggleMenu(menu, false);
  menu.querySelector<HTMLElement>('[data-menu-toggle]')!.focus();
});

// A form sent natively before its island hydrated is sent once: a second tap while the browser is
// already on its way to the answer would post it again. Coming back to the page allows it again.
// It carries an idempotency key (form-kit.tsx) all the same, so the server stores it once.
document.addEventListener('submit', (event) => {
  const form = event.target as HTMLFormElement;
  if (event.defaultPrevented || hydrated(form)) return;
  if ('sent' in form.dataset) event.preventDefault();
  form.dataset.sent = '';
  const key = form.elements.namedItem('idempotency_key') as HTMLInputElement | null;
  if (key && !key.value) key.value = crypto.randomUUID?.() ?? '';
});
addEventListener('pageshow', () => {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-sent]')) {
    delete form.dataset.sent;
  }
});

// The service worker (src/offline/worker.ts), a few seconds after the page has loaded: its install
// downloads the islands' code, which on a slow phone would hold up the first taps. Browsers without
// it, or a page not served over HTTPS, have no `serviceWorker`.
addEventListener('load', () => setTimeout(() => navigator.serviceWorker?.register('/sw.js'), 5000));

// A module, not a global script: its names stay its own.
export {};
