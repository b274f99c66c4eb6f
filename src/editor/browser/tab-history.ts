/**
 * In the editor's own tab (./tab.ts imports it): the ways into the content's history
 * (../dev-server/history/route.ts), and the help around a page's address.
 *
 * - "History and deleted entries" in the navigation (an entry's own History is in its toolbar:
 *   ../dev-server/keystatic-rewrites.ts).
 * - Keystatic's Delete dialog for a service page lists the links to the page and asks where its
 *   visitors should be sent; the dev server adds that redirect once the file is gone
 *   (../dev-server/history/recorder.ts). It no longer says "This action cannot be undone".
 * - When a save moved a page to another address, or deleted it, the dev server has added the
 *   redirect and says so here: the marketer is offered to point the links to the old address at
 *   the new one. A page moved to an address that sent its visitors on elsewhere takes them: that
 *   redirect was removed, which is said, and the links to that address can keep going where they
 *   went. Only the tab whose Save it was offers it: a colleague's tabs say what they did.
 *
 * Keystatic renders these parts with React: what is added here lives beside its elements, marked
 * `data-editor-history`, and is added again whenever Keystatic renders a part anew.
 */
import { PAGE_MOVED_EVENT, type PageMove } from '../events.ts';
import { HISTORY_BASE as BASE } from '../routes.ts';
import { onServerEvent } from '../server-events.ts';
import { madeHere } from './own-moves.ts';
import { afterEachRedraw } from './redraws.ts';

const MARK = 'data-editor-history';

interface Links {
  links: { file: string; links: number; label: string; places?: string[] }[];
  pages: string[];
  /** Each page's name, by its address, where it has one. */
  names?: Record<string, string>;
}

/**
 * An entry that links to a page, as the dialogs list it: where its links are on the site ("the
 * footer's Popular services: Laravel"), else its name in the editor.
 */
const describeLink = (l: Links['links'][number]) =>
  l.places?.length ? l.places.join('; ') : `${l.label}, ${l.links} link${l.links === 1 ? '' : 's'}`;

/** A page as the dialogs offer it: its name beside its address. */
const describePage = (page: string, names: Links['names']) =>
  names?.[page] ? `${names[page]} (${page})` : page;

const linksTo = async (address: string): Promise<Links> => {
  const response = await fetch(`${BASE}/links.json?to=${encodeURIComponent(address)}`);
  if (!response.ok) throw new Error(`links.json: ${response.status}`);
  return (await response.json()) as Links;
};

function element<K extends keyof HTMLElementTagNameMap>(
  name: K,
  properties: Partial<Omit<HTMLElementTagNameMap[K], 'style'>> & { style?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(name);
  const { style, ...rest } = properties;
  Object.assign(node, rest);
  if (style) node.setAttribute('style', style);
  node.setAttribute(MARK, '');
  node.append(...children);
  return node;
}

/** The entry the page shows: a service page's own address and file. */
function currentEntry() {
  const match = /^\/keystatic\/(collection\/[^/]+\/item\/[^/]+|singleton\/[^/]+)\/?$/.exec(
    location.pathname,
  );
  if (!match) return undefined;
  const service = /^collection\/services\/item\/([a-z0-9-]+)$/.exec(match[1]!);
  return {
    address: service ? `/${service[1]}` : undefined,
    file: service ? `src/content/services/${service[1]}.mdx` : undefined,
  };
}

const buttonStyle =
  'display:inline-flex;align-items:center;gap:.25rem;padding:0 .75rem;height:2rem;border-radius:.375rem;color:inherit;font:inherit;font-size:.875rem;text-decoration:none;white-space:nowrap';

function addNavigationLink() {
  const dashboard = document.querySelector<HTMLAnchorElement>('nav a[href="/keystatic"]');
  const item = dashboard?.closest('li');
  if (!item || item.parentElement?.querySelector(`li[${MARK}]`)) return;
  const copy = item.cloneNode(true) as HTMLLIElement;
  copy.setAttribute(MARK, '');
  const link = copy.querySelector('a')!;
  link.href = BASE;
  link.removeAttribute('aria-current');
  link.removeAttribute('data-react-aria-pressable');
  const label = [...copy.querySelectorAll('span')].at(-1);
  if (label) label.textContent = 'History and deleted entries';
  item.after(copy);
}

/** Keystatic's Delete dialog, for a service page: its links, and where its visitors go. */
function helpDelete() {
  const dialog = document.querySelector<HTMLElement>('[role="alertdialog"]');
  const entry = currentEntry();
  if (
    !dialog ||
    dialog.hasAttribute(MARK) ||
    !/^Delete entry$/.test(dialog.querySelector('h2')?.textContent ?? '')
  )
    return;
  dialog.setAttribute(MARK, '');
  const warning = [...dialog.querySelectorAll('span')].find((span) =>
    /cannot be undone/.test(span.textContent ?? ''),
  );
  if (warning)
    warning.textContent =
      'Are you sure? You can bring it back later from History and deleted entries.';
  if (!entry?.address || !entry.file || !warning) return;
  const { address, file } = entry;
  const help = element('div', { style: 'display:grid;gap:.75rem;margin-top:.75rem' });
  help.style.font = getComputedStyle(warning).font;
  warning.after(help);
  // One after the other, so that the last choice is the one kept (two posts in flight could land
  // in either order, and the first choice win).
  let planned: Promise<unknown> = Promise.resolve();
  const plan = (to: string) =>
    (planned = planned.then(() =>
      fetch(`${BASE}/plan`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ file, to }),
      }),
    ));
  void linksTo(address).then(({ links, pages, names }) => {
    if (links.length)
      help.append(
        element(
          'p',
          {},
          `${links.length === 1 ? 'One entry links' : `${links.length} entries link`} to ${address}:`,
        ),
        element(
          'ul',
          { style: 'margin:0;padding-left:1.25rem' },
          ...links.map((l) => element('li', {}, describeLink(l))),
        ),
      );
    const select = element('select', {
      id: 'editor-history-redirect',
      style: 'font:inherit;padding:.25rem;width:100%;max-width:100%;box-sizing:border-box',
    });
    select.append(
      ...pages.map((page) =>
        element(
          'option',
          { value: page, selected: page === '/service' },
          describePage(page, names),
        ),
      ),
      element('option', { value: '' }, "Nowhere: the address answers 'page not found'"),
    );
    const label = element(
      'label',
      { htmlFor: select.id },
      `Send visitors of ${describePage(address, names)} (and ${links.length ? 'these links' : 'links from other sites'}) to:`,
    );
    help.append(element('div', { style: 'display:grid;gap:.25rem' }, label, select));
    void plan(select.value);
    select.addEventListener('change', () => void plan(select.value));
    // Cancel: nothing is planned for a page that stays.
    const cancel = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Cancel');
    cancel?.addEventListener('click', () => void plan(''));
  });
}

/** The words of a dialog after a save moved or deleted a page. */
function movedWords({ from, to, kind, title, replaced }: PageMove) {
  const name = title ? `“${title}”` : 'The page';
  const headings = {
    deleted: `The page ${from} was deleted`,
    moved: `The page ${from} is now ${to}`,
    created: `The new page is at ${to}`,
  };
  const sentences = {
    deleted: `${name} was deleted. Visitors and links to ${from} are sent on to ${to}: a redirect was added to Redirects. You can bring the page back from History and deleted entries.`,
    moved: `Visitors and links to ${from} are sent on to ${to}: a redirect was added to Redirects.`,
    created: undefined,
  };
  return {
    heading: headings[kind],
    said: [
      ...(sentences[kind] ? [sentences[kind]] : []),
      ...(replaced
        ? [
            `Until now, ${replaced.from} sent its visitors on to ${replaced.to} (a redirect in Redirects). ${name} is at ${replaced.from} now, so they see it: that redirect was removed.`,
          ]
        : []),
    ],
  };
}

/**
 * One offer of a dialog after a move: the entries that link to `from`, and a button that points
 * their links at `to`. Once done, the list goes and `status` says so.
 */
function linksOffer(
  links: Links['links'],
  { from, to, intro }: { from: string; to: string; intro: string },
  status: HTMLElement,
  done: () => void,
) {
  const text = element('p', {}, intro);
  const list = element('ul', {}, ...links.map((l) => element('li', {}, describeLink(l))));
  const update = element(
    'button',
    { type: 'button', style: `${buttonStyle};background:#2e5bd6;color:#fff;border:0` },
    `Point them at ${to}`,
  );
  update.addEventListener('click', async () => {
    update.disabled = true;
    const response = await fetch(`${BASE}/links`, {
      method: 'POST',
      body: new URLSearchParams({ from, to }),
    });
    status.textContent = response.ok
      ? `Done: the links now lead to ${to}.`
      : 'The links could not be changed: see History and deleted entries.';
    // What the dialog said about them no longer holds: it goes with the button.
    if (response.ok) (text.remove(), list.remove());
    update.remove();
    done();
  });
  return { parts: [text, list], button: update };
}

/** "One entry still links to /x:", "3 entries link to /x, which …:" */
const linking = (links: Links['links'], verb: string, address: string, which = '') =>
  `${links.length === 1 ? `One entry ${verb.replace(/link$/, 'links')}` : `${links.length} entries ${verb}`} to ${address}${which}:`;

/** After a save moved or deleted a page: the redirect is there; the links can follow. */
async function offerToMoveLinks(move: PageMove) {
  const { from, to, replaced } = move;
  const [old, taken] = await Promise.all([
    move.kind === 'created' ? [] : linksTo(from).then((l) => l.links),
    replaced ? linksTo(replaced.from).then((l) => l.links) : [],
  ]);
  const words = movedWords(move);
  const dialog = element('dialog', {
    style:
      'max-width:32rem;border:0;border-radius:.75rem;padding:1.5rem;box-shadow:0 8px 32px #0004;font:15px/1.5 system-ui,sans-serif',
  });
  dialog.setAttribute('aria-labelledby', 'editor-history-moved');
  const offers = (old.length ? 1 : 0) + (taken.length ? 1 : 0);
  const close = element(
    'button',
    { type: 'button', style: buttonStyle + ';border:1px solid #888' },
    offers ? 'Not now' : 'OK',
  );
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  dialog.append(
    element(
      'h2',
      { id: 'editor-history-moved', style: 'margin:0 0 .5rem;font-size:1.2rem' },
      words.heading,
    ),
    ...words.said.map((sentence) => element('p', {}, sentence)),
  );
  const buttons = element('div', {
    style: 'display:flex;gap:.5rem;flex-wrap:wrap;margin-top:1rem',
  });
  const status = element('p', { role: 'status' });
  let left = offers;
  // The button pressed goes: the focus moves on to the next offer, else to Close.
  const done = () => {
    if (--left > 0) return buttons.querySelector('button')?.focus();
    close.textContent = 'Close';
    close.focus();
  };
  const offered = [
    ...(old.length
      ? [linksOffer(old, { from, to, intro: linking(old, 'still link', from) }, status, done)]
      : []),
    ...(replaced && taken.length
      ? [
          linksOffer(
            taken,
            {
              from: replaced.from,
              to: replaced.to,
              intro: linking(
                taken,
                'link',
                replaced.from,
                `, which led on to ${replaced.to} until now and leads to this page now`,
              ),
            },
            status,
            done,
          ),
        ]
      : []),
  ];
  for (const offer of offered) {
    dialog.append(...offer.parts);
    buttons.append(offer.button);
  }
  if (offered.length) dialog.append(status);
  buttons.append(close);
  dialog.append(buttons);
  document.body.append(dialog);
  dialog.showModal();
}

// Keystatic's red button (the Delete dialog's "Yes, delete"): white on its red 9 is 3.9:1, under
// the 4.5:1 text needs; its own darker reds are above it.
document.head.append(
  element(
    'style',
    {},
    `button[data-tone='critical'][data-prominence='high']:not(:disabled){background-color:var(--kui-color-scale-red11)}
button[data-tone='critical'][data-prominence='high']:is([data-hovered],[data-focus='visible'],[data-pressed]):not(:disabled){background-color:var(--kui-color-scale-red12)}`,
  ),
);

afterEachRedraw(() => {
  addNavigationLink();
  helpDelete();
});

// Only in the tab whose Save moved the page: a colleague's tabs say what happened (./drafts.ts),
// and its links are the colleague's to point.
onServerEvent(PAGE_MOVED_EVENT, (move: PageMove) => {
  if (madeHere(move)) void offerToMoveLinks(move);
});
