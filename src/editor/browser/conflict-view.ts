/**
 * The conflict view, in the editor's tab (./conflicts.ts opens it when the dev server refuses a
 * Save because a file changed since the entry was opened): a dialog that says who or what changed
 * it and when, and shows the marketer's version and the other one field by field (../merge.ts),
 * each field's two values to choose from, the words that differ in a long text marked. The
 * marketer keeps theirs, takes the other, keeps each field from either side, or not now.
 */
import type { StaleFile } from '../events.ts';
import { contentPlace } from '../../content-model/places.ts';
import { keyOf, suggested, type Difference, type Side, type Version } from '../merge.ts';
import { timeWords } from '../time-words.ts';

/** One file the refused Save would have written: what the Save did to it, and both versions. */
export interface Case {
  /**
   * 'edit': the marketer's version of a file changed since; 'gone': one deleted since; 'deleting':
   * a deletion of one changed since; 'taken': a new file (a new entry, a rename) where one is now.
   */
  kind: 'edit' | 'gone' | 'deleting' | 'taken';
  stale: StaleFile;
  mine?: Version;
  /** The fields that differ, when both versions can be read field by field. */
  found?: Difference[];
}

/** What the marketer chose: a side for every file, or each field's side, or nothing now. */
export type Choice = { keep: Side } | { fields: Map<string, Side> } | 'later';

/**
 * "today 09:23", "yesterday 17:02", "3 March, 09:23": when, in the tab's own time zone, in the words
 * History uses (../time-words.ts).
 */
export const when = (at: number, now = Date.now()): string => timeWords(at, { now });

/** Who or what changed a file, in plain words, from what the history recorded. */
export function whoChanged({ kind, note = '', by }: StaleFile['change']): string {
  const move = /^(?:Links to|Visitors of) (\S+) (?:now lead|are sent) to (\S+?)(?:;|$)/.exec(note);
  switch (kind) {
    case 'editor':
      // Named where a member signed in saved it (the live site): a colleague, or they in another tab.
      return by
        ? `${by} saved it in the editor`
        : 'Someone saved it in the editor (in another tab, or a colleague)';
    case 'restore':
      return 'An older version of it was restored from History';
    case 'bring-back':
      return 'It was brought back from Deleted entries';
    case 'links': {
      const back = /^Links that led to (\S+) lead to (\S+) again/.exec(note);
      if (back)
        return `Its links to ${back[1]} were pointed back at ${back[2]}, when a deleted page came back`;
      return move
        ? `Its links to ${move[1]} were pointed at ${move[2]} (“Point them at ${move[2]}”), after that page moved`
        : 'Its links were pointed at the new address of a page that moved';
    }
    case 'redirect': {
      const gone = /^(\/\S+) no longer sends visitors to (\S+?):/.exec(note);
      if (gone)
        return `The redirect from ${gone[1]} to ${gone[2]} was taken away, as a page took that address`;
      return move
        ? `A redirect from ${move[1]} to ${move[2]} was added to it, when that page moved`
        : 'A redirect was added to it, when a page moved';
    }
    case 'outside':
      return 'Its file was changed outside the editor';
    case 'publish':
      return 'A publish of the live site changed it';
    case 'rollback':
      return 'A roll back of the live site changed it';
    default:
      return `A developer changed it${note ? ` (“${note}”)` : ''}`;
  }
}

/** The entry a file is, as the editor names it: "Service pages → ipad", "Technologies". */
export const entryName = (path: string) => contentPlace(path, '') ?? path;

function element<K extends keyof HTMLElementTagNameMap>(
  name: K,
  properties: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(name), properties);
  node.append(...children);
  return node;
}

/* The comparison scrolls; the choices below it stay in view, however long the texts compared (a phone's
   screen held a fraction of them). A choice focused from the keyboard is scrolled into view inside the
   comparison, so never under the buttons. */
const STYLE = `
.editor-conflict { box-sizing: border-box; width: min(46rem, calc(100vw - 1rem)); max-width: none;
  max-height: calc(100dvh - 1rem); overflow: hidden; border: 0; border-radius: .75rem;
  padding: 0; box-shadow: 0 8px 32px #0004; font: 15px/1.5 system-ui, sans-serif;
  color: #1d1d1f; background: #fff; }
.editor-conflict[open], .editor-conflict form { display: flex; flex-direction: column; min-height: 0; }
.editor-conflict form { flex: 0 1 auto; }
.editor-conflict .comparison { flex: 0 1 auto; min-height: 0; overflow: auto; padding: 1.25rem 1.25rem .25rem; }
.editor-conflict::backdrop { background: #0006; }
.editor-conflict h2 { margin: 0 0 .5rem; font-size: 1.25rem; line-height: 1.3; }
.editor-conflict h3 { margin: 1rem 0 .25rem; font-size: 1rem; }
.editor-conflict p { margin: .25rem 0 .75rem; }
.editor-conflict fieldset { margin: 0 0 .75rem; padding: .5rem .75rem .75rem; border: 1px solid #c8c8cc;
  border-radius: .5rem; min-width: 0; }
.editor-conflict legend { font-weight: 600; padding: 0 .25rem; }
.editor-conflict legend small { font-weight: 400; color: #4a4a4f; }
.editor-conflict label { display: grid; grid-template-columns: auto 1fr; gap: .125rem .5rem;
  align-items: start; padding: .375rem .25rem; border-radius: .375rem; cursor: pointer; }
.editor-conflict label:has(input:checked) { background: #eef3ff; }
.editor-conflict input { margin: .3rem 0 0; }
.editor-conflict .side { font-weight: 600; }
.editor-conflict .value { grid-column: 2; white-space: pre-wrap; overflow-wrap: anywhere; }
.editor-conflict .value ul { margin: 0; padding-left: 1.25rem; }
.editor-conflict mark { background: #fde68a; color: inherit; border-radius: 2px; }
.editor-conflict .empty { font-style: italic; color: #4a4a4f; }
.editor-conflict .buttons { flex: none; display: flex; flex-wrap: wrap; gap: .5rem;
  padding: .75rem 1.25rem 1.25rem; border-top: 1px solid #c8c8cc; }
.editor-conflict button { font: inherit; font-size: .9375rem; min-height: 2.25rem; padding: 0 .875rem;
  border-radius: .375rem; border: 1px solid #6e6e73; background: #fff; color: #1d1d1f; cursor: pointer; }
.editor-conflict button.primary { background: #2548b8; border-color: #2548b8; color: #fff; }
.editor-conflict button:focus-visible, .editor-conflict input:focus-visible { outline: 2px solid #2548b8;
  outline-offset: 2px; }
`;

/**
 * A text beside another: the words this one has that the other has not are marked, so that a
 * sentence added to a long text stands out (the words in common: their longest common run).
 */
function marked(text: string, other: string): Node {
  const ours = text.split(/(\s+)/);
  const a = ours.filter((_, i) => i % 2 === 0);
  const b = other.split(/\s+/);
  if (a.length * b.length > 250_000) return document.createTextNode(text);
  // run[i][j]: the longest common run of a's words from i and b's from j.
  const run = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      run[i]![j] =
        a[i] === b[j] ? run[i + 1]![j + 1]! + 1 : Math.max(run[i + 1]![j]!, run[i]![j + 1]!);
  const common = new Set<number>();
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      common.add(i);
      i++;
      j++;
    } else if (run[i + 1]![j]! >= run[i]![j + 1]!) i++;
    else j++;
  }
  const out = document.createDocumentFragment();
  ours.forEach((token, k) =>
    out.append(k % 2 || !token || common.has(k / 2) ? token : element('mark', {}, token)),
  );
  return out;
}

/**
 * A value as the marketer reads it: text as it is (a long one with what differs from the other
 * marked), a list as a list, nothing as "(empty)".
 */
function shown(value: unknown, other?: unknown): Node {
  if (typeof value === 'string' && typeof other === 'string' && value.length > 40)
    return marked(value, other);
  if (value === undefined || value === null || value === '')
    return element('span', { className: 'empty' }, '(empty)');
  if (typeof value === 'boolean') return document.createTextNode(value ? 'Yes' : 'No');
  if (Array.isArray(value))
    return element('ul', {}, ...value.map((v) => element('li', {}, line(v))));
  if (typeof value === 'object')
    return element(
      'ul',
      {},
      ...Object.entries(value).map(([k, v]) => element('li', {}, `${k}: `, line(v))),
    );
  return document.createTextNode(String(value));
}

/** An item of a list in one line: its name, else its values. */
function line(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value ?? '');
  const record = value as Record<string, unknown>;
  const name = ['name', 'title', 'label', 'from', 'id'].find(
    (key) => typeof record[key] === 'string',
  );
  if (name) {
    const rest = Object.entries(record).filter(([key]) => key !== name);
    return `${record[name]}${rest.length ? ` (${rest.map(([k, v]) => `${k}: ${line(v)}`).join(', ')})` : ''}`;
  }
  return Object.entries(record)
    .map(([k, v]) => `${k}: ${line(v)}`)
    .join(', ');
}

const changedWords = {
  mine: 'changed by you',
  theirs: 'changed in the other version',
  both: 'changed in both',
};

/** One field: the marketer's value and the other, one to choose. */
function fieldChoice(difference: Difference, index: number, at: string): HTMLFieldSetElement {
  const name = `editor-conflict-field-${index}`;
  const option = (side: Side, title: string, value: unknown, other: unknown) =>
    element(
      'label',
      {},
      element('input', {
        type: 'radio',
        name,
        value: side,
        checked: suggested(difference) === side,
      }),
      element('span', { className: 'side' }, title),
      element('span', { className: 'value' }, shown(value, other)),
    );
  const fieldset = element(
    'fieldset',
    {},
    element(
      'legend',
      {},
      `${difference.label} `,
      element('small', {}, `(${changedWords[difference.changedBy]})`),
    ),
    option('mine', 'Yours', difference.mine, difference.theirs),
    option('theirs', `The other version (${at})`, difference.theirs, difference.mine),
  );
  fieldset.dataset.key = keyOf(difference.path);
  return fieldset;
}

/** What the dialog says of one stale file and, for an entry both changed, its fields. */
function section(entry: Case, id: string): HTMLElement {
  const { stale } = entry;
  const at = when(stale.change.at);
  const who = `${whoChanged(stale.change)}, ${at}.`;
  const parts: (Node | string)[] = [element('p', { id }, who)];
  if (entry.kind === 'edit' && entry.found?.length)
    parts.push(
      element(
        'p',
        {},
        'Your changes are still here, not saved yet. Choose which version to keep, field by field:',
      ),
      ...entry.found.map((d, i) => fieldChoice(d, i, at)),
    );
  else if (entry.kind === 'edit')
    parts.push(
      element(
        'p',
        {},
        'Your changes are still here, not saved yet. Keep your version or take the other one.',
      ),
    );
  else if (entry.kind === 'gone')
    parts.push(
      element(
        'p',
        {},
        stale.change.movedTo
          ? `It is now ${entryName(stale.change.movedTo)}. Keep your version to save it again where it was, or leave it.`
          : 'It is no longer there. Keep your version to bring it back with your changes, or leave it deleted.',
      ),
    );
  else if (entry.kind === 'deleting')
    parts.push(
      element('p', {}, 'Delete it anyway, or keep it (open it again to see the other version).'),
    );
  else
    parts.push(
      element(
        'p',
        {},
        'Another entry has this address now. Choose another address and save again.',
      ),
    );
  return element('section', {}, ...parts);
}

/**
 * Gives the focus back to `to` (the Save pressed) once it can take it: Keystatic disables its Save
 * while the Save is under way, which sent the focus to the page's body, and enables it once it has
 * the answer the choice made. Not if the marketer has gone elsewhere meanwhile, or `to` has gone.
 */
function focusBack(to: Element | null | undefined) {
  if (!(to instanceof HTMLElement) || to === document.body) return;
  const observer = new MutationObserver(() => attempt());
  const attempt = () => {
    const focused = document.activeElement;
    if (!to.isConnected || (focused && focused !== document.body && focused !== to))
      return observer.disconnect();
    if (to.matches(':disabled')) return;
    observer.disconnect();
    to.focus();
  };
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['disabled'],
  });
  attempt();
}

/**
 * Asks the marketer, in a modal dialog named by its heading, which takes the focus (its first
 * choice) and gives it back to `returnTo`; resolves with their choice.
 */
export function ask(cases: Case[], returnTo?: Element | null): Promise<Choice> {
  const style = element('style', {}, STYLE);
  const dialog = element('dialog', { className: 'editor-conflict' });
  const titleId = 'editor-conflict-title';
  dialog.setAttribute('aria-labelledby', titleId);
  dialog.setAttribute('aria-describedby', 'editor-conflict-who-0');
  const names = [...new Set(cases.map((c) => entryName(c.stale.path)))];
  const title = cases.some((c) => c.kind === 'deleting')
    ? `Not deleted: ${names.join(', ')} changed since you opened it`
    : `Not saved yet: ${names.join(', ')} changed since you opened it`;
  const form = element('form');
  // Nothing here submits: the buttons say what to do.
  form.addEventListener('submit', (event) => event.preventDefault());
  const comparison = element('div', { className: 'comparison' });
  comparison.append(element('h2', { id: titleId }, title));
  cases.forEach((c, i) => {
    if (cases.length > 1) comparison.append(element('h3', {}, entryName(c.stale.path)));
    comparison.append(section(c, `editor-conflict-who-${i}`));
  });
  const taken = cases.some((c) => c.kind === 'taken');
  const fields = cases.every((c) => c.kind === 'edit' && c.found?.length);
  const deleting = cases.some((c) => c.kind === 'deleting');
  const buttons = element('div', { className: 'buttons' });
  const button = (label: string, choice: () => Choice, primary = false) => {
    const b = element('button', { type: 'button', className: primary ? 'primary' : '' }, label);
    b.addEventListener('click', () => done(choice()));
    buttons.append(b);
  };
  let done: (choice: Choice) => void = () => {};
  const chosen = new Promise<Choice>((resolve) => (done = resolve));
  if (fields) button('Save with these choices', () => ({ fields: choicesIn(form) }), true);
  if (!taken) {
    button(deleting ? 'Delete it anyway' : 'Keep my version', () => ({ keep: 'mine' }), !fields);
    button(deleting ? 'Keep it' : 'Take the other version', () => ({ keep: 'theirs' }));
  }
  button('Not now', () => 'later', taken);
  form.append(comparison, buttons);
  dialog.append(form);
  // Escape, or the dialog closed any other way: not now (a choice made first stays made).
  dialog.addEventListener('close', () => done('later'));
  document.head.append(style);
  document.body.append(dialog);
  dialog.showModal();
  return chosen.finally(() => {
    dialog.close();
    dialog.remove();
    style.remove();
    focusBack(returnTo);
  });
}

const choicesIn = (form: HTMLFormElement) =>
  new Map(
    [...form.querySelectorAll<HTMLFieldSetElement>('fieldset[data-key]')].map((fieldset) => [
      fieldset.dataset.key!,
      (fieldset.querySelector<HTMLInputElement>('input:checked')?.value ?? 'mine') as Side,
    ]),
  );
