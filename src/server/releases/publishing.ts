/**
 * Publishing from the browser: a publish (queued by /staff/publish, built by the job of
 * ./publish-job.ts), a roll back (at once: a release already built, served again), and the
 * following of the live release by every process (the store's newest release, fetched from the
 * store when this machine lacks its folder, then the `current` link switched: ./folders.ts).
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { EditingConfig } from '../config.ts';
import { processWide } from '../process-wide.ts';
import type { EnquiryStore, KnownHost } from '../store/types.ts';
import type { Publish, Release } from '../store/releases.ts';
import {
  currentFolder,
  hasRelease,
  makeEditingDirs,
  packRelease,
  releasePaths,
  removeReleasesExcept,
  switchTo,
  unpackRelease,
  type ReleasePaths,
} from './folders.ts';
import {
  advancePublished,
  bringBackDropped,
  carryDraftOnto,
  publishedBase,
  commitTree,
  draftAsPublished,
  draftChanges,
  draftSavers,
  droppedDrafts,
  ensureDraft,
  followLive,
  publishedTip,
  PublishRefused,
  startAgain,
  type Author,
  type ChangedFile,
  type DroppedDraft,
} from './draft.ts';
import { git, gitSucceeds } from './git.ts';
import { draftStamp } from './stamp.ts';
import { describeChanges, gitReader, listedLine, type Change } from './words.ts';
import type { Builder } from './build.ts';
import { ROLLBACK_SUBJECT } from '../../domain/editing.ts';
import type { HostLeaving } from '../../domain/publishing.ts';

/** What every publish job's kind starts with: the other queues leave them. */
export const PUBLISH_JOB_PREFIX = 'publish-';

/**
 * The publish job's kind of this machine's draft: the draft is a folder of one machine, so only the
 * processes that share it (the same machine, the same EDITING_DIR) can build it; another machine's
 * queue leaves the job, having no handler for its kind.
 */
export const publishJobKind = (draftDir: string, machine = hostname()) =>
  `${PUBLISH_JOB_PREFIX}${createHash('sha256').update(`${machine}\0${draftDir}`).digest('hex').slice(0, 12)}`;

/** Publishing asked of a machine other than the one whose repository holds the publishes. */
export const PublishedElsewhere = processWide(
  'PublishedElsewhere',
  () => class PublishedElsewhere extends Error {},
);
export type PublishedElsewhere = InstanceType<typeof PublishedElsewhere>;

export interface PublishPayload {
  publish: number;
}

export interface PublishingOptions {
  config: EditingConfig;
  store: EnquiryStore;
  /** The build a publish runs (./build.ts commandBuilder, or the tests' stand-in). */
  builder: Builder;
  /** The queue, told when a publish is queued. */
  kick?: () => void;
  log?: (line: string) => void;
  now?: () => number;
  /** The job kind (this machine's, by default). */
  jobKind?: string;
  /** The build deployed (dist/): kept as the first release, so that the first publish can be rolled back. */
  distDir?: string;
}

/** Why a roll back was refused as a publish went live at that moment (the page says it). */
export const PUBLISHED_MEANWHILE =
  'A publish went live meanwhile: roll back again if you still want to.';

/** How many drafts dropped by Start again Publishing offers to bring back. */
const DROPPED_SHOWN = 3;

/** Where a publish of a draft behind the live site would be refused: why, and what clashes. */
export interface Clash {
  reason: string;
  /** The draft's changes of the files that clash, in words. */
  changes: Change[];
}

/** What the page shows of the store's: read again by `state()`. */
type StoreShown = 'latest' | 'live' | 'releases' | 'hostsLeaving';

/** What the publish page shows. */
export interface PublishingView {
  /** What the draft changes, each with who saved it (the editor's History). */
  changes: Change[];
  hostsLeaving: HostLeaving[];
  /** The draft started from a commit other than the live release's (it has changes of its own). */
  behindLive: boolean;
  /** Behind, a publish of the draft would be refused: its changes cannot be added to what is live. */
  clash: Clash | undefined;
  /** The draft as shown (its tree): Start again drops only that, not a Save made since. */
  draft: string;
  /** The drafts Start again dropped, newest first: each can be brought back. */
  dropped: DroppedDraft[];
  latest: Publish | undefined;
  releases: Release[];
  live: Release | undefined;
  /**
   * What the page was made from, as `state()` reads it again without git (a hash); undefined where
   * it cannot be read so.
   */
  state: string | undefined;
}

/** What of a view `state()` reads again, with the stamp of the draft and the branches it was made from. */
const stateOf = (
  stamp: string,
  { latest, live, releases, hostsLeaving }: Pick<PublishingView, StoreShown>,
) =>
  createHash('sha256')
    .update(JSON.stringify([stamp, latest ?? null, live ?? null, releases, hostsLeaving]))
    .digest('base64url');

/** The hosts the draft's changes remove. */
const leavingHosts = (changes: readonly Change[]): KnownHost[] =>
  changes.flatMap((change) => (change.kind === 'removed' && change.host ? [change.host] : []));

export class Publishing {
  readonly paths: ReleasePaths;
  readonly options: PublishingOptions;
  readonly jobKind: string;

  constructor(options: PublishingOptions) {
    this.options = options;
    this.paths = releasePaths(options.config);
    this.jobKind = options.jobKind ?? publishJobKind(options.config.draftDir);
  }

  now = () => this.options.now?.() ?? Date.now();

  get records() {
    return this.options.store.releases;
  }

  /**
   * The editing folder and the draft, made as the process starts rather than by the first visit of
   * Publishing (a GET changes nothing); a draft of a former release's repository is moved over.
   */
  async prepare() {
    await makeEditingDirs(this.paths);
    const live = await this.records.live();
    const here =
      !live ||
      (await gitSucceeds(['cat-file', '-e', `${live.commit}^{commit}`], {
        cwd: this.options.config.repoDir,
      }));
    if (here) await ensureDraft(this.options.config, live?.commit);
  }

  /**
   * Refused where the site's repository lacks the live release's commit: another machine published
   * it, whose repository and draft hold the history (route the editor to that machine).
   */
  async ensureHere(live: Release | undefined) {
    if (!live) return;
    const here = await gitSucceeds(['cat-file', '-e', `${live.commit}^{commit}`], {
      cwd: this.options.config.repoDir,
    });
    if (!here)
      throw new PublishedElsewhere(
        'This machine serves what is live, but publishing is done on the machine that published it: its repository holds the site’s history and the draft. Open Publishing there. (On that machine, this means a deploy of new code left out the branch "published": docs/publishing.md.)',
      );
  }

  /**
   * What the page shows: the draft's changes in words, the publish under way, the releases. A
   * draft with no change of its own behind the live site follows it: it has nothing to lose.
   */
  async view(): Promise<PublishingView> {
    // A publish (or a roll back) that goes live while git reads the draft: the page would say
    // "Live" above a list marking the release before as live now. Read again against the new one.
    for (let read = 1; ; read++) {
      const view = await this.#viewOn(await this.records.live());
      if (view.live?.id === view.releases[0]?.id || read === 3) return view;
    }
  }

  /** The page's view, the draft read against `live`, the store's records read after it. */
  async #viewOn(live: Release | undefined): Promise<PublishingView> {
    const { config } = this.options;
    await makeEditingDirs(this.paths);
    await this.ensureHere(live);
    await ensureDraft(config, live?.commit);
    // Read before git reads the draft: a Save meanwhile is shown, and makes the next state differ.
    const stamp = await draftStamp(config);
    let draft = await draftChanges(config);
    if (live && live.commit !== draft.base && (await followLive(config, live.commit)))
      draft = await draftChanges(config);
    const { base, tree, files } = draft;
    const changes = await this.describe(files, base, tree);
    const behindLive = live !== undefined && live.commit !== base;
    const leaving = leavingHosts(changes);
    const view = {
      changes,
      hostsLeaving: await this.#callsAhead(leaving),
      behindLive,
      clash: behindLive && files.length ? await this.#clash(live.commit, draft) : undefined,
      draft: tree,
      dropped: await droppedDrafts(config, DROPPED_SHOWN),
      latest: await this.records.latestPublish(),
      releases: await this.records.recent(config.releasesKept),
      live,
    };
    this.#shown = stamp ? { stamp, leaving } : undefined;
    return { ...view, state: stamp ? stateOf(stamp, view) : undefined };
  }

  /** The stamp the last view was made from, and the hosts its draft removes. */
  #shown: { stamp: string; leaving: KnownHost[] } | undefined;

  /**
   * What `view()` would be made from now, as its `state`, read without git: the stamp of the draft
   * and the branches, and the store's publish, releases and calls ahead. Undefined where the last
   * view was of another stamp (its draft's changes are git's to say).
   */
  async state(): Promise<string | undefined> {
    const shown = this.#shown;
    const stamp = await draftStamp(this.options.config);
    if (!stamp || stamp !== shown?.stamp) return undefined;
    return stateOf(stamp, {
      live: await this.records.live(),
      hostsLeaving: await this.#callsAhead(shown.leaving),
      latest: await this.records.latestPublish(),
      releases: await this.records.recent(this.options.config.releasesKept),
    });
  }

  /**
   * The draft's files (on `base`, as `tree`) in words, each change with who saved it since the
   * draft began: what Publishing lists, and a publish's commit names.
   */
  async describe(files: ChangedFile[], base: string, tree: string): Promise<Change[]> {
    const { draftDir } = this.options.config;
    const read = gitReader(draftDir, base, tree);
    const savers = await draftSavers(this.options.config, base);
    const described: Change[] = [];
    for (const file of files) {
      const savedBy = [
        ...new Set([...(savers.get(file.path) ?? []), ...(savers.get(file.from ?? '') ?? [])]),
      ];
      for (const change of await describeChanges([file], read))
        described.push(savedBy.length ? { ...change, savedBy } : change);
    }
    return described;
  }

  /** The last clash asked (git's merge: a few processes), by the draft's and the live commit. */
  #clashes: { key: string; clash: Promise<Clash | undefined> } | undefined;

  /**
   * Whether a publish would carry the draft's changes onto what is live (`draftAsPublished`, the
   * publish's own way); if not, why, and the changes of the files that clash. Asked once per draft
   * and live commit, not at every visit.
   */
  #clash(liveCommit: string, draft: { base: string; tree: string; files: ChangedFile[] }) {
    const key = `${draft.base} ${draft.tree} ${liveCommit}`;
    if (this.#clashes?.key === key) return this.#clashes.clash;
    const clash = draftAsPublished(this.options.config, draft).then(
      () => undefined,
      async (error: unknown): Promise<Clash> => {
        if (!(error instanceof PublishRefused)) throw error;
        const clashing = draft.files.filter(
          (file) => error.clashes.includes(file.path) || error.clashes.includes(file.from ?? ''),
        );
        return {
          reason: error.message,
          changes: await this.describe(clashing, draft.base, draft.tree),
        };
      },
    );
    this.#clashes = { key, clash };
    // An error of git's is asked again next time, not kept.
    clash.catch(() => {
      if (this.#clashes?.clash === clash) this.#clashes = undefined;
    });
    return clash;
  }

  /** The hosts the draft removes, with their calls ahead (those with none are not said). */
  async #callsAhead(leaving: readonly KnownHost[]): Promise<HostLeaving[]> {
    if (!leaving.length) return [];
    const ahead = await this.options.store.bookedBetween(
      new Date(this.now()).toISOString(),
      '9999-12-31T00:00:00.000Z',
    );
    return leaving.flatMap(({ id, name }) => {
      const calls = ahead.filter((call) => call.host === id).length;
      return calls ? [{ id, name, calls }] : [];
    });
  }

  /** Queues a publish by `author`, unless one is under way: that one, then. */
  async start(author: Author) {
    const started = await this.records.startPublish(
      author,
      { kind: this.jobKind, payload: (id): PublishPayload => ({ publish: id }) },
      this.now(),
    );
    if (started.started) this.options.kick?.();
    return started;
  }

  /**
   * Rolls back to release `id`: its files served again at once (no build), as a new release by
   * `author`, and a commit of its content on the published branch.
   */
  async rollBack(author: Author, id: number): Promise<Release> {
    const target = await this.records.release(id);
    if (!target?.kept)
      throw new PublishRefused('That release is no longer kept: choose a newer one.');
    await makeEditingDirs(this.paths);
    await this.fetchRelease(target.folder);
    const { repoDir } = this.options.config;
    const { from, tip } = await publishedBase(this.options.config);
    const tree = await git(['rev-parse', `${target.commit}^{tree}`], { cwd: repoDir });
    const when = new Date(target.createdAt).toISOString().slice(0, 16).replace('T', ' ');
    const summary = `${ROLLBACK_SUBJECT}${target.id} (${target.actorName}, ${when} UTC)`;
    const commit = await commitTree(
      repoDir,
      tree,
      [tip],
      author,
      `${summary}\n\n${target.summary}\n`,
    );
    // Refused if a publish put its commit on the branch meanwhile: then nothing was rolled back.
    await advancePublished(this.options.config, commit, from).catch(() => {
      throw new PublishRefused(PUBLISHED_MEANWHILE, true);
    });
    const releaseId = await this.records.addRelease(
      {
        kind: 'rollback',
        folder: target.folder,
        commit,
        actor: author.email,
        actorName: author.name,
        summary,
      },
      this.now(),
    );
    await switchTo(this.paths, target.folder);
    // The draft follows, its changes kept by git's merge; where they clash with the roll back, it
    // stays behind and Publishing says so (a failure here rolls nothing back).
    await carryDraftOnto(this.options.config, commit).catch((error: unknown) =>
      this.options.log?.(`The draft stays where it was after the roll back: ${String(error)}`),
    );
    return (await this.records.release(releaseId))!;
  }

  /**
   * Before the first publish: the build deployed until then (dist/) kept as a release, so that a
   * roll back can bring it back.
   */
  async keepDeployed() {
    const { distDir, config } = this.options;
    if (
      (await this.records.live()) ||
      !distDir ||
      !existsSync(join(distDir, 'server', 'entry.mjs'))
    )
      return;
    const files = await packRelease(distDir);
    const commit = await git(['rev-parse', 'HEAD'], { cwd: config.repoDir });
    const id = await this.records.addRelease(
      {
        kind: 'deploy',
        commit,
        actor: '',
        actorName: 'the deploy',
        summary: 'The site as deployed before publishing',
        files,
      },
      this.now(),
    );
    await unpackRelease(this.paths, id, files, join(config.repoDir, 'node_modules'));
    await switchTo(this.paths, id);
  }

  /**
   * Drops the draft's changes, as shown (`seen`, PublishingView.draft), by `author`: it starts again
   * from what is live, what it held kept to be brought back. False, nothing dropped, if a Save
   * changed the draft since it was shown.
   */
  async restartDraft(author: Author, seen: string): Promise<boolean> {
    const { config } = this.options;
    const live = await this.records.live();
    const { base, tree, files } = await draftChanges(config);
    const lines = (await this.describe(files, base, tree)).map(listedLine);
    const message = `Start again: the draft's changes dropped\n\n${lines.join('\n')}\n`;
    return startAgain(config, live?.commit ?? (await publishedTip(config)), {
      seen,
      author,
      message,
      at: this.now(),
    });
  }

  /** Brings a draft Start again dropped (`id`, of PublishingView.dropped) back into the draft. */
  bringBack(id: string) {
    return bringBackDropped(this.options.config, id);
  }

  /** Release `folder` on this disk, from the store's copy if this machine lacks it. */
  async fetchRelease(folder: number) {
    if (hasRelease(this.paths, folder)) return;
    const files = await this.records.files(folder);
    if (!files) throw new PublishRefused(`Release ${folder} is no longer kept.`);
    await unpackRelease(
      this.paths,
      folder,
      files,
      join(this.options.config.repoDir, 'node_modules'),
    );
  }

  /**
   * Makes this machine's `current` link name the store's live release: what every process does
   * every EDITING_POLL_MS, and once as it starts. Whether it switched.
   */
  async follow(): Promise<boolean> {
    const live = await this.records.live();
    if (!live || (await currentFolder(this.paths)) === live.folder) return false;
    await makeEditingDirs(this.paths);
    await this.fetchRelease(live.folder);
    await switchTo(this.paths, live.folder);
    this.options.log?.(`Release ${live.id} is live here (${live.summary.split('\n')[0]}).`);
    // This machine's folders of releases no longer kept go too (the publishing one prunes the store).
    const kept = await this.records.recent(this.options.config.releasesKept);
    await removeReleasesExcept(this.paths, [...new Set(kept.map((release) => release.folder))]);
    return true;
  }

  /** The releases beyond those kept: their files dropped from the store and this disk. */
  async prune() {
    const kept = await this.records.prune(this.options.config.releasesKept);
    await removeReleasesExcept(this.paths, kept);
  }
}
