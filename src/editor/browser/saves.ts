/**
 * In the editor's own tab (./tab.ts imports it): Keystatic's Saves, and its copy of the files.
 *
 * - A Save the dev server refuses because a file changed since the entry was opened (409,
 *   ../dev-server/save-check.ts) is not Keystatic's error: the marketer sees both versions, field
 *   by field (./conflicts.ts, loaded then), and what they choose is saved in its place. Keystatic
 *   waits for the answer meanwhile, as for any Save.
 * - The tab's copy of the files follows the dev server's writes: when it says a content file was
 *   written (CONTENT_WRITTEN_EVENT: another tab's Save, a rename's redirect, a restore), after the
 *   History's posts from this tab ("Point them at …"), and when the tab comes back into view, the
 *   files are fetched anew and handed to Keystatic (KEYSTATIC_TREE, ../dev-server/keystatic-saves.ts).
 *   An entry open with unsaved changes keeps them, on the version it was opened at.
 */
import { CONTENT_WRITTEN_EVENT, KEYSTATIC_TREE, type SaveRefusal } from '../events.ts';
import { HISTORY_BASE } from '../routes.ts';
import { onServerEvent } from '../server-events.ts';
import { sending } from './own-moves.ts';
import { KEYSTATIC_SAVE } from '../../domain/editing.ts';

const TREE = '/api/keystatic/tree';

const send = window.fetch.bind(window);

/** Saves under way, and a count of Saves begun or ended: a tree fetched across one is not used. */
let saving = 0;
let saves = 0;
let followAgain = false;

/** Fetches the files as the dev server has them now and hands them to Keystatic. */
export async function follow(): Promise<void> {
  const take = (globalThis as Record<symbol, unknown>)[Symbol.for(KEYSTATIC_TREE)] as
    ((entries: unknown) => Promise<void>) | undefined;
  if (!take) return;
  if (saving) {
    followAgain = true;
    return;
  }
  followAgain = false;
  const began = saves;
  const response = await send(TREE, { headers: { 'no-cors': '1' } }).catch(() => undefined);
  if (!response?.ok) return;
  const entries: unknown = await response.json();
  // A Save of this tab began or ended meanwhile: fetched again once none is under way.
  if (began !== saves || saving) {
    followAgain = true;
    if (!saving) void follow();
    return;
  }
  await take(entries);
}

/** The element that last had the focus, as it loses it. */
let lastFocused: Element | null = null;
document.addEventListener('focusout', (event) => {
  if (event.target instanceof Element) lastFocused = event.target;
});

const pathOf = (input: RequestInfo | URL) =>
  new URL(input instanceof Request ? input.url : String(input), location.href);

const methodOf = (input: RequestInfo | URL, init?: RequestInit) =>
  (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();

async function save(input: RequestInfo | URL, init: RequestInit): Promise<Response> {
  saving++;
  saves++;
  // What was pressed (Save), for the conflict view to give the focus back to: Keystatic disables
  // its Save as the Save begins, which leaves the focus on the page's body.
  const focused = document.activeElement;
  const pressed = focused && focused !== document.body ? focused : lastFocused;
  try {
    const response = await send(input, init);
    if (response.status !== 409) return response;
    const refusal = (await response
      .clone()
      .json()
      .catch(() => undefined)) as SaveRefusal | undefined;
    if (!Array.isArray(refusal?.stale)) return response;
    const { resolveRefusal } = await import('./conflicts.ts');
    return await resolveRefusal(send, String(pathOf(input)), init, refusal!, pressed);
  } finally {
    saving--;
    saves++;
    if (!saving && followAgain) void follow();
  }
}

window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = pathOf(input);
  const method = methodOf(input, init);
  if (url.origin !== location.origin || method !== 'POST') return send(input, init);
  if (url.pathname === KEYSTATIC_SAVE && init && typeof init.body === 'string') {
    const failed = sending(init.body);
    const response = await save(input, init).catch((error: unknown) => {
      failed();
      throw error;
    });
    if (!response.ok) failed();
    return response;
  }
  const response = await send(input, init);
  // "Point them at …" and the History's other posts write content: followed at once.
  if (url.pathname.startsWith(`${HISTORY_BASE}/`) && response.ok) void follow();
  return response;
};

onServerEvent(CONTENT_WRITTEN_EVENT, () => void follow());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void follow();
});
