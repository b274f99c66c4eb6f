/**
 * The Schedule a Call dialog's first days of free times as plain choices, before the time step's
 * island has come: the page's first move (src/layouts/BaseLayout.astro) loads this once the dialog
 * has opened and painted, beside its request for those days, and leaves here each "Choose a time"
 * tapped before then. The times show as radio buttons in the form (as /schedule offers them without
 * JavaScript), after the step's island, which takes them over with the choice made (CallTimeStep).
 * Built to a fixed address (src/integrations/standalone-scripts.ts); not in every page, where the
 * first response has no room for it.
 */
import { FIRST_FREE_TIMES, FIRST_TIMES_WANTED, type FreeTimesAnswer } from '../domain/api';
import { FIRST_TIMES } from '../domain/hand-over';

const page = window as unknown as Record<string, unknown>;

const el = (tag: string, text = '') => {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
};
const input = (type: string, name: string, value: string) =>
  Object.assign(el('input'), { type, name, value });

function showFirstTimes(island: Element) {
  const answer = page[FIRST_FREE_TIMES] as Promise<FreeTimesAnswer> | undefined;
  if (!answer || island.nextElementSibling?.hasAttribute(FIRST_TIMES)) return;
  // Empty until the answer comes: the link says "(loading...)" meanwhile (forms.css).
  const box = el('div');
  box.setAttribute(FIRST_TIMES, '');
  island.after(box);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const format = (options: Intl.DateTimeFormatOptions, start: string) =>
    new Date(start).toLocaleString(navigator.language, { timeZone, ...options });
  answer.then(
    ({ slots }) => {
      if (!box.isConnected || !slots.length) return box.remove();
      // A group of radio buttons a day, in the visitor's zone (named) and clock.
      const days: HTMLElement[] = [];
      let day: HTMLElement | undefined;
      for (const { start } of slots) {
        const date = format({ weekday: 'long', day: 'numeric', month: 'long' }, start);
        if (day?.firstChild?.textContent !== date) {
          day = el('fieldset');
          day.append(el('legend', date));
          days.push(day);
        }
        const label = el(
          'label',
          ` ${format({ hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }, start)}`,
        );
        label.prepend(input('radio', 'slot', start));
        day.append(label);
      }
      // The zone the e-mails give the time in; their locale is the browser's (Accept-Language).
      box.replaceChildren(...days, input('hidden', 'time_zone', timeZone));
      if (!box.closest('form')?.contains(document.activeElement)) return;
      box.querySelector('input')?.focus();
    },
    // The step's island says so, and offers to try again, when it comes.
    () => box.remove(),
  );
}

// The taps that came before this script, then each later one as it comes.
const wanted = (page[FIRST_TIMES_WANTED] ??= []) as Element[];
for (const island of wanted.splice(0)) showFirstTimes(island);
wanted.push = (...islands: Element[]) => {
  islands.forEach(showFirstTimes);
  return 0;
};
