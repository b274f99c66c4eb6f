/**
 * In the editor's own tab: a short notice of something a colleague did that concerns this tab (a
 * page moved or deleted by their Save), read out as it shows, and kept until closed: the marketer
 * may be looking elsewhere when it comes.
 */
const box = document.createElement('div');
box.id = 'editor-notice';
box.setAttribute('role', 'status');
box.hidden = true;
const words = document.createElement('p');
const close = document.createElement('button');
close.type = 'button';
close.textContent = 'OK';
close.addEventListener('click', () => (box.hidden = true));
box.append(words, close);
const style = document.createElement('style');
// Above the page's foot, where Keystatic's toasts are not (they are centred), under its dialogs.
style.textContent = `
#editor-notice { position: fixed; z-index: 1; bottom: 1rem; right: 1rem; display: flex; gap: .75rem;
  align-items: start; max-width: min(28rem, calc(100vw - 2rem)); box-sizing: border-box;
  font: 500 0.875rem/1.4 system-ui, sans-serif; padding: 0.5rem 0.75rem; border: 1px solid #2e5bd6;
  border-radius: 6px; background: #eef3ff; color: #1d2b53; box-shadow: 0 2px 8px rgb(0 0 0 / 15%); }
#editor-notice[hidden] { display: none; }
#editor-notice p { margin: 0; }
#editor-notice button { font: inherit; padding: 0 .6rem; min-height: 1.75rem; border-radius: 4px;
  border: 1px solid #2e5bd6; background: #fff; color: inherit; }`;
document.head.append(style);
document.body.append(box);

/** Shows `text` (a notice shown before gives way to it). */
export function notify(text: string) {
  // Hidden first, so that a second notice is read out too.
  box.hidden = true;
  words.textContent = text;
  requestAnimationFrame(() => (box.hidden = false));
}
