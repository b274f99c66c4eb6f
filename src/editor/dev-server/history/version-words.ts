/**
 * What the History pages (./route.ts) say of each version, read from the history: who saved it and
 * how (./save-words.ts), when, told apart from the versions beside it (../../time-words.ts), and
 * which fields it changed, in the editor's labels (../../field-diff.ts); and what restoring a
 * version would change, field by field.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { Field } from '../../../content-model/fields.ts';
import { changedFields, fieldChanges, type FieldChange } from '../../field-diff.ts';
import { apart, knownTimeZone, TIME_ZONE_COOKIE, type Apart } from '../../time-words.ts';
import type { ContentHistory, Version } from './content-history.ts';
import { deletionWords, saveKind, saveNote, saveWords } from './save-words.ts';

/** The reader's clock: the time zone their tab reported, and the moment the page is made. */
export interface Clock {
  timeZone: string;
  now: number;
}

/** The clock of a request: its tab's time zone (the cookie the editor's tab sets), else this machine's. */
export function clockOf(cookie: string | undefined): Clock {
  const zone = knownTimeZone(cookie ? decodeURIComponent(cookie) : undefined);
  return {
    timeZone: zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    now: Date.now(),
  };
}
export { TIME_ZONE_COOKIE };

/** A version as History lists it. */
export interface ShownSave {
  commit: string;
  savedAt: number;
  /** How its time is told apart from the others listed with it. */
  apart: Apart;
  /** Who saved it and how, after its time: "saved by you", "changed by a developer". */
  action: string;
  /** What else it did, in words: "The version of yesterday 17:02 came back." */
  note?: string;
  /** Shown folded: a developer's commit subject. */
  detail?: string;
  /** The fields it changed: "Service name, Hero → Hero text"; '' if none of the entry's. */
  fields: string;
  /**
   * What it was to the versions before it: a new entry or the entry deleted (recent saves), or the
   * oldest listed.
   */
  first?: 'new' | 'deleted' | 'oldest';
}

/** Each text read once: a version's text never changes. */
const texts = new Map<string, Promise<string | undefined>>();
function textOf(history: ContentHistory, commit: string, file: string, blob?: string) {
  const key = blob ?? `${commit}:${file}`;
  let text = texts.get(key);
  if (!text) {
    if (texts.size > 2000) texts.clear();
    texts.set(key, (text = few(() => history.textAt(commit, file))));
  }
  return text;
}

/** A few git commands at a time, however many versions a page lists (a history of 100). */
const running = { count: 0, waiting: [] as (() => void)[] };
async function few<T>(task: () => Promise<T>): Promise<T> {
  if (running.count >= 6) await new Promise<void>((go) => running.waiting.push(go));
  running.count++;
  try {
    return await task();
  } finally {
    running.count--;
    running.waiting.shift()?.();
  }
}

/** The words of the options a page's copy names (a service page's group: "Mobile, native"). */
async function optionNames(root: string) {
  const named = new Map<string, Map<string, string>>();
  return async (page: string) => {
    let names = named.get(page);
    if (!names) {
      names = new Map();
      named.set(page, names);
      const file = join(root, 'src/content/pages', `${page}.yaml`);
      try {
        if (/^[a-z0-9-]+$/.test(page) && existsSync(file)) {
          const copy = load(await readFile(file, 'utf8')) as {
            sections?: { id?: string; title?: string }[];
          };
          for (const { id, title } of copy?.sections ?? []) if (id && title) names.set(id, title);
        }
      } catch {
        // A page copy that cannot be read: the options as written.
      }
    }
    return names;
  };
}

/** What the field diff needs to name a fixed list's options as the editor does. */
async function diffOptions(root: string) {
  const names = await optionNames(root);
  const pages = await names('service');
  return {
    optionName: (field: Field, option: string) =>
      field.kind === 'oneOf' && field.optionsNamedBy === 'service' ? pages.get(option) : undefined,
  };
}

type Listed = Pick<Version, 'commit' | 'savedAt' | 'note' | 'by' | 'editor' | 'file'> & {
  blob?: string;
};

/**
 * Who saved a version and how, in words (./save-words.ts); the first record of a history of its
 * own (a project without git), which has nothing before it, is the content as the editor first
 * found it.
 */
export async function versionWords(history: ContentHistory, version: Listed) {
  const words = saveWords(version);
  const first =
    saveKind(version) === 'found' &&
    (await history.blobOf(`${version.commit}^`, 'src/content')) === undefined;
  return first ? { ...words, action: 'kept as the editor first found it' } : words;
}

/** A version's words, its fields changed from the version before it (if known). */
function shown(
  save: Listed,
  words: { action: string; detail?: string },
  changes: FieldChange[] | NonNullable<ShownSave['first']>,
  mark: Apart,
  clock: Clock,
): ShownSave {
  const note = saveNote(save, clock);
  return {
    commit: save.commit,
    savedAt: save.savedAt,
    apart: mark,
    action: words.action,
    ...(note && { note }),
    ...(words.detail && { detail: words.detail }),
    fields: typeof changes === 'string' ? '' : changedFields(changes),
    ...(typeof changes === 'string' && { first: changes }),
  };
}

/**
 * An entry's versions, newest first, as its History lists them: each with the fields it changed
 * from the version before it (the oldest listed has none).
 */
export async function describeVersions(
  history: ContentHistory,
  versions: readonly Version[],
  clock: Clock,
): Promise<ShownSave[]> {
  const options = await diffOptions(history.root);
  const marks = apart(
    versions.map((v) => v.savedAt),
    clock.timeZone,
  );
  return Promise.all(
    versions.map(async (version, index) => {
      const older = versions[index + 1];
      const words = await versionWords(history, version);
      if (!older) return shown(version, words, 'oldest', marks[index]!, clock);
      const [before, after] = await Promise.all([
        textOf(history, older.commit, older.file, older.blob),
        textOf(history, version.commit, version.file, version.blob),
      ]);
      const changes = fieldChanges(version.file, before, after, options);
      return shown(version, words, changes, marks[index]!, clock);
    }),
  );
}

/** A recent save as the overview lists it: in one entry's file, or in several at once. */
export type RecentSave = ShownSave & {
  /** The entry's file; none for a save of several entries. */
  file?: string;
  /** How many entries it changed, when it changed more than a few. */
  entries?: number;
};

/** A save that changed more entries than this is one line of the overview, not one per entry. */
const FEW = 3;

/**
 * The recent saves of any entry, newest first: each with the fields it changed in its file; a save
 * of many entries at once (the content as the editor first found it, a developer's commit of
 * many files) in one line.
 */
export async function describeRecent(
  history: ContentHistory,
  saves: readonly Omit<Version, 'blob'>[],
  clock: Clock,
): Promise<RecentSave[]> {
  const options = await diffOptions(history.root);
  const count = new Map<string, number>();
  for (const { commit } of saves) count.set(commit, (count.get(commit) ?? 0) + 1);
  const rows = saves.filter(
    (save, index) => count.get(save.commit)! <= FEW || saves[index - 1]?.commit !== save.commit,
  );
  const marks = apart(
    rows.map((s) => s.savedAt),
    clock.timeZone,
    rows.map((s) => s.commit),
  );
  return Promise.all(
    rows.map(async (save, index): Promise<RecentSave> => {
      const words = await versionWords(history, save);
      const many = count.get(save.commit)!;
      if (many > FEW) return { ...shown(save, words, [], marks[index]!, clock), entries: many };
      const [before, after] = await Promise.all([
        textOf(history, `${save.commit}^`, save.file).then(
          async (text) => text ?? (await renamedFrom(history, save)),
        ),
        textOf(history, save.commit, save.file),
      ]);
      // A file gone is the entry deleted (a rename is listed under its new file), not a change of
      // each of its fields.
      const changes =
        before === undefined && after !== undefined
          ? 'new'
          : before !== undefined && after === undefined
            ? 'deleted'
            : fieldChanges(save.file, before, after, options);
      const said = changes === 'deleted' ? deletionWords(save) : words;
      return { ...shown(save, said, changes, marks[index]!, clock), file: save.file };
    }),
  );
}

/** A file's text before a save that gave it its name (a page moved to a new address), if it did. */
async function renamedFrom(history: ContentHistory, save: Pick<Version, 'commit' | 'file'>) {
  const folder = save.file.replace(/\/[^/]+$/, '');
  const changes = await history.changesIn(save.commit, folder).catch(() => []);
  const rename = changes.find((change) => change.status === 'R' && change.file === save.file);
  return rename ? textOf(history, `${save.commit}^`, rename.before) : undefined;
}

/**
 * What restoring `version` would change in the file `to` as it is now, field by field: `before`
 * the text now, `after` the text that comes back (`adjust`ed as the restore writes it).
 */
export async function restoreChanges(
  history: ContentHistory,
  version: Pick<Version, 'commit' | 'file'>,
  to: string,
  adjust?: (older: string, now: string) => string,
): Promise<FieldChange[]> {
  const older = await history.textAt(version.commit, version.file);
  if (older === undefined) throw new Error(`${version.file} has no version ${version.commit}`);
  const path = join(history.root, to);
  const now = existsSync(path) ? await readFile(path, 'utf8') : '';
  const restored = adjust ? adjust(older, now) : older;
  return fieldChanges(to, now, restored, await diffOptions(history.root));
}
