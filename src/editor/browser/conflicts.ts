/**
 * A Save the dev server refused because a file changed since the entry was opened
 * (../dev-server/save-check.ts), in the editor's tab: ./saves.ts loads this then. Nothing is lost
 * silently: the marketer sees both versions (./conflict-view.ts) and their choice is saved in place
 * of the refused Save, checked against the file as it is now (and asked again if it changed once
 * more meanwhile). "Not now" leaves their changes in the editor, unsaved, with a line under Save
 * that says why.
 */
import { SAVED_WORDS, SAVE_BASE_HEADER, type SaveRefusal, type StaleFile } from '../events.ts';
import { differences, editorAddress, merged, type Side, type Version } from '../merge.ts';
import { ask, entryName, when, whoChanged, type Case, type Choice } from './conflict-view.ts';

type Send = typeof fetch;
interface Body {
  additions: { path: string; contents: string }[];
  deletions: { path: string }[];
}
type Base = Record<string, string | null>;

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const textOf = (base64: string) =>
  decoder.decode(
    Uint8Array.from(atob(base64.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
  );
const base64Of = (text: string) => {
  let binary = '';
  for (const byte of encoder.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
};

/** What the marketer's Save does to one stale file, and their version of it, if they wrote one. */
function caseOf(stale: StaleFile, body: Body, base: Base): Case {
  const own = body.additions.find((a) => a.path === stale.path);
  const deleting = body.deletions.some((d) => d.path === stale.path);
  // A rename: the entry's old file goes, its new one (not in the base) comes.
  const renamed = deleting
    ? body.additions.filter((a) => !Object.hasOwn(base, a.path) || base[a.path] === null)
    : [];
  const addition = own ?? (renamed.length === 1 ? renamed[0] : undefined);
  const mine: Version | undefined = addition && {
    path: addition.path,
    text: textOf(addition.contents),
  };
  if (stale.expected === null && stale.current !== null) return { kind: 'taken', stale, mine };
  if (stale.current === null) return { kind: 'gone', stale, mine };
  return { kind: mine ? 'edit' : 'deleting', stale, mine };
}

/**
 * The Save the marketer's choice makes of the refused one: each stale file written as chosen, and
 * named at the version it is now. Also the file of the entry as saved, to follow it there.
 */
function resave(body: Body, base: Base, cases: Case[], choice: Exclude<Choice, 'later'>) {
  let { additions, deletions } = body;
  const next: Base = { ...base };
  let entryFile: string | undefined;
  for (const { stale, mine, found } of cases) {
    next[stale.path] = stale.current;
    const theirs: Version | undefined =
      stale.theirs === undefined ? undefined : { path: stale.path, text: stale.theirs };
    const side = 'keep' in choice ? choice.keep : undefined;
    const keep =
      side === 'mine'
        ? mine
        : side === 'theirs'
          ? theirs
          : mine &&
            theirs &&
            merged(mine, theirs, found ?? [], (choice as { fields: Map<string, Side> }).fields);
    // This file as the refused Save had it goes; what is kept comes in its place.
    const own = additions.find((a) => a.path === mine?.path);
    additions = additions.filter((a) => a !== own && a.path !== stale.path);
    deletions = deletions.filter((d) => d.path !== stale.path);
    const write =
      keep === mine
        ? own
        : keep && keep !== theirs
          ? { path: keep.path, contents: base64Of(keep.text) }
          : undefined;
    if (write) additions = [...additions, write];
    // Kept under another name (a rename kept), or a deletion kept: the file there now goes.
    const goes = write ? write.path !== stale.path : side === 'mine' && !mine;
    if (goes && stale.current !== null) deletions = [...deletions, { path: stale.path }];
    entryFile = keep?.path ?? entryFile;
  }
  return { body: { additions, deletions }, base: next, entryFile };
}

/** A refusal whose text Keystatic shows under Save (or Delete), the marketer's changes kept. */
const notSaved = (text: string) =>
  new Response(text, { status: 409, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

/** What is said under Save when the marketer chose "Not now". */
function later([first]: Case[]): Response {
  const { path, change } = first!.stale;
  return notSaved(
    `Not saved: ${entryName(path)} changed since you opened it. ${whoChanged(change)}, ${when(change.at)}. Your changes are still here: save again to compare the two versions and choose.`,
  );
}

function casesOf(refusal: SaveRefusal, body: Body, base: Base): Case[] {
  return refusal.stale.map((stale) => {
    const c = caseOf(stale, body, base);
    if (c.kind !== 'edit' || !c.mine || stale.theirs === undefined) return c;
    try {
      const start = stale.base === undefined ? undefined : { path: stale.path, text: stale.base };
      c.found = differences(c.mine, { path: stale.path, text: stale.theirs }, start);
    } catch {
      c.found = undefined; // a file the editor cannot read field by field: whole versions only
    }
    return c;
  });
}

/**
 * After a Save, Keystatic opens the entry under the address the marketer gave it (a rename); if the
 * file kept is another (the other version's address kept), the editor goes there once Keystatic has
 * moved.
 */
function followEntry(intended: string | undefined, saved: string | undefined) {
  const address = saved && saved !== intended ? editorAddress(saved) : undefined;
  if (!address) return;
  const moved = intended && editorAddress(intended);
  const until = Date.now() + 5_000;
  const go = () => {
    if (moved && location.pathname !== moved && Date.now() < until) return void setTimeout(go, 50);
    history.replaceState(null, '', address);
    dispatchEvent(new PopStateEvent('popstate'));
  };
  go();
}

/**
 * Answers Keystatic's refused Save: asks the marketer, sends what they chose (asked again if the
 * file changed once more meanwhile), and resolves with the dev server's answer to it, or, for "Not
 * now", with a refusal whose text Keystatic shows under Save.
 */
export async function resolveRefusal(
  send: Send,
  url: string,
  init: RequestInit,
  refusal: SaveRefusal,
  /** What the marketer pressed to save: the focus goes back there once they have chosen. */
  pressed?: Element | null,
): Promise<Response> {
  const headers = new Headers(init.headers);
  let body = JSON.parse(String(init.body)) as Body;
  let base = JSON.parse(headers.get(SAVE_BASE_HEADER) ?? '{}') as Base;
  let stale = refusal;
  for (;;) {
    const cases = casesOf(stale, body, base);
    const choice = await ask(cases, pressed);
    if (choice === 'later') return later(cases);
    // A deletion not made: nothing to send, and Keystatic stays on the entry, which shows the other
    // version (./saves.ts follows the files).
    if (cases.every((c) => c.kind === 'deleting') && 'keep' in choice && choice.keep === 'theirs')
      return notSaved(`Not deleted: ${entryName(cases[0]!.stale.path)} is kept as it is now.`);
    const intended = cases.find((c) => c.mine)?.mine?.path;
    let again;
    try {
      again = resave(body, base, cases, choice);
    } catch (error) {
      return notSaved(
        `Not saved: the fields chosen do not make an entry the editor can save (${(error as Error).message}). Your changes are still here: save again to choose otherwise.`,
      );
    }
    ({ body, base } = again);
    headers.set(SAVE_BASE_HEADER, JSON.stringify(base));
    const response = await send(url, { ...init, headers, body: JSON.stringify(body) });
    if (response.status !== 409) {
      if (response.ok) followEntry(intended, again.entryFile);
      // Nothing of the marketer's was written: Keystatic's toast must not say "Saved".
      if (response.ok && 'keep' in choice && choice.keep === 'theirs')
        (globalThis as Record<symbol, unknown>)[Symbol.for(SAVED_WORDS)] = (name: string) =>
          `Kept the other version of “${name}”: your changes were not saved`;
      return response;
    }
    stale = (await response.json()) as SaveRefusal;
  }
}
