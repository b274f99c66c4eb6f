/**
 * What Publishing's page shows (src/components/staff/), as src/server/releases/ makes it: the last
 * publish, the draft's changes, the hosts it removes and the releases. The server's records extend
 * these with what only it reads (commits, folders, actors' addresses).
 */

export type PublishState = 'queued' | 'building' | 'live' | 'failed';

/** A publish as the page shows it: where it is, who started it, and why it failed. */
export interface PublishSummary {
  state: PublishState;
  /** The step under way or last done, in the editor's words. */
  step: string;
  /** 0 to 100. */
  progress: number;
  actorName: string;
  /** Why it failed, in the editor's words. */
  reason: string | null;
  createdAt: number;
  /** The release it made, once live. */
  releaseId: number | null;
}

/** Whether a publish is queued or building: the page follows it, and Roll back waits for it. */
export const isUnderWay = (publish: PublishSummary | undefined) =>
  publish?.state === 'queued' || publish?.state === 'building';

/** A publish's build, a roll back to an earlier one, or the build deployed before the first publish. */
export type ReleaseKind = 'deploy' | 'publish' | 'rollback';

/** A release as the page lists it. */
export interface ReleaseSummary {
  id: number;
  kind: ReleaseKind;
  actorName: string;
  /** What changed, in the editor's words (the commit's subject). */
  summary: string;
  createdAt: number;
  /** Whether its files are still kept (in the store): it can be rolled back to. */
  kept: boolean;
}

/** The live release, if a roll back made since `latest` went live put it there. */
export const rolledBackSince = (
  latest: PublishSummary | undefined,
  live: ReleaseSummary | undefined,
) =>
  latest?.state === 'live' && live?.kind === 'rollback' && latest.releaseId !== live.id
    ? live
    : undefined;

export type ChangeKind = 'added' | 'changed' | 'removed' | 'moved' | 'redirected';

/** A change of the draft, in the editor's words. */
export interface DraftChange {
  kind: ChangeKind;
  /** What it is, as the editor names it: a page's title, an image's name, a redirect. */
  what: string;
  /** The page's address, when it is a page. */
  address?: string;
  /** Who saved it in the editor since the draft began, first saver first (none if unknown). */
  savedBy?: string[];
}

/** A host the draft removes who has calls ahead: after the publish, their e-mails reach no host. */
export interface HostLeaving {
  id: string;
  name: string;
  calls: number;
}

/** Who saved a change, in words: "saved by Anna Reid and Marc Weber" ('' if no one is known). */
export function savedByWords(names: readonly string[] = []): string {
  if (names.length === 0) return '';
  const last = names.at(-1)!;
  return `saved by ${names.length === 1 ? last : `${names.slice(0, -1).join(', ')} and ${last}`}`;
}

/** Start again's second step: what it drops, at its heading. */
export const START_AGAIN_STEP = '/staff/publish?step=start-again#start-again';
