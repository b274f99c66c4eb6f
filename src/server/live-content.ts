/**
 * What the server says of the agency (its name and address, the hosts: src/lib/content.ts's
 * getMailContent), following the live release. The server does not read the content itself: each
 * build's middleware hands over its own reader with every on-demand request. A publish or a roll
 * back loads another build into the same process (./releases/live-site.ts), and the first request
 * that build serves has it read again, before its own work: the e-mails, the desk and the calendars'
 * writes then say what the live site says, with no restart. One object, changed in place, so that
 * every part holding it reads the new words. One for the process (./process-wide.ts): each build
 * has its own copy of this module.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { log } from './log.ts';
import { processWide } from './process-wide.ts';

type Reader = () => Promise<object>;

interface State {
  /** The live build's folder, as a file URL ending in '/'; unset without a live site (dev, tests). */
  live?: string;
  read?: Reader;
  content?: object;
  /** A read under way for a build that went live: the requests of that build wait for it. */
  reading?: Promise<void>;
  /** What runs once a build gone live has had its words read (afterContentRead). */
  after?: (() => void)[];
}

const state = processWide<State>('live-content', () => ({}));

/** The build in `dir` is the one now live (its real path: a module's address is). */
export function markLiveBuild(dir: string) {
  state.live = pathToFileURL(realpathSync(dir)).href.replace(/\/?$/, '/');
}

/**
 * A build's reader, from its module at `from` (its `import.meta.url`). The first one given is
 * taken; after that, only the live build's, whose words then replace the ones held. Resolves once
 * they have.
 */
export function provideContent(read: Reader, from: string): Promise<void> {
  if (!state.read) state.read = read;
  else if (read !== state.read && state.live && from.startsWith(state.live)) {
    state.read = read;
    if (state.content) {
      const held = state.content;
      state.reading = (state.reading ?? Promise.resolve()).then(() => readAgain(held, read));
    }
  }
  return state.reading ?? Promise.resolve();
}

async function readAgain(held: object, read: Reader) {
  try {
    const fresh = await read();
    // Another build went live meanwhile: its own read follows.
    if (state.read !== read) return;
    for (const key of Object.keys(held)) if (!(key in fresh)) delete held[key as keyof object];
    Object.assign(held, fresh);
    for (const then of state.after ?? []) then();
  } catch (error) {
    log.error(
      `Could not read the live site's settings and hosts (the ones before stay): ${String(error)}`,
    );
  }
}

/** Runs `then` each time a build gone live has had its words read (the hosts may have changed). */
export function afterContentRead(then: () => void) {
  (state.after ??= []).push(then);
}

/** The words, read once by the first reader given, then kept current (the same object). */
export async function liveContent<T extends object>(): Promise<T> {
  if (!state.read) throw new Error('The server has no content: see provideContent.');
  state.content ??= await state.read();
  return state.content as T;
}
