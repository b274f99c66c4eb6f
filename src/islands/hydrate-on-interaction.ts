/**
 * `client:interaction`: hydrates an island when a visitor first points at,
 * touches, focuses or presses a key on it, so a reader who never uses it
 * downloads no framework code.
 *
 * A click on a link or button that arrives before the island has hydrated is
 * held and replayed on the same element once it has; if hydration fails, a
 * held click on a link follows the link, which is the island's no-JavaScript
 * behaviour. Clicks on form controls are not held: they act natively.
 *
 * Options: `media` arms the directive only where the query matches (the mobile
 * menu has nothing to do on wide screens); `triggers` is a selector of elements
 * outside the island whose first use also hydrates it (the modal is opened from
 * buttons elsewhere on the page).
 */
import type { ClientDirective } from 'astro';

export interface InteractionOptions {
  media?: string;
  triggers?: string;
}

const intentEvents = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

const hydrateOnInteraction: ClientDirective = (load, { value }, island) => {
  const options: InteractionOptions = typeof value === 'object' && value ? value : {};
  const media = options.media ? window.matchMedia(options.media) : null;
  let hydration: Promise<void> | undefined;

  const hydrate = () => {
    if (!hydration) {
      hydration = load().then((run) => run());
      hydration.then(disarm, disarm);
    }
    return hydration;
  };

  const concerns = (target: EventTarget | null) =>
    target instanceof Element &&
    (island.contains(target) || (!!options.triggers && !!target.closest(options.triggers)));

  const onIntent = (event: Event) => {
    if ((!media || media.matches) && concerns(event.target)) void hydrate();
  };

  const onClick = (event: MouseEvent) => {
    const target = event.target;
    if (!(target instanceof Element) || !island.contains(target)) return;
    if (media && !media.matches) return;
    // Form controls keep their native behaviour; the island reads their state when it hydrates.
    if (target.closest('input, select, textarea, label')) return void hydrate();
    event.preventDefault();
    event.stopImmediatePropagation();
    hydrate().then(
      () => target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true })),
      () => {
        const link = target.closest('a');
        if (link) window.location.assign(link.href);
      },
    );
  };

  function disarm() {
    for (const type of intentEvents) document.removeEventListener(type, onIntent, true);
    document.removeEventListener('click', onClick, true);
  }

  for (const type of intentEvents) {
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  }
  document.addEventListener('click', onClick, true);
};

export default hydrateOnInteraction;
