/**
 * The publish job (a kind of ../jobs/queue.ts): the draft committed by the member, that commit
 * checked out and built at low priority (./build.ts), its output kept as a release (the store's
 * copy and this disk's folder) and switched live; each step, with a progress from 0 to 100, in the
 * store for the page. Where the draft's preview has a finished build of exactly what the checkout
 * holds (the same hash of the build's inputs: code, content, packages), that build is used rather
 * than built again. A build that fails changes nothing live and says why; a process stopped
 * mid-build gives the job back (its build is stopped too), and the next run builds again from the
 * commit already made.
 */
import { existsSync, readdirSync } from 'node:fs';
import { cp, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobHandler, JobOutcome } from '../jobs/queue.ts';
import type { Publish } from '../store/releases.ts';
import {
  advancePublished,
  publishedBase,
  ontoPublished,
  commitDraft,
  carryDraftOnto,
  draftChanges,
  PublishRefused,
  restartDraft,
} from './draft.ts';
import {
  makeEditingDirs,
  packRelease,
  placeRelease,
  previewBuildOf,
  releaseDir,
  switchTo,
} from './folders.ts';
import { BuildFailed, buildInputs } from './build.ts';
import { git } from './git.ts';
import { commitMessage } from './words.ts';
import type { Publishing, PublishPayload } from './publishing.ts';

/** The steps, in the editor's words, and where each starts on the progress bar. */
export const STEPS = {
  saving: ['Saving your changes', 5],
  preparing: ['Preparing the new version of the site', 10],
  building: ['Building the pages', 15],
  previewed: ['Using the preview’s build of the same content', 90],
  live: ['Putting it live', 92],
  done: ['Live', 100],
} as const;

/** The pages a build makes, as far as it can be known before: the live release's, else a guess. */
const expectedPages = (publishing: Publishing, folder: number | undefined) =>
  pagesIn(folder === undefined ? undefined : join(releaseDir(publishing.paths, folder), 'client'));

/** The pages of a build's client files (`client`), which the next build makes about as many of; else a guess. */
export function pagesIn(client: string | undefined) {
  if (client === undefined) return 60;
  let pages = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) visit(join(dir, entry.name));
      else if (entry.name.endsWith('.html')) pages++;
    }
  };
  try {
    visit(client);
  } catch {
    return 60;
  }
  return Math.max(pages, 1);
}

/** The job's handler; `signal` ends a build when the process stops (its job is then given back). */
export function publishHandler(
  publishing: Publishing,
  signal?: AbortSignal,
): JobHandler<PublishPayload> {
  return async (job): Promise<JobOutcome> => {
    const id = job.payload?.publish;
    const publish = id === undefined ? undefined : await publishing.records.publish(id);
    if (!publish || publish.state === 'live' || publish.state === 'failed')
      return { skipped: 'no publish under way', log: `Publish job ${job.id}: nothing to do` };
    try {
      const { releaseId, previewed } = await runPublish(publishing, publish, signal);
      const how = previewed ? 'with the preview’s build' : 'built anew';
      return { done: true, log: `Published release ${releaseId} (publish ${publish.id}, ${how})` };
    } catch (error) {
      // Stopping: the job is given back, and built again after the restart.
      if (signal?.aborted) throw error;
      if (!(error instanceof PublishRefused || error instanceof BuildFailed))
        return unexpected(publishing, publish, job.attempts, error);
      await publishing.records.updatePublish(
        publish.id,
        { state: 'failed', reason: error.message },
        publishing.now(),
      );
      return {
        skipped: 'the publish failed',
        log: `Publish ${publish.id} failed: ${error.message}`,
      };
    }
  };
}

/** Tries of a publish that meets an error of the server (a disk full, git refusing) before it gives up. */
const TRIES = 3;

/**
 * An error of the server's, not of the content: tried again (with the queue's backoff) a few
 * times, then the publish fails in words, and frees its place for the next (the job failed for
 * good, which /healthz counts, for the operator).
 */
async function unexpected(
  publishing: Publishing,
  publish: Publish,
  attempts: number,
  error: unknown,
): Promise<JobOutcome> {
  const log = `Publish ${publish.id} met an error: ${String(error)}`;
  if (attempts + 1 < TRIES) return { retry: String(error), log };
  const reason =
    'Publishing stopped on an error of the server, so nothing changed on the live site. Try again; if it fails again, ask whoever runs the site (the server’s log says why).';
  await publishing.records.updatePublish(publish.id, { state: 'failed', reason }, publishing.now());
  return { failed: String(error), log };
}

/** A publish from its commit to its release live; the release's id. */
async function runPublish(publishing: Publishing, publish: Publish, signal?: AbortSignal) {
  const { records } = publishing;
  const { config } = publishing.options;
  const step = (key: keyof typeof STEPS, progress: number = STEPS[key][1]) =>
    records.updatePublish(
      publish.id,
      { state: 'building', step: STEPS[key][0], progress },
      publishing.now(),
    );
  await makeEditingDirs(publishing.paths);
  await step('saving');
  const made = publish.commit
    ? { commit: publish.commit, message: await subjectOf(publishing, publish.commit) }
    : await commitOf(publishing, publish);
  await records.updatePublish(publish.id, { commit: made.commit }, publishing.now());
  await step('preparing');
  await publishing.keepDeployed();
  const live = await records.live();
  const checkout = join(publishing.paths.buildsDir, `publish-${publish.id}`);
  await checkOut(config.repoDir, checkout, made.commit);
  try {
    const previewed = await fromPreview(publishing, checkout);
    if (previewed) await step('previewed');
    else await build(publishing, checkout, expectedPages(publishing, live?.folder), step, signal);
    await step('live');
    const { from, tip } = await publishedBase(config);
    const commit = await ontoPublished(config, made.commit, tip);
    const files = await packRelease(join(checkout, 'dist'));
    // The branch first, as a roll back does: one that moved it meanwhile has it refused here, before
    // any process could take this release for the live one, and the job is tried again onto its commit.
    await advancePublished(config, commit, from);
    const releaseId = await records.addRelease(
      {
        kind: 'publish',
        commit,
        actor: publish.actor,
        actorName: publish.actorName,
        summary: made.message,
        files,
      },
      publishing.now(),
    );
    await placeRelease(
      publishing.paths,
      join(checkout, 'dist'),
      releaseId,
      join(config.repoDir, 'node_modules'),
    );
    await switchTo(publishing.paths, releaseId);
    await records.updatePublish(
      publish.id,
      { state: 'live', step: STEPS.done[0], progress: 100, releaseId },
      publishing.now(),
    );
    await followDraft(publishing, commit);
    await publishing.prune();
    return { releaseId, previewed };
  } finally {
    await git(['worktree', 'remove', '--force', checkout], { cwd: config.repoDir }).catch(() => {});
    await rm(checkout, { recursive: true, force: true });
  }
}

/**
 * The preview's finished build of what `checkout` holds, copied to its dist/, if there is one:
 * decided by the hash of the build's inputs on both sides, never by time. Whether it was; any doubt
 * (none, or the preview's build replaced while copied) and the publish builds as ever.
 */
async function fromPreview(publishing: Publishing, checkout: string) {
  const modules = join(checkout, 'node_modules');
  const inputs = await buildInputs(checkout, modules, publishing.options.config.buildCommand);
  const kept = previewBuildOf(publishing.paths, inputs);
  if (!kept) return false;
  const dist = join(checkout, 'dist');
  const copied = await cp(kept, dist, { recursive: true, verbatimSymlinks: true }).then(
    () => true,
    () => false,
  );
  // Replaced meanwhile: the folder is renamed away before it is removed (folders.ts retire).
  if (copied && previewBuildOf(publishing.paths, inputs) === kept) return true;
  await rm(dist, { recursive: true, force: true });
  return false;
}

/** The publish's commit, made of the draft by the member, with its changes named. */
async function commitOf(publishing: Publishing, publish: Publish) {
  const { config } = publishing.options;
  const { base, tree, files } = await draftChanges(config);
  const message = commitMessage(await publishing.describe(files, base, tree));
  const { commit } = await commitDraft(
    config,
    { name: publish.actorName, email: publish.actor },
    message,
  );
  return { commit, message: message.split('\n')[0]! };
}

const subjectOf = (publishing: Publishing, commit: string) =>
  git(['log', '-1', '--format=%s', commit], { cwd: publishing.options.config.repoDir });

/** A checkout of `commit` in `dir` (a worktree of the site's repository), its node_modules linked. */
async function checkOut(repoDir: string, dir: string, commit: string) {
  await git(['worktree', 'remove', '--force', dir], { cwd: repoDir }).catch(() => {});
  await rm(dir, { recursive: true, force: true });
  await git(['worktree', 'prune'], { cwd: repoDir });
  await git(['worktree', 'add', '--detach', dir, commit], { cwd: repoDir });
  await symlink(join(repoDir, 'node_modules'), join(dir, 'node_modules'));
}

/**
 * Where a build is, from a line it writes: its phases as Astro names them, then its pages and its
 * images counted (`(12/138)`), each over its share of the bar between "building" and "live".
 */
export function buildProgress(expectedPages: number) {
  const [from, to] = [STEPS.building[1], STEPS.live[1] - 1];
  const at = (share: number) => Math.min(to, Math.round(from + (to - from) * share));
  let pages = 0;
  return (line: string): number | undefined => {
    if (/Building server entrypoints/.test(line)) return at(0.15);
    if (/\.html\b/.test(line)) return at(0.3 + (0.4 * ++pages) / expectedPages);
    const image = /\((\d+)\/(\d+)\)\s*$/.exec(line);
    if (image) return at(0.7 + (0.25 * Number(image[1])) / Number(image[2]));
    if (/precompress|Server built in/.test(line)) return at(1);
    return undefined;
  };
}

/** The build, its progress from the lines it writes (buildProgress); its output in `dir/dist`. */
async function build(
  publishing: Publishing,
  dir: string,
  expected: number,
  step: (key: 'building', progress?: number) => Promise<void>,
  signal?: AbortSignal,
) {
  await step('building');
  const progressOf = buildProgress(expected);
  let shown = 0;
  let writing: Promise<void> = Promise.resolve();
  await publishing.options.builder({
    dir,
    command: publishing.options.config.buildCommand,
    priority: publishing.options.config.buildPriority,
    timeLimitMs: publishing.options.config.buildMinutes * 60_000,
    cacheDir: join(publishing.paths.editingDir, 'cache'),
    signal,
    onLine(line) {
      const progress = progressOf(line);
      // Written when it has moved, one write at a time: a page a few ms is many lines.
      if (progress === undefined || progress <= shown) return;
      shown = progress;
      writing = writing.then(() => step('building', progress)).catch(() => {});
    },
  });
  await writing;
  if (!existsSync(join(dir, 'dist', 'server', 'entry.mjs')))
    throw new BuildFailed('The build made no site to serve, so nothing changed on the live site.');
}

/**
 * The draft goes on from the published commit, its files as they are (edits made during the build
 * too): carried across by git's merge where the commit is more than the draft (a roll back or a
 * deploy merged in), else the draft is told it is behind the live site.
 */
async function followDraft(publishing: Publishing, commit: string) {
  const { config } = publishing.options;
  const { base } = await draftChanges(config);
  const parent = await git(['rev-parse', `${commit}^1`], { cwd: config.repoDir }).catch(() => '');
  if (parent === base) await restartDraft(config, commit, true);
  else await carryDraftOnto(config, commit);
}
