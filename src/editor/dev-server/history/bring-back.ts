/**
 * Bringing a deleted entry back (the History's "Deleted entries", ./route.ts), undoing what its
 * deletion did: it comes back under its own name, or another if an entry has taken that one since;
 * the redirects its deletion made or changed (./recorder.ts) are taken back, or sent to where it
 * is now; and the links that were pointed elsewhere when it went can be pointed back at it
 * (offered after, as "Point them at" is after a move). Every change is said: on the page before,
 * and after, from the trailers of the save that made it.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { load } from 'js-yaml';
import { patterns } from '../../../domain/content-rules.ts';
import { pageOf, type Redirect } from '../../../domain/redirects.ts';
import { checkContentPath, type ContentHistory, type Save, type Saver } from './content-history.ts';
import { linksBack } from '../content-links.ts';
import { BROUGHT_BACK, valuesOf, type Trailer } from './lineages.ts';
import {
  REDIRECTS_FILE,
  SENDS_ON,
  addressOf,
  readRedirects,
  titleOf,
  writeRedirects,
} from './recorder.ts';

const SERVICES = 'src/content/services/';
/** The trailer of a "Point them at": `<old address> <new address>`. */
export const LINKS_MOVED = 'Links-moved';
/** The trailers of a bring-back's redirects: `<from> <to it had>`, `<from> <to it had> <to now>`. */
export const REDIRECT_REMOVED = 'Redirect-removed';
export const REDIRECT_CHANGED = 'Redirect-changed';
/** The trailer of links pointed back at a page brought back: `<address they had> <address now>`. */
export const LINKS_BACK = 'Links-back';

/** A deleted entry: its file and the save that deleted it. */
export interface Deleted {
  file: string;
  commit: string;
}

/** What a bring-back does to one redirect: removed (`to` undefined) or sent elsewhere. */
export interface RedirectChange {
  from: string;
  was: string;
  to?: string;
}

const isContentPath = (file: string) => {
  try {
    checkContentPath(file);
    return true;
  } catch {
    return false;
  }
};

/** The name an entry has: its page address for a service page, else its file's name. */
export const nameOf = (file: string) => posix.basename(file).replace(/\.[^.]+$/, '');

const fileNamed = (file: string, name: string) =>
  posix.join(posix.dirname(file), name + posix.extname(file));

/** The addresses of the site's own pages (src/pages), which no service page may take. */
async function ownPages(root: string) {
  const files = await readdir(join(root, 'src/pages')).catch(() => [] as string[]);
  return new Set(
    files.filter((f) => /\.(astro|ts)$/.test(f) && !f.startsWith('[')).map((f) => f.split('.')[0]),
  );
}

/** The first name free for a deleted entry whose own is taken: "zend-2", "zend-3" … (else its own). */
export async function freeName(root: string, file: string, redirects: readonly Redirect[]) {
  for (let n = 2; n < 100; n++) {
    const name = `${nameOf(file)}-${n}`;
    if (!(await nameProblem(root, file, name, redirects))) return name;
  }
  return nameOf(file);
}

/**
 * Why a deleted entry cannot come back as `name`, in the editor's words, or undefined: not a
 * name, another entry's, one of the site's own pages, or an old address that sends visitors on
 * (which only its own name may take back: that is said before).
 */
export async function nameProblem(
  root: string,
  file: string,
  name: string,
  redirects: readonly Redirect[],
): Promise<string | undefined> {
  const service = file.startsWith(SERVICES);
  if (!patterns.serviceSlug.regex.test(name) || name.length > 100)
    return `The ${service ? 'address' : 'name'} must be ${patterns.serviceSlug.message}`;
  if (existsSync(join(root, fileNamed(file, name))))
    return service
      ? `Another page is at /${name} now: choose another address`
      : `Another entry is named ${name} now: choose another name`;
  if (!service) return undefined;
  if ((await ownPages(root)).has(name))
    return `/${name} is one of the site's own pages: choose another address`;
  const redirect = redirects.find((r) => r.from === `/${name}`);
  if (redirect && name !== nameOf(file))
    return `/${name} sends its visitors on to ${redirect.to} (Redirects): choose another address`;
  return undefined;
}

const parseRedirects = (text: string | undefined): Redirect[] =>
  ((text && (load(text) as { entries?: Redirect[] } | null)?.entries) || []).filter(
    (r) => typeof r?.from === 'string' && typeof r?.to === 'string',
  );

/** The save after a deletion that sent the page's visitors on (./recorder.ts), if there is one. */
async function sendingOn(history: ContentHistory, deletion: string, address: string) {
  for (const save of await history.savesAfter(deletion, 50))
    for (const [from, to] of valuesOf(save.trailers, SENDS_ON))
      if (from === address && to) return { save, to };
  return undefined;
}

/** `to`, once its page `from` is at `at`: its fragment kept. */
const retarget = (to: string, from: string, at: string) =>
  pageOf(to) === from ? at + to.slice(pageOf(to).length) : to;

/**
 * The redirects once a page deleted from `address` comes back at `at`: what its deletion added or
 * changed (and is still as it left it) is taken back, or sent to `at`; a redirect from `at`, its
 * own address, goes. With the changes, to say them.
 */
export async function redirectsBack(
  history: ContentHistory,
  deleted: Deleted,
  address: string,
  at: string,
): Promise<{ redirects: Redirect[]; changes: RedirectChange[] }> {
  let redirects = await readRedirects(history.root);
  const changes: RedirectChange[] = [];
  const change = (from: string, was: string, to?: string) => {
    changes.push({ from, was, ...(to !== undefined && { to }) });
    redirects =
      to === undefined
        ? redirects.filter((r) => r.from !== from)
        : redirects.map((r) => (r.from === from ? { from, to } : r));
  };
  const sent = await sendingOn(history, deleted.commit, address);
  if (sent) {
    const [before, after] = await Promise.all(
      [`${sent.save.commit}^`, sent.save.commit].map(async (c) =>
        parseRedirects(await history.textAt(c, REDIRECTS_FILE)),
      ),
    );
    for (const made of after) {
      const was = before.find((r) => r.from === made.from);
      if (was?.to === made.to) continue;
      // Only what is still as the deletion left it: a redirect changed by hand since is the
      // marketer's.
      if (!redirects.some((r) => r.from === made.from && r.to === made.to)) continue;
      if (!was) change(made.from, made.to, made.from === at ? undefined : at);
      else change(made.from, made.to, retarget(was.to, address, at));
    }
  }
  const own = redirects.find((r) => r.from === at);
  if (own) change(own.from, own.to);
  return { redirects, changes };
}

/** The text of a deleted entry, to come back as `name`: a service page's address is its name. */
const renamed = (text: string, name: string) => text.replace(/^slug:.*$/m, () => `slug: ${name}`);

/**
 * Brings a deleted entry back as `name`, with its redirects (`redirectsBack`), as one save whose
 * trailers say what it did. Returns that save's commit.
 */
export async function bringBack(
  history: ContentHistory,
  deleted: Deleted,
  name: string,
  by?: Saver,
) {
  const text = (await history.textAt(`${deleted.commit}^`, deleted.file))!;
  const file = fileNamed(deleted.file, name);
  const service = deleted.file.startsWith(SERVICES);
  const address = service ? addressOf(text) : undefined;
  const { redirects, changes } = address
    ? await redirectsBack(history, deleted, address, `/${name}`)
    : { redirects: undefined, changes: [] };
  const trailers: Trailer[] = [
    { key: BROUGHT_BACK, value: `${deleted.commit} ${deleted.file} ${file}` },
    ...changes.map(({ from, was, to }) =>
      to === undefined
        ? { key: REDIRECT_REMOVED, value: `${from} ${was}` }
        : { key: REDIRECT_CHANGED, value: `${from} ${was} ${to}` },
    ),
  ];
  const title = titleOf(text) ?? nameOf(deleted.file);
  const where = service ? ` at /${name}` : name === nameOf(deleted.file) ? '' : ` as ${name}`;
  return history.record(`Brought back ${title}${where}`, {
    trailers,
    by,
    write: async () => {
      await history.write(file, name === nameOf(deleted.file) ? text : renamed(text, name));
      if (redirects) await writeRedirects(history.root, redirects);
    },
  });
}

/** What a bring-back did, from its save: the entry, where, and its redirects. */
export function broughtBack(save: Save) {
  const [back] = valuesOf(save.trailers, BROUGHT_BACK);
  if (!back) return undefined;
  const [commit = '', file = '', now = file] = back;
  // Read back from a commit, which anyone's git could have made: only a content file is named.
  if (!/^[0-9a-f]{40,64}$/.test(commit) || !isContentPath(file) || !isContentPath(now))
    return undefined;
  return {
    deleted: { commit, file },
    file: now,
    redirects: [
      ...valuesOf(save.trailers, REDIRECT_REMOVED).map(([from = '', was = '']) => ({ from, was })),
      ...valuesOf(save.trailers, REDIRECT_CHANGED).map(([from = '', was = '', to = '']) => ({
        from,
        was,
        to,
      })),
    ] as RedirectChange[],
  };
}

/**
 * The links pointed away from a deleted page's address while it was gone ("Point them at" to the
 * page chosen for its visitors), each file with the text it would have once they lead to `at`,
 * where they still read as that move left them.
 */
export async function movedLinks(history: ContentHistory, deleted: Deleted, at: string) {
  const address = addressOf(await history.textAt(`${deleted.commit}^`, deleted.file));
  if (!address) return [];
  const target = (await sendingOn(history, deleted.commit, address))?.to;
  const files = new Map<string, { text: string; links: number }>();
  for (const save of await history.savesAfter(deleted.commit)) {
    const moved = valuesOf(save.trailers, LINKS_MOVED).some(
      ([from, to]) => from === address && (!target || to === target),
    );
    if (moved) await undoMove(history, save.commit, address, at, files);
  }
  return [...files].flatMap(([file, { text, links }]) => (links ? [{ file, text, links }] : []));
}

/** Adds what undoing one "Point them at" save would change, file by file, to `files`. */
async function undoMove(
  history: ContentHistory,
  commit: string,
  address: string,
  at: string,
  files: Map<string, { text: string; links: number }>,
) {
  for (const { file } of await history.changesIn(commit, 'src/content')) {
    const [before, after] = await Promise.all([
      history.textAt(`${commit}^`, file),
      history.textAt(commit, file),
    ]);
    if (before === undefined || after === undefined || !existsSync(join(history.root, file)))
      continue;
    const now = files.get(file) ?? {
      text: await readFile(join(history.root, file), 'utf8'),
      links: 0,
    };
    const back = linksBack(before, after, now.text, address, at);
    files.set(file, { text: back.text, links: now.links + back.links });
  }
}
