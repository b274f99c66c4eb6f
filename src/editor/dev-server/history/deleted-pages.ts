/**
 * The History's deleted entries (./route.ts dispatches here): the list, one deleted entry before
 * it comes back, bringing it back (./bring-back.ts), what a bring-back did, and pointing the links
 * that were moved away back at it. Each reads the history and decides; ./pages/ only show.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIContext } from 'astro';
import { HISTORY_BASE } from '../../routes.ts';
import {
  LINKS_BACK,
  bringBack,
  broughtBack,
  freeName,
  movedLinks,
  nameOf,
  nameProblem,
  redirectsBack,
} from './bring-back.ts';
import type { ContentHistory, DeletedEntry as Gone } from './content-history.ts';
import { collections, entryOfFile, labelOf } from './entries.ts';
import { valuesOf } from './lineages.ts';
import DeletedEntry from './pages/DeletedEntry.astro';
import { addressOf, readRedirects, savedBy, titleOf } from './recorder.ts';
import { deletedBy, saveWords } from './save-words.ts';
import type {
  BroughtNotice,
  LinkedBackNotice,
  ShownDeleted,
  ShownEntry,
  ShownLinks,
} from './shown.ts';
import { notFound, page } from './render.ts';
import type { Clock } from './version-words.ts';

type SeeOther = APIContext['redirect'];

const isService = (file: string) => file.startsWith('src/content/services/');

/** A deleted entry as the pages show it: its name, its label and address then. */
async function describeDeleted(history: ContentHistory, deleted: Gone): Promise<ShownDeleted> {
  const text = await history.textAt(`${deleted.commit}^`, deleted.file);
  return {
    ...deleted,
    // Each version in the marketer's words: "saved by you", "changed by a developer".
    versions: deleted.versions.map((version) => ({ ...version, note: saveWords(version).action })),
    label: labelOf(deleted.file),
    title: titleOf(text),
    address: isService(deleted.file) ? addressOf(text) : undefined,
    // Who deleted it, in the words a save's author is named in.
    deletion: deletedBy(deleted.deletedBy),
  };
}

const folders = () => Object.values(collections).flatMap((c) => c.path?.replace(/\/\*$/, '') ?? []);

/** The deleted entries of the editor's collections (or of one folder), newest deletion first in each. */
export async function deletedEntries(history: ContentHistory, only?: string) {
  const deleted = await Promise.all(
    (only ? [only] : folders()).map((folder) => history.deleted(folder)),
  );
  return Promise.all(deleted.flat().map((d) => describeDeleted(history, d)));
}

/** A deleted entry by its file and the commit that deleted it, if it is one. */
async function findDeleted(history: ContentHistory, file: string, commit: string) {
  const folder = file.replace(/\/[^/]+$/, '');
  if (!folders().includes(folder)) return undefined;
  const deleted = await history.deleted(folder).catch(() => []);
  return deleted.find((d) => d.file === file && d.commit === commit);
}

/** The entry at a file now, named as the pages name it. */
async function entryAt(history: ContentHistory, file: string): Promise<ShownEntry | undefined> {
  const path = join(history.root, file);
  if (!existsSync(path)) return undefined;
  const text = await readFile(path, 'utf8');
  return { label: labelOf(file), title: titleOf(text), address: addressOf(text) };
}

const listed = (links: { file: string; links: number }[]): ShownLinks =>
  links.map(({ file, links }) => ({ file, links, label: labelOf(file) }));

/**
 * A deleted entry before it comes back: its text and versions, the name it would come back under
 * (its own, else a free one, or the one typed), the entry that took its own since, and what coming
 * back does to redirects and may do to links.
 */
export async function deletedPage(
  history: ContentHistory,
  file: string,
  commit: string,
  clock: Clock,
  typed?: { name: string; problem: string },
) {
  const found = await findDeleted(history, file, commit);
  const text = found && (await history.textAt(`${commit}^`, file));
  if (!found || text === undefined) return notFound();
  const deleted = await describeDeleted(history, found);
  const takenBy = await entryAt(history, file);
  const name =
    typed?.name ??
    (takenBy
      ? await freeName(history.root, file, await readRedirects(history.root))
      : nameOf(file));
  const address = deleted.address;
  const redirects =
    address && !typed ? (await redirectsBack(history, found, address, `/${name}`)).changes : [];
  const links = address ? await movedLinks(history, found, `/${name}`) : [];
  return page(
    DeletedEntry,
    {
      deleted,
      text,
      service: isService(file),
      name,
      problem: typed?.problem,
      takenBy,
      redirects,
      links: listed(links),
      clock,
    },
    typed ? 409 : 200,
  );
}

/**
 * Brings a deleted entry back under the name asked (its own by default), with its redirects
 * (./bring-back.ts); a name it cannot take shows the page again, saying why.
 */
export async function bringBackPost(
  history: ContentHistory,
  form: { file: string; commit: string; name: string },
  { seeOther, clock, headers }: { seeOther: SeeOther; clock: Clock; headers: Headers },
) {
  const found = await findDeleted(history, form.file, form.commit);
  if (!found) return notFound();
  const name = form.name.trim().toLowerCase() || nameOf(form.file);
  const redirects = await readRedirects(history.root);
  const problem = await nameProblem(history.root, form.file, name, redirects);
  if (problem) return deletedPage(history, form.file, form.commit, clock, { name, problem });
  // Who brings it back, once editors sign in: the history records them as the save's author.
  const save = await bringBack(history, found, name, savedBy(headers));
  return seeOther(`${HISTORY_BASE}?brought=${save}`, 303);
}

/** After a bring-back: what came back, where, what it did to redirects, and the links to offer back. */
export async function broughtNotice(
  history: ContentHistory,
  commit: string,
): Promise<BroughtNotice | undefined> {
  const save = await history.save(commit);
  const back = save && broughtBack(save);
  const now = back && (await entryAt(history, back.file));
  if (!back || !now) return undefined;
  const address = isService(back.file) ? now.address : undefined;
  const own = back.deleted.file;
  const takenBy = own !== back.file ? await entryAt(history, own) : undefined;
  const links = address ? await movedLinks(history, back.deleted, address) : [];
  return {
    commit,
    label: now.label,
    title: now.title,
    editorUrl: entryOfFile(back.file)?.editorUrl ?? '/keystatic',
    address,
    ownAddress: takenBy && isService(own) ? `/${nameOf(own)}` : undefined,
    takenBy,
    redirects: back.redirects,
    links: listed(links),
  };
}

/** After links were pointed back at a page brought back: where they lead, and from which entries. */
export async function linkedBackNotice(
  history: ContentHistory,
  commit: string,
): Promise<LinkedBackNotice | undefined> {
  const save = await history.save(commit);
  const [back] = save ? valuesOf(save.trailers, LINKS_BACK) : [];
  if (!back?.[1]) return undefined;
  const files = await history.changesIn(commit, 'src/content');
  return { to: back[1], entries: files.map((f) => labelOf(f.file)) };
}

/** Points the links moved away from a page while it was deleted back at it, now it is back. */
export async function linksBackPost(
  history: ContentHistory,
  commit: string,
  seeOther: SeeOther,
  headers: Headers,
) {
  const save = await history.save(commit);
  const back = save && broughtBack(save);
  const now = back && (await entryAt(history, back.file));
  if (!back || !now?.address) return notFound();
  const address = now.address;
  const files = await movedLinks(history, back.deleted, address);
  if (files.length === 0) return seeOther(`${HISTORY_BASE}?brought=${commit}`, 303);
  const from = addressOf(await history.textAt(`${back.deleted.commit}^`, back.deleted.file));
  const done = await history.record(`Links that led to ${from} lead to ${address} again`, {
    trailers: [{ key: LINKS_BACK, value: `${from} ${address}` }],
    by: savedBy(headers),
    write: async () => {
      for (const { file, text } of files) await history.write(file, text);
    },
  });
  return seeOther(`${HISTORY_BASE}?linked-back=${done}`, 303);
}
