/**
 * In the editor's own tab: which moves of a page this tab's own Saves made. Every open tab hears of
 * a page moved or deleted (PAGE_MOVED_EVENT), a colleague's tab too; only the tab whose Save made
 * it offers to point the links (./tab-history.ts) and takes Keystatic's own path with its draft
 * (./drafts.ts). The others keep their unsaved changes, and those the move concerns say what a
 * colleague did.
 */
import type { PageMove } from '../events.ts';

/** A service page's file, by its address: `/ipad` for `…/services/ipad.mdx`. */
const SERVICE_FILE = /(?:^|\/)services\/([a-z0-9-]+)\.mdx$/;

/**
 * The files this tab's Saves removed or added, and when: kept until the move they made is heard of
 * (a busy server may record a Save well after it answered, so not by time alone).
 */
const sent: { at: number; gone: Set<string>; came: Set<string> }[] = [];
const HELD_MS = 10 * 60_000;

/** Remembers a Save's files as it is sent (its move may be told before its answer comes). */
export function sending(body: unknown): () => void {
  let parsed: { additions?: { path?: string }[]; deletions?: { path?: string }[] } | undefined;
  try {
    parsed = typeof body === 'string' ? JSON.parse(body) : undefined;
  } catch {
    parsed = undefined;
  }
  const addresses = (files: { path?: string }[] | undefined) =>
    new Set(
      (files ?? []).flatMap(({ path }) => {
        const match = SERVICE_FILE.exec(path ?? '');
        return match ? [`/${match[1]}`] : [];
      }),
    );
  const save = {
    at: Date.now(),
    gone: addresses(parsed?.deletions),
    came: addresses(parsed?.additions),
  };
  sent.push(save);
  // A Save refused or failed moved nothing.
  return () => {
    const at = sent.indexOf(save);
    if (at >= 0) sent.splice(at, 1);
  };
}

/** The answer for each move heard of: asked by more than one part of the tab. */
const answered = new WeakMap<PageMove, boolean>();

/** Whether this tab's Save made `move`: its page's old file went (or, for a new page, came). */
export function madeHere(move: PageMove): boolean {
  const known = answered.get(move);
  if (known !== undefined) return known;
  while (sent.length && Date.now() - sent[0]!.at > HELD_MS) sent.shift();
  const { from, to, kind } = move;
  const save = sent.find((s) => (kind === 'created' ? s.came.has(to) : s.gone.has(from)));
  // Each Save's move told once: a later move of that address is someone else's.
  if (save) (kind === 'created' ? save.came : save.gone).delete(kind === 'created' ? to : from);
  answered.set(move, !!save);
  return !!save;
}
