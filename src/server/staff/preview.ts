/**
 * The preview of the draft on the live site (`EDITING=on`): the site as a publish would make it
 * now, for signed-in editors. A production build of the draft (the project's code with the content
 * a publish would put live: the draft's changes carried onto the live release, as the publish
 * carries them, in a folder of the process's own, built by the publishes' builder,
 * ../releases/build.ts), never a dev server: nothing of Vite's is ever served. A publish of the
 * same content uses that build rather than build it again.
 *
 * - `/keystatic/preview?page=/ipad` (the editor's Preview leads there): once a build of the draft
 *   as it is now, on what is live now, is ready, the browser is put in preview mode (a cookie) and
 *   sent to the page; until then what it shows instead (a PreviewWait, which
 *   src/pages/keystatic/preview.astro renders as a staff page): the build's step and progress,
 *   or why the build failed, or why a publish would be refused (the live site changed the same text).
 * - In preview mode an editor's browser is answered from that build (pages, their files and its
 *   not-found page, a line at the top of each page saying so); the on-demand routes stay live.
 *   Anyone else's browser with the cookie has it taken away.
 * - `/keystatic/preview/leave` leaves preview mode.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm, symlink } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { parse } from 'yaml';
import { LEAVE_PREVIEW, PREVIEW_COOKIE, type PreviewWait } from '../../domain/editing.ts';
import { resolveRedirect, type Redirect } from '../../domain/redirects.ts';
import type { ServerConfig } from '../config.ts';
import type { PageAnswer } from '../http/answer.ts';
import { log } from '../log.ts';
import { onShutdown } from '../shutdown.ts';
import {
  BUILD_PARTS,
  BuildFailed,
  buildInputs,
  commandBuilder,
  type Builder,
} from '../releases/build.ts';
import {
  CONTENT_PATHS,
  draftAsPublished,
  publishedTip,
  PublishRefused,
  writeContent,
} from '../releases/draft.ts';
import {
  currentFolder,
  previewBuildName,
  previewBuildOf,
  releaseDir,
  releasePaths,
  retire,
} from '../releases/folders.ts';
import { buildProgress, pagesIn, STEPS } from '../releases/publish-job.ts';
import { loadPageCsps, pagePath } from '../http/server.ts';
import { indexStaticFiles, lookup, type StaticFile } from '../http/static-files.ts';
import { onDemandRoutes, routePath } from '../http/routes.ts';

const previewCookie = (on: boolean) =>
  `${PREVIEW_COOKIE}=${on ? '1; Max-Age=3600' : '; Max-Age=0'}; Path=/; HttpOnly; SameSite=Lax`;

interface Built {
  /** The build's client files (dist/client). */
  client: string;
  /** The draft's newest change the build includes (ms). */
  madeFrom: number;
  /** The published commit the draft was carried onto: another one live since, and it is out of date. */
  onto: string;
  files: Map<string, StaticFile>;
  csps: Map<string, string>;
  /** The draft's redirects as built: an old address answers 301 as on the live site. */
  redirects: Redirect[];
}

interface State {
  built?: Built;
  building?: Promise<void>;
  failed?: string;
  /** Why a publish would be refused now (the draft and the live site change the same text). */
  refused?: string;
  /** The build under way: its step and progress (Publishing's words and bar), since when. */
  progress?: { step: string; progress: number; startedAt: number };
  /** How long the last build that finished took (ms): what the next one is said to take. */
  lastMs?: number;
  /** Ends the build under way when the process stops (stoppedWithProcess). */
  stop?: AbortController;
}

/** One state per process, whichever copy of this module (the server's, the build's) asks. */
const state = ((globalThis as Record<symbol, State | undefined>)[
  Symbol.for('agency-site.editor-preview')
] ??= {});

/** The newest change of the draft's content: a build older than it is out of date. */
function newestChange(draft: string): number {
  let newest = 0;
  const visit = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    newest = Math.max(newest, stat.mtimeMs, stat.ctimeMs);
    if (stat.isDirectory())
      for (const name of readdirSync(path)) if (!name.startsWith('.')) visit(join(path, name));
  };
  for (const part of ['src/content', 'src/assets']) visit(join(draft, part));
  return newest;
}

/**
 * A folder to build the draft in: the project's code, the content a publish of the draft would
 * make (`content` writes it), the project's packages.
 */
async function prepare(
  siteRoot: string,
  project: string,
  content: (project: string) => Promise<void>,
) {
  await mkdir(project, { recursive: true, mode: 0o700 });
  for (const part of [...BUILD_PARTS, 'dist', '.astro'])
    await rm(join(project, part), { recursive: true, force: true });
  const siteContent = CONTENT_PATHS.map((part) => join(siteRoot, part) + sep);
  for (const part of BUILD_PARTS)
    if (existsSync(join(siteRoot, part)))
      await cp(join(siteRoot, part), join(project, part), {
        recursive: true,
        filter: (source) => !siteContent.some((folder) => `${source}${sep}`.startsWith(folder)),
      });
  await content(project);
  await linkPackages(siteRoot, project);
}

/**
 * The project's packages, each linked, in a node_modules of the build's own: Astro's and Vite's
 * caches (the content store, the images made; the folder's `cache/`) are the preview's, never the
 * site's own build's nor a publish's. Kept from one build to the next, with its caches.
 */
async function linkPackages(siteRoot: string, project: string) {
  const modules = join(project, 'node_modules');
  await mkdir(modules, { recursive: true });
  const linked = new Set(await readdir(modules));
  for (const name of await readdir(join(siteRoot, 'node_modules')))
    if (!name.startsWith('.') && !linked.has(name))
      await symlink(join(siteRoot, 'node_modules', name), join(modules, name), 'dir');
}

/** The redirects of the content a build was made from (src/content/data/redirects.yaml). */
async function builtRedirects(project: string): Promise<Redirect[]> {
  try {
    const data = parse(await readFile(join(project, REDIRECTS), 'utf8')) as {
      entries?: Redirect[];
    } | null;
    return Array.isArray(data?.entries) ? data.entries : [];
  } catch {
    return [];
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Builds left by an earlier run of the server, or not shown any more: all but the one shown; and
 * the project folders of processes gone (each process builds in a folder of its own).
 */
async function dropOldBuilds(folder: string) {
  const shown = state.built && resolve(state.built.client, '..');
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const pid = /^project-(\d+)$/.exec(name)?.[1];
    if (name.startsWith('build-') && join(folder, name) !== shown) await retire(join(folder, name));
    else if (name === 'project' || (pid && !alive(Number(pid))))
      await rm(join(folder, name), { recursive: true, force: true });
  }
}

/** Why the build failed, as the preview's page says it: the build's last lines, else its words. */
const failedWords = (error: unknown) =>
  error instanceof BuildFailed
    ? error.lines.slice(-12).join('\n').trim() || error.message
    : String(error);

export interface PreviewOptions {
  config: Pick<ServerConfig, 'editing'>;
  /** The project the server runs from: its code, with the draft's content, is what is built. */
  siteRoot: string;
  draft: string;
  /** ../releases/build.ts's, as a publish's; the tests' stand-in. */
  builder?: Builder;
}

/**
 * Builds the draft as a publish would make it now (its changes carried onto what is live, as the
 * publish carries them: ../releases/draft.ts draftAsPublished), one build at a time, through the
 * publishes' builder; the output is named by the hash of what the build read, so that a publish of
 * the same finds it. Where a publish would be refused, no build: the preview says why.
 */
export function buildPreview(options: PreviewOptions) {
  state.building ??= previewBuild(options).finally(() => (state.building = undefined));
  return state.building;
}

/**
 * A signal that ends a build when the process stops (SIGTERM, as a deploy's restart): a server
 * stopped alone, outside systemd's control group, would otherwise leave it running, orphaned.
 */
function stoppedWithProcess(): AbortSignal {
  if (!state.stop) {
    const stop = new AbortController();
    onShutdown(async () => stop.abort());
    state.stop = stop;
  }
  return state.stop.signal;
}

async function previewBuild({ config, siteRoot, draft, builder = commandBuilder }: PreviewOptions) {
  const { previewDir } = releasePaths(config.editing);
  const project = join(previewDir, `project-${process.pid}`);
  const command = config.editing.buildCommand;
  const madeFrom = newestChange(draft);
  const startedAt = Date.now();
  state.progress = { step: STEPS.preparing[0], progress: STEPS.preparing[1], startedAt };
  try {
    await dropOldBuilds(previewDir);
    const { commit, onto } = await draftAsPublished(config.editing);
    await prepare(siteRoot, project, (dir) => writeContent(config.editing, commit, dir));
    const inputs = await buildInputs(project, join(siteRoot, 'node_modules'), command);
    if (sameAsShown(config.editing, inputs)) return keepShown({ madeFrom, onto });
    const progressOf = buildProgress(await pagesBefore(config.editing));
    state.progress = { step: STEPS.building[0], progress: STEPS.building[1], startedAt };
    await builder({
      dir: project,
      command,
      priority: config.editing.buildPriority,
      timeLimitMs: config.editing.buildMinutes * 60_000,
      cacheDir: join(project, 'cache'),
      signal: stoppedWithProcess(),
      onLine(line) {
        const progress = progressOf(line);
        if (state.progress && progress !== undefined && progress > state.progress.progress)
          state.progress = { ...state.progress, progress };
      },
    });
    // Moved out of the project, which the next build empties: the preview being shown stays whole
    // until this one takes its place, then goes.
    const dist = join(previewDir, previewBuildName(inputs));
    await rename(join(project, 'dist'), dist);
    await show(dist, { madeFrom, onto }, project);
    state.lastMs = Date.now() - startedAt;
  } catch (error) {
    if (state.stop?.signal.aborted) return; // The process is stopping: nobody waits for it.
    if (error instanceof PublishRefused) state.refused = error.message;
    else {
      state.failed = failedWords(error);
      log.warn('The preview of the draft could not be built.');
    }
  }
}

/**
 * How many pages the build will make, as its progress counts them: as many as the preview shown,
 * else the live release.
 */
async function pagesBefore(editing: PreviewOptions['config']['editing']) {
  if (state.built) return pagesIn(state.built.client);
  const paths = releasePaths(editing);
  const live = await currentFolder(paths);
  return pagesIn(live === undefined ? undefined : join(releaseDir(paths, live), 'client'));
}

/**
 * Whether the build shown is of these very inputs: the same content on another live release (a
 * publish of the draft previewed, by a colleague or by the editor), shown again without a build.
 */
const sameAsShown = (editing: PreviewOptions['config']['editing'], inputs: string) =>
  state.built !== undefined &&
  previewBuildOf(releasePaths(editing), inputs) === resolve(state.built.client, '..');

/** The build shown kept, as the draft's build on the live release now. */
function keepShown(made: Pick<Built, 'madeFrom' | 'onto'>) {
  state.built = { ...state.built!, ...made };
  state.failed = undefined;
  state.refused = undefined;
}

/** The build in `dist` shown from now on; the one before goes. */
async function show(dist: string, made: Pick<Built, 'madeFrom' | 'onto'>, project: string) {
  const client = join(dist, 'client');
  const before = state.built;
  state.built = {
    client,
    ...made,
    files: indexStaticFiles(client),
    csps: loadPageCsps(dist),
    redirects: await builtRedirects(project),
  };
  state.failed = undefined;
  state.refused = undefined;
  if (before) await retire(resolve(before.client, '..'));
}

const REDIRECTS = 'src/content/data/redirects.yaml';

const noStore = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' };

/** `/keystatic/preview/leave`, for a signed-in editor: out of preview mode, back to the editor. */
export const leaveEntry = () =>
  new Response(null, {
    status: 303,
    headers: { ...noStore, Location: '/keystatic', 'Set-Cookie': previewCookie(false) },
  });

/** What `/keystatic/preview` shows instead of the preview, with its status (202, 500, 409). */
export interface PreviewPage extends PageAnswer {
  wait: PreviewWait;
}

const waitPage = (status: number, wait: PreviewWait): PreviewPage => ({
  type: 'page',
  status,
  headers: noStore,
  wait,
});

/**
 * `/keystatic/preview`, for a signed-in editor: the preview, once a build of the draft as it is now
 * on what is live now is ready (303 to the page, in preview mode); else why a publish would be
 * refused (409), or why the build failed (500: said once, a reload builds again), or the build
 * under way (202), started if none is.
 */
export async function previewEntry(
  url: URL,
  options: PreviewOptions,
): Promise<{ type: 'response'; response: Response } | PreviewPage> {
  const page = url.searchParams.get('page') ?? '/';
  // A path of this site only: never `//host` or `/\host`, which a browser takes for another site.
  const target = /^\/(?![/\\])[^\s\\]*$/.test(page) ? page : '/';
  // Out of date after a Save, and after a publish or a roll back: the draft goes onto what is live.
  const current =
    state.built &&
    state.built.madeFrom >= newestChange(options.draft) &&
    state.built.onto === (await publishedTip(options.config.editing));
  if (current) {
    const headers = { ...noStore, Location: target, 'Set-Cookie': previewCookie(true) };
    return { type: 'response', response: new Response(null, { status: 303, headers }) };
  }
  // Each said once: a reload asks again (the draft started again, or changed; or builds again).
  const refused = !state.building && state.refused;
  if (refused) {
    state.refused = undefined;
    return waitPage(409, { state: 'refused', reason: refused });
  }
  const failed = !state.building && state.failed;
  if (failed) {
    state.failed = undefined;
    return waitPage(500, { state: 'failed', lines: failed });
  }
  void buildPreview(options);
  return waitPage(202, building());
}

/** The build under way, as the page shows it. */
function building(): PreviewWait {
  const { step, progress, startedAt } = state.progress ?? {
    step: STEPS.preparing[0],
    progress: STEPS.preparing[1],
    startedAt: Date.now(),
  };
  return { state: 'building', step, progress, runMs: Date.now() - startedAt, lastMs: state.lastMs };
}

/**
 * The line on top of every page of the preview: plain words, marked out from the page it sits on.
 * Its style is allowed by its hash in the page's own policy, which allows no other inline style.
 */
const BANNER_STYLE =
  '.editor-preview-line{margin:0;padding:.5rem 1rem;background:#1e3a8a;color:#fff;font:500 1rem/1.5 system-ui,sans-serif;text-align:center}.editor-preview-line a{color:#fff;text-decoration:underline}';
const BANNER = `<style>${BANNER_STYLE}</style><p class="editor-preview-line" role="status">Preview of your saved changes: not published yet. <a href="${LEAVE_PREVIEW}">Leave the preview</a></p>`;
const BANNER_HASH = `'sha256-${createHash('sha256').update(BANNER_STYLE).digest('base64')}'`;
const withBannerStyle = (csp: string) =>
  /(^|;)\s*style-src\b/.test(csp)
    ? csp.replace(/((?:^|;)\s*style-src)\b/, `$1 ${BANNER_HASH}`)
    : `${csp}; style-src 'self' ${BANNER_HASH}`;

/**
 * A request in preview mode, from a signed-in editor: the preview build's file for its path, or its
 * not-found page; undefined when the build has no such file and the path is one the server answers
 * itself (an on-demand route), or when there is no build (then the live site answers).
 */
export async function previewFile(url: URL) {
  const built = state.built;
  if (!built) return undefined;
  const file = lookup(built.files, url.pathname);
  if (!file && onDemandRoutes[routePath(url.pathname) ?? '']) return undefined;
  const moved = !file && resolveRedirect(built.redirects, url.pathname, url.search);
  if (moved) return new Response(null, { status: 301, headers: { ...noStore, Location: moved } });
  const path = file?.file ?? join(built.client, '404.html');
  if (!existsSync(path)) return undefined;
  const html = path.endsWith('.html');
  const headers: Record<string, string> = {
    ...noStore,
    'Content-Type': file?.type ?? 'text/html; charset=utf-8',
  };
  const body = await readFile(path);
  if (!html) return new Response(new Uint8Array(body), { headers });
  const csp = built.csps.get(file ? pagePath(url.pathname) : '/404');
  if (csp) headers['Content-Security-Policy'] = withBannerStyle(csp);
  const page = body.toString('utf8').replace(/<body([^>]*)>/, (tag) => `${tag}${BANNER}`);
  return new Response(page, { status: file ? 200 : 404, headers });
}

/** The answer to a browser in preview mode that is not a signed-in editor's: out of it, same address. */
export const leavePreview = (url: URL) =>
  new Response(null, {
    status: 303,
    headers: {
      ...noStore,
      Location: `/${url.pathname.replace(/^[/\\]+/, '')}${url.search}`,
      'Set-Cookie': previewCookie(false),
    },
  });
