/**
 * Where a member lands after an action on the desk, and what the desk then says of it: back at the
 * item acted on (its anchor, which the browser scrolls to and focuses), with the desk's view kept
 * (which calls, which enquiries), and the outcome in words said there (`?done=`, `?at=`), in a
 * status line of the page itself, so that it is read without script.
 */
import { isRefusal, refusalMessage, type CallRefusal } from '../booking/refusals.ts';

/** The desk's address. */
const DESK = '/staff';

/**
 * What an action from the desk came to, in words: done, the time taken or not offered, or a
 * refusal of ../booking/refusals.ts in its words.
 */
const DONE = {
  cancelled:
    'The call is cancelled; the prospect and the host are told, and their calendars updated.',
  moved: 'The call is moved; the prospect and the host are told, and their calendars updated.',
  taken: 'That time was just taken: nothing changed. Choose another.',
  'not-offered': 'That time is no longer offered: nothing changed. Choose another.',
  handled: 'Marked handled.',
  // The desk's page names who and when, from the stored record (./desk-page.ts).
  'already-handled': 'A colleague marked it handled first: nothing changed.',
  new: 'Marked new again.',
  bulk: 'The chosen enquiries are marked handled.',
  'none-chosen': 'Nothing was chosen: tick the enquiries to mark handled first.',
  held: 'The call is marked held.',
  'no-show': 'The call is marked a no-show.',
  unmark: 'The call is no longer marked held or a no-show.',
  'not-begun': 'Only a call that has begun, and was not cancelled, can be marked: nothing changed.',
  noted: 'The note is added.',
  'note-empty': 'The note was empty: nothing was added.',
  'write-again': "The call will be written into its host's calendar again.",
  'passkey-removed': 'The passkey is removed: it no longer signs you in.',
  'passkey-unknown': 'That passkey was removed already: nothing changed.',
  'signed-out-elsewhere':
    'You are signed out on every other device and browser: only this one is signed in now.',
};

/**
 * Why Held, No-show or Unmark changed nothing: the call's mark changed after the member's page
 * showed it (or their page is from before it sent the mark shown). `mark`: the change that made
 * the mark now (held, a no-show, or unmarked: null), by whom (their name) and when (in the member's
 * zone); unknown (an Unmark from before who was kept): undefined. Said at the top, the call's card
 * below showing the mark now.
 */
export const markedSinceMessage = (mark?: {
  kind: 'held' | 'no-show' | null;
  by: string;
  at: string;
}) =>
  !mark
    ? "The call's mark changed after your page showed it, and it is unmarked now: nothing changed. Its card shows it so; press again there to mark it."
    : mark.kind === null
      ? `${mark.by} unmarked the call at ${mark.at}, after your page showed it: nothing changed. Its card shows it unmarked now; press again there to mark it.`
      : `${mark.by} marked the call ${mark.kind === 'held' ? 'held' : 'a no-show'} at ${mark.at}, after your page showed it: nothing changed. Its card shows that mark now; press again there to change it.`;

/** The outcomes said at the item acted on (every card of the desk's lists is `enquiry-ID`). */
const AT_ITEM: readonly string[] = [
  'moved',
  'cancelled',
  'handled',
  'already-handled',
  'new',
  'held',
  'no-show',
  'unmark',
  'not-begun',
  'noted',
  'note-empty',
  'write-again',
];
export type Done = keyof typeof DONE | CallRefusal;

/** The words of an outcome (`?done=`); undefined for a word that is none. */
export const doneMessage = (done: string): string | undefined =>
  Object.hasOwn(DONE, done)
    ? DONE[done as keyof typeof DONE]
    : isRefusal(done)
      ? refusalMessage(done)
      : undefined;

/** The item an outcome is said at: the call moved, the enquiry of a call cancelled or marked. */
function itemOf(done: Done, id: string): string | undefined {
  if (AT_ITEM.includes(done) && id) return `enquiry-${id}`;
  // A time refused, or the call moved meanwhile: back to the times to choose another.
  if (done === 'taken' || done === 'not-offered' || done === 'used') return 'change-title';
  return undefined;
}

/**
 * The address after an action on the call or enquiry `id`: the desk as the member had it, the
 * outcome and the item it is said at; with no outcome, the call's times to move it (`step` 'move') or
 * the step that asks before a cancel ('cancel').
 */
export function landing(
  url: URL,
  done: Done | undefined,
  id: string,
  step?: 'cancel' | 'move',
  said?: Said,
): string {
  const query = new URLSearchParams(url.search);
  for (const name of ['call', 'step', 'day', 'done', 'at', ...SAID]) query.delete(name);
  const at = done && itemOf(done, id);
  if (step || at === 'change-title') query.set('call', id);
  if (step === 'cancel') query.set('step', step);
  if (done) query.set('done', done);
  const { day, reason, ...counts } = said ?? {};
  for (const [name, value] of Object.entries(counts)) query.set(name, String(value));
  // The move's times shown again keep what was typed in their form; no other page needs it.
  if (step === 'move' || at === 'change-title') {
    if (day) query.set('day', day);
    if (reason) query.set('reason', reason);
  }
  if (at) query.set('at', at);
  const anchor = step ? `${step === 'move' ? 'change' : step}-title` : (at ?? 'done');
  return `${DESK}?${query}#${encodeURIComponent(anchor)}`;
}

/**
 * What an outcome's address says besides `done`: how many a bulk post marked handled of those
 * chosen (`?marked=`, `?of=`), a note typed on the card added before its button's action
 * (`?note=added`); back at a move's times (Later days, a time taken), the day they start from
 * (`?day=`) and the reason typed, to fill in again (`?reason=`).
 */
export interface Said {
  marked?: number;
  of?: number;
  note?: 'added';
  day?: string;
  reason?: string;
}
const SAID = ['marked', 'of', 'note', 'reason'];

/** The words for a note typed on the card and added with another of its buttons. */
export const NOTE_ADDED = 'Your note is added.';

/** NOTE_ADDED when the outcome's address says a note was added; else none. */
export const noteMessage = (url: URL) =>
  url.searchParams.get('note') === 'added' ? NOTE_ADDED : undefined;

/** What a bulk post came to, in words, from its address's counts; undefined without them. */
export function bulkMessage(url: URL): string | undefined {
  const [marked, of] = ['marked', 'of'].map((name) => Number(url.searchParams.get(name) ?? 'x'));
  if (!Number.isSafeInteger(marked) || !Number.isSafeInteger(of) || marked! < 0 || marked! > of!)
    return undefined;
  const already = of! - marked!;
  return `${marked} of the ${of} chosen marked handled.${already ? ` ${already} ${already === 1 ? 'was' : 'were'} handled already by a colleague: left as ${already === 1 ? 'it was' : 'they were'}.` : ''}`;
}

/** The item a desk's page says its outcome at (`?at=`), if the page shows it; else none (the top). */
export function doneAt(url: URL, shown: readonly string[]): string | undefined {
  const at = url.searchParams.get('at');
  return at && shown.includes(at) ? at : undefined;
}
