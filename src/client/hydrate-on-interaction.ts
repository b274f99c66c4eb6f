/**
 * `client:interaction`: hydrates an island when a visitor first presses on it (a mouse's button, a
 * pen or a finger), focuses it or presses a key in it, so a reader who never uses it downloads no
 * framework code.
 *
 * The tap itself is not held for the island: the page's first move
 * (the inline script beside its markup) answers it at once, and the island adopts that state when it
 * hydrates. Clicks on links and form controls act natively meanwhile. Not on a mouse's hover: a
 * finger sends its pointerover with its pointerdown, and each listener on the document is run in the
 * task of each tap on a slow phone, for nothing there; a mouse's click is answered as a tap is.
 *
 * Options: `triggers` is a selector of elements
 * outside the island whose first use also hydrates it (the modal is opened from
 * links elsewhere on the page); `pending` names a localStorage flag that, while
 * set, hydrates the island once the page has settled (the modal also shows the enquiries kept
 * on the device, src/offline/device-queue.ts, which must be sent and shown on any page).
 */
import type { ClientDirective } from 'astro';
import { whenSettled } from './when-settled';

export interface InteractionOptions {
  triggers?: string;
  pending?: string;
}

const intentEvents = ['pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

/** A finger, a pen or a button pressed: a click follows, which the page's first move answers. */
const pressed = (event: Event) => event.type === 'pointerdown' || event.type === 'touchstart';

/** How long a press may go without its click (a scroll, a long press) before the island loads. */
const NO_CLICK_MS = 1000;

/**
 * `run` once the press's click has been dispatched (or NO_CLICK_MS without one). A tap's click
 * comes after its touchend, often a frame later: the island's requests, started in that frame (8-20
 * ms of a slow phone's main thread), held back the click and the frame that answers it.
 */
function afterClick(run: () => void) {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    document.removeEventListener('click', once, true);
    run();
  };
  document.addEventListener('click', once, { capture: true, passive: true });
  setTimeout(once, NO_CLICK_MS);
}

const hydrateOnInteraction: ClientDirective = (load, { value }, island) => {
  const options: InteractionOptions = typeof value === 'object' && value ? value : {};
  // Once: kept enquiries may hydrate the island before a visitor's intent, or after it.
  let started = false;
  const hydrate = () => {
    if (started) return;
    started = true;
    void load().then((run) => run());
  };
  // After the frame that answers the tap: starting the island's requests costs that frame 10-20 ms
  // under a slow CPU, and the code cannot arrive before it anyway.
  const hydrateSoon = () => requestAnimationFrame(() => setTimeout(hydrate));

  const onIntent = (event: Event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (!island.contains(target) && !(options.triggers && target.closest(options.triggers))) return;
    for (const type of intentEvents) document.removeEventListener(type, onIntent, true);
    if (pressed(event)) afterClick(hydrateSoon);
    else hydrateSoon();
  };

  for (const type of intentEvents) {
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  }

  // Not while the page is parsed: the first read of localStorage waits on the browser's process (a
  // synchronous call), and on `/` under Lighthouse it held the main thread up to 23 ms for 2 ms of
  // work; nor at the load, when a quick visitor's first tap lands.
  const pending = options.pending;
  if (pending) {
    whenSettled(() => {
      try {
        if (localStorage.getItem(pending)) hydrate();
      } catch {
        // Storage blocked: nothing can have been kept either.
      }
    });
  }
};

export default hydrateOnInteraction;
