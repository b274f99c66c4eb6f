/**
 * The portfolio's first move (see page.ts): until the gallery island hydrates, a project opens in
 * the server-rendered lightbox, whose previous / next go through the projects the filter shows
 * (the filter itself is radios and CSS, and needs no script). The island adopts the project shown.
 */
const hydrated = (element: Element) => !!element.closest('[data-hydrated]');

function show(lightbox: HTMLDialogElement, index: number) {
  lightbox.dataset.index = String(index);
  lightbox.querySelectorAll<HTMLElement>('.lightbox__item').forEach((item, i) => {
    item.hidden = i !== index;
    if (i === index) lightbox.setAttribute('aria-labelledby', item.querySelector('h2')!.id);
  });
  if (!lightbox.open) lightbox.showModal();
}

document.addEventListener('click', (event) => {
  const control = (event.target as Element).closest?.<HTMLElement>(
    '.gallery__link,[data-lightbox-step]',
  );
  const gallery = control?.closest('.gallery');
  if (!gallery || event.defaultPrevented || hydrated(gallery)) return;
  event.preventDefault();
  const lightbox = gallery.querySelector<HTMLDialogElement>('.lightbox')!;
  const step = control!.dataset.lightboxStep;
  if (step === undefined) {
    show(lightbox, Number(control!.closest<HTMLElement>('.gallery__item')!.dataset.index));
    return;
  }
  // The same walk as stepProject in src/domain/portfolio.ts, over the items the filter leaves visible.
  const shown = [...gallery.querySelectorAll<HTMLElement>('.gallery__item')]
    .filter((item) => item.getClientRects().length > 0)
    .map((item) => Number(item.dataset.index));
  const at = Math.max(shown.indexOf(Number(lightbox.dataset.index)), 0);
  show(lightbox, shown[(at + Number(step) + shown.length) % shown.length]!);
});

// A module, not a global script: its names stay its own.
export {};
