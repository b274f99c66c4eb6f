/**
 * In the editor's own tab (./tab.ts imports it): what a refused Save says. Keystatic marks a
 * mistake at its field, but one inside a list item whose dialog is closed is nowhere in view, and
 * Save then seemed to do nothing. Keystatic now tells of each refused Save
 * (../dev-server/keystatic-rewrites.ts); this says, under Save and to a screen reader, which item
 * and field stop it: "Not saved: Tiles → 3rd tile → Title: must be 3-40 characters". It goes when
 * a Save succeeds (Keystatic's toast then says "Saved"), when anything is changed or the entry
 * reset, and when another entry is opened.
 */
import { RESET_EVENT, SAVED_EVENT, SAVE_REFUSED_EVENT } from '../events.ts';
import { describeProblem, firstProblem, type Preview, type SlugInfo } from '../problems.ts';

const message = document.createElement('p');
message.id = 'editor-save-problem';
// An alert: read out as it shows, as a refused Save is something to act on. Hidden while empty
// (an empty alert is still an alert to assistive technology, and to the tests).
message.setAttribute('role', 'alert');
message.hidden = true;
const style = document.createElement('style');
// Under the header's Save, over the page, but under a dialog opened to mend the mistake.
style.textContent = `
#editor-save-problem { position: fixed; z-index: 1; top: 4.5rem; right: 1rem; margin: 0;
  max-width: min(32rem, calc(100vw - 2rem)); font: 500 0.875rem/1.4 system-ui, sans-serif;
  padding: 0.5rem 0.75rem; border: 1px solid #b42318;
  border-radius: 6px; background: #fef3f2; color: #7a271a; box-shadow: 0 2px 8px rgb(0 0 0 / 15%); }`;
document.head.append(style);
document.body.append(message);

const say = (text: string) => {
  message.textContent = text;
  message.hidden = text === '';
};

document.addEventListener(SAVE_REFUSED_EVENT, (event) => {
  let problem;
  try {
    const { preview, slugInfo } = (event as CustomEvent<{ preview: Preview; slugInfo?: SlugInfo }>)
      .detail;
    problem = firstProblem(preview, [], slugInfo);
  } catch {
    problem = undefined; // a value this cannot walk: the general message below
  }
  // Hidden first, so that the same message for a second Save is read out again as it shows.
  say('');
  requestAnimationFrame(() =>
    say(
      `Not saved: ${problem ? describeProblem(problem) : 'a field above says what is wrong (marked in red)'}`,
    ),
  );
});
document.addEventListener(SAVED_EVENT, () => say(''));
// Once anything is changed (the mistake mended, the entry reset), the next Save tells anew.
for (const type of ['input', 'change', RESET_EVENT])
  document.addEventListener(type, () => say(''), true);

// Another entry opened (Keystatic moves by the history API): its message no longer applies.
let shownAt = location.pathname;
const moved = () => {
  if (location.pathname === shownAt) return;
  shownAt = location.pathname;
  say('');
};
for (const method of ['pushState', 'replaceState'] as const) {
  const original = history[method].bind(history);
  history[method] = (...args: Parameters<History['pushState']>) => {
    original(...args);
    moved();
  };
}
addEventListener('popstate', moved);
