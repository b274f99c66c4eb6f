/**
 * What a draft changes, in the editor's words: the pages added, changed, removed or moved, the
 * redirects added or dropped, and the lists and images that several pages show, from the files git
 * says changed (./draft.ts). The publish page lists them; a publish's commit message names them.
 */
import { parse } from 'yaml';
import type { ChangedFile } from './draft.ts';
import { git } from './git.ts';
import { PUBLISH_SUBJECT } from '../../domain/editing.ts';
import { headerText } from '../safe-text.ts';
import type { KnownHost } from '../store/types.ts';
import { savedByWords, type ChangeKind, type DraftChange } from '../../domain/publishing.ts';

/** A change of the draft; a host added or removed (availability.yaml) says which. */
export interface Change extends DraftChange {
  host?: KnownHost;
}

const SERVICE = /^src\/content\/services\/([a-z0-9-]+)\.mdx$/;
const PAGE = /^src\/content\/pages\/([a-z0-9-]+)\.yaml$/;
const DATA = /^src\/content\/data\/([a-z0-9-]+)\.yaml$/;
const REDIRECTS = 'src/content/data/redirects.yaml';

/** A page copy file's address: `schedule-booked` is /schedule/booked, `home` is /. */
const pageAddress = (name: string) =>
  name === 'home' ? '/' : `/${name.replace(/^schedule-/, 'schedule/')}`;

const PAGE_NAMES: Record<string, string> = {
  'not-found': 'the not-found page',
  service: 'every service page (their shared copy)',
  offline: 'the offline page',
};

/** A file's text at a commit or tree (`rev`), or on disk in `cwd` (rev undefined); '' if none. */
type Read = (path: string, at: 'old' | 'new') => Promise<string>;

export const gitReader =
  (cwd: string, oldRev: string, newRev: string): Read =>
  (path, at) =>
    git(['show', `${at === 'old' ? oldRev : newRev}:${path}`], { cwd }).catch(() => '');

const titleOf = (text: string) =>
  /^title:\s*(.+)$/m
    .exec(text)?.[1]
    ?.trim()
    .replace(/^(['"])(.*)\1$/, '$2');

async function serviceChange(file: ChangedFile, read: Read): Promise<Change[]> {
  const slug = SERVICE.exec(file.path)![1]!;
  const title = titleOf(await read(file.path, file.status === 'D' ? 'old' : 'new')) ?? slug;
  if (file.status === 'R' && file.from) {
    const old = SERVICE.exec(file.from)?.[1];
    return [{ kind: 'moved', what: `${title}: from /${old} to /${slug}`, address: `/${slug}` }];
  }
  const kind = file.status === 'A' ? 'added' : file.status === 'D' ? 'removed' : 'changed';
  return [{ kind, what: title, address: `/${slug}` }];
}

const redirectsOf = (text: string) => {
  try {
    const entries = (parse(text) as { entries?: { from: string; to: string }[] } | null)?.entries;
    return new Map((entries ?? []).map((e) => [e.from, e.to]));
  } catch {
    return new Map<string, string>();
  }
};

async function redirectChanges(read: Read): Promise<Change[]> {
  const before = redirectsOf(await read(REDIRECTS, 'old'));
  const after = redirectsOf(await read(REDIRECTS, 'new'));
  const changes: Change[] = [];
  for (const [from, to] of after)
    if (before.get(from) !== to)
      changes.push({ kind: 'redirected', what: `${from} now leads to ${to}`, address: from });
  for (const [from] of before)
    if (!after.has(from))
      changes.push({ kind: 'removed', what: `the redirect from ${from}`, address: from });
  return changes;
}

/** One file's change, in words. */
async function fileChange(file: ChangedFile, read: Read): Promise<Change[]> {
  if (SERVICE.test(file.path)) return serviceChange(file, read);
  if (file.path === REDIRECTS) return redirectChanges(read);
  const kind = file.status === 'A' ? 'added' : file.status === 'D' ? 'removed' : 'changed';
  const page = PAGE.exec(file.path)?.[1];
  if (page) {
    const what = PAGE_NAMES[page] ?? `the ${page.replace(/-/g, ' ')} page`;
    return [{ kind, what, ...(!PAGE_NAMES[page] && { address: pageAddress(page) }) }];
  }
  const data = DATA.exec(file.path)?.[1];
  // Read by the pages, and by the e-mails and the desk as the release goes live (../live-content.ts).
  if (data === 'settings') return [{ kind, what: 'the site’s settings' }];
  if (data === 'availability')
    return [{ kind, what: 'the hosts and their hours' }, ...(await hostChanges(file.path, read))];
  if (data)
    return [{ kind, what: `the list “${data.replace(/-/g, ' ')}” (shown on several pages)` }];
  return [{ kind, what: `the image ${file.path.split('/').at(-1)}` }];
}

/**
 * The hosts of availability.yaml's text (none if it cannot be read): their ids and names, each name
 * one line (the commit's message lists them a line each).
 */
function hostsIn(text: string): Map<string, string> {
  try {
    const { entries } = (parse(text) ?? {}) as { entries?: { id?: unknown; hosts?: unknown }[] };
    const hosts = entries?.find((entry) => entry?.id === 'calls')?.hosts;
    return new Map(
      (Array.isArray(hosts) ? hosts : []).flatMap((host: { id?: unknown; name?: unknown }) =>
        typeof host?.id === 'string'
          ? [[host.id, headerText(String(host.name ?? host.id), 80)] as const]
          : [],
      ),
    );
  } catch {
    return new Map();
  }
}

/** The hosts the draft adds and removes, each named. */
async function hostChanges(path: string, read: Read): Promise<Change[]> {
  const [before, after] = [hostsIn(await read(path, 'old')), hostsIn(await read(path, 'new'))];
  const apart = (from: Map<string, string>, to: Map<string, string>, kind: ChangeKind) =>
    [...from]
      .filter(([id]) => !to.has(id))
      .map(([id, name]): Change => ({ kind, what: `the host ${name}`, host: { id, name } }));
  return [...apart(before, after, 'removed'), ...apart(after, before, 'added')];
}

/** Every change of `files`, in the editor's words. */
export async function describeChanges(
  files: readonly ChangedFile[],
  read: Read,
): Promise<Change[]> {
  const all: Change[] = [];
  for (const file of files) all.push(...(await fileChange(file, read)));
  return all;
}

const VERB: Record<ChangeKind, string> = {
  added: 'Added',
  changed: 'Changed',
  removed: 'Removed',
  moved: 'Moved',
  redirected: 'Redirected',
};

/** A change as a line: "Changed Android App (/android)". */
export const changeLine = (change: Change) =>
  `${VERB[change.kind]} ${change.what}${change.address && !change.what.includes(change.address) ? ` (${change.address})` : ''}`;

/** A change as a line of a list, with who saved it: "- Changed Android App (/android), saved by Marc". */
export const listedLine = (change: Change) =>
  `- ${[changeLine(change), savedByWords(change.savedBy)].filter(Boolean).join(', ')}`;

/**
 * A publish's commit message: a subject naming what changed, then every change on its line, with
 * who saved it (the member who pressed Publish is the commit's author).
 */
export function commitMessage(changes: readonly Change[]): string {
  const named = changes.slice(0, 3).map(changeLine).join('; ');
  const more = changes.length > 3 ? ` and ${changes.length - 3} more` : '';
  const subject = `${PUBLISH_SUBJECT}${named || 'content'}${more}`;
  return `${subject}\n\n${changes.map(listedLine).join('\n')}\n`;
}
