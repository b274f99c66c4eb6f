/**
 * A saved version in a marketer's words: who saved it, when, and how it came ("today 09:23, saved
 * by you", "yesterday 17:02, changed by a developer", "restored by you"). The History pages
 * (./route.ts) list versions with it; whatever else has to say who changed a file and when (a save
 * refused because the file changed since it was opened) can call `changedBy`.
 *
 * Who: today the editor has no sign-in, so a save made in it is "you"; what the editor did by
 * itself (a redirect after a rename) is "the editor". Once editors sign in, a save's commit names
 * the staff member (`ContentHistory.record`'s `by`), and that name is said instead of "you".
 * Versions the editor did not record are the project's own commits: "a developer", with the
 * commit's subject as a detail to unfold; or, on the live site, a publish or a roll back, by the
 * staff member who pressed it.
 */
import { timeWords, type TimeWordsOptions } from '../../time-words.ts';
import { EDITOR_AUTHOR, type Version } from './content-history.ts';
import {
  DEPLOYED_CODE_SUBJECT,
  PUBLISH_SUBJECT,
  ROLLBACK_SUBJECT,
} from '../../../domain/editing.ts';

/** How a version came to be. */
export type SaveKind =
  /** A Save in the editor. */
  | 'save'
  /** An older version written back from History. */
  | 'restore'
  /** A deleted entry brought back from History. */
  | 'bring-back'
  /** Links to an old address pointed at the new one ("Point them at …"). */
  | 'links'
  /** A redirect the editor added after a page moved or went. */
  | 'redirect'
  /** A file changed by hand, or by git, while the editor ran. */
  | 'outside'
  /** The content as the editor found it when it started, changed since its last record. */
  | 'found'
  /** A publish of the live site (its editor's draft), by the staff member who pressed it. */
  | 'publish'
  /** A roll back of the live site to an earlier release, by a staff member. */
  | 'rollback'
  /** A commit of the project's own git history. */
  | 'developer';

/** What a version's record says of it: its note, its commit's author, who recorded it. */
export type SaveRecord = Pick<Version, 'note' | 'by' | 'editor'>;

export interface SaveWords {
  kind: SaveKind;
  /** Who: "you", a staff member's name, "the editor", "a developer", or "someone outside the editor". */
  who: string;
  /** What was done, with who, to follow a time: "saved by you", "changed by a developer". */
  action: string;
  /** More to say, shown folded: a developer's commit subject. */
  detail?: string;
}

/**
 * The notes the editor writes (./recorder.ts, ./route.ts, ./bring-back.ts, ./deleted-pages.ts), by
 * the kind of save each records; a bring-back of before deleted entries kept their identity read
 * "Restored src/…, deleted <ISO time>".
 */
const NOTES: [RegExp, SaveKind][] = [
  [/^Saved in the editor$/, 'save'],
  [/^Restored the version of /, 'restore'],
  [/^Brought back /, 'bring-back'],
  [/^Restored src\//, 'bring-back'],
  [/^Links to \S+ now lead to /, 'links'],
  [/^Links that led to \S+ lead to \S+ again$/, 'links'],
  [/^Visitors of /, 'redirect'],
  [/^\/[a-z0-9-]+ no longer sends visitors to /, 'redirect'],
  [/^As found when the editor started$/, 'found'],
  [/^Saved$/, 'outside'],
];

/** The kind of save a note records, if it is one of the editor's notes. */
export const noteKind = (note: string): SaveKind | undefined =>
  NOTES.find(([pattern]) => pattern.test(note))?.[1];

export function saveKind(save: SaveRecord): SaveKind {
  if (!save.editor) return releaseKind(save.note) ?? 'developer';
  return noteKind(save.note) ?? 'outside';
}

/** A commit of the live site's Publishing page: a publish (with the code deployed since) or a roll back. */
export function releaseKind(note: string): 'publish' | 'rollback' | undefined {
  if (note.startsWith(PUBLISH_SUBJECT) || note.startsWith(DEPLOYED_CODE_SUBJECT)) return 'publish';
  if (note.startsWith(ROLLBACK_SUBJECT)) return 'rollback';
  return undefined;
}

/** A staff member's name on a save, if one signed in made it (not the editor's own name). */
export const staffName = (save: SaveRecord) =>
  save.editor && save.by.email !== EDITOR_AUTHOR.email && save.by.name.trim()
    ? save.by.name.trim()
    : undefined;

/** Who made a save, and how it came, in words. */
export function saveWords(save: SaveRecord): SaveWords {
  const kind = saveKind(save);
  const person = staffName(save) ?? 'you';
  switch (kind) {
    case 'save':
      return { kind, who: person, action: `saved by ${person}` };
    case 'restore':
      return { kind, who: person, action: `restored by ${person}` };
    case 'bring-back':
      return { kind, who: person, action: `brought back by ${person}` };
    case 'links':
      return { kind, who: person, action: `links moved by ${person}` };
    case 'redirect':
      return {
        kind,
        who: 'the editor',
        // A redirect the editor took away: a new page lives at its address now.
        action: /^\/[a-z0-9-]+ no longer/.test(save.note)
          ? 'redirect removed by the editor'
          : 'redirect added by the editor',
      };
    case 'publish':
    case 'rollback': {
      // The member who pressed it, as the commit names them (src/server/releases/); what a publish
      // changed is the version's own list of fields, and a roll back says to which release.
      const member = save.by.name.trim() || save.by.email;
      const release = save.note.split('\n')[0]!.slice(ROLLBACK_SUBJECT.length);
      return kind === 'publish'
        ? { kind, who: member, action: `published by ${member}` }
        : { kind, who: member, action: `rolled back by ${member} to release ${release}` };
    }
    case 'developer':
      return { kind, who: 'a developer', action: 'changed by a developer', detail: save.note };
    case 'found':
      return {
        kind,
        who: 'someone outside the editor',
        action: 'changed outside the editor (found when the editor started)',
      };
    case 'outside':
      return { kind, who: 'someone outside the editor', action: 'changed outside the editor' };
  }
}

/**
 * Who deleted an entry and how, in words: "deleted by Erin Editor", "deleted by a developer". A
 * save's own words said "saved by", which over a deletion read as a save of every field it had.
 */
export function deletionWords(save: SaveRecord): SaveWords {
  const words = saveWords(save);
  switch (words.kind) {
    case 'save':
    case 'developer':
      return { ...words, action: `deleted by ${words.who}` };
    case 'outside':
    case 'found':
      return { ...words, action: words.action.replace(/^changed/, 'deleted') };
    default:
      // A publish or a roll back: who pressed it says it, and the version says the entry went.
      return words;
  }
}

/**
 * Who deleted an entry, in a list of deleted entries where nothing else says it went: "deleted by
 * Erin Editor", "deleted outside the editor"; a publish or a roll back, "deleted by" the member who
 * pressed it.
 */
export function deletedBy(save: SaveRecord): string {
  const words = deletionWords(save);
  return words.action.startsWith('deleted') ? words.action : `deleted by ${words.who}`;
}

/**
 * What a save did besides its fields, in words, with its times in the reader's zone: "the version
 * of yesterday 17:02 came back", "visitors of /ipad are sent to /android".
 */
export function saveNote(save: SaveRecord, when: TimeWordsOptions = {}): string | undefined {
  const kind = saveKind(save);
  const time = (iso: string | undefined) => {
    const at = iso ? Date.parse(iso) : NaN;
    return Number.isFinite(at) ? timeWords(at, when) : undefined;
  };
  if (kind === 'restore') {
    const of = time(/^Restored the version of (\S+)/.exec(save.note)?.[1]);
    return of ? `The version of ${of} came back.` : 'An earlier version came back.';
  }
  if (kind === 'bring-back') {
    // "Brought back Zend Framework at /zend-2": what came back, and where.
    if (save.note.startsWith('Brought back ')) return `${save.note}.`;
    const deleted = time(/, deleted (\S+)$/.exec(save.note)?.[1]);
    return deleted ? `It had been deleted ${deleted}.` : undefined;
  }
  if (kind === 'links') {
    const [, back, again] = /^Links that led to (\S+) lead to (\S+) again$/.exec(save.note) ?? [];
    if (back && again) return `The links that led to ${back} lead to ${again} again.`;
    const [, from, to] = /^Links to (\S+) now lead to (\S+)/.exec(save.note) ?? [];
    return from && to ? `The links to ${from} now lead to ${to}.` : undefined;
  }
  if (kind === 'redirect') return `${save.note.replace(/; Visitors/g, '; visitors')}.`;
  return undefined;
}

/**
 * Who changed a file and when, as one phrase: "saved by you today 09:23", "changed by a developer
 * yesterday 17:02 (“js-yaml: 80 columns”)". For whatever has to tell the marketer that a file
 * changed since they opened it.
 */
export function changedBy(
  save: SaveRecord & Pick<Version, 'savedAt'>,
  when: TimeWordsOptions = {},
) {
  const words = saveWords(save);
  const detail = words.detail ? ` (“${words.detail}”)` : '';
  return `${words.action} ${timeWords(save.savedAt, when)}${detail}`;
}
