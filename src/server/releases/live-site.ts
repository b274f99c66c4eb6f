/**
 * Which build this process serves, and the switch to a new one without a restart: the live
 * release (the `current` link of ./folders.ts) when editing is on, else dist/ (and dist/ too
 * when it was built after the link last switched: a deploy of new code). The link is read
 * every half second; a new target is loaded (its handler imported, its files indexed) before it
 * takes any request, then swapped in: a request is served by the build it started on, and none
 * waits or fails for the switch. Each build loaded stays in memory until the process restarts
 * (Node cannot unload a module): a few MB a publish.
 */
import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerConfig } from '../config.ts';
import { prepareSite, type NodeHandler, type PreparedSite } from '../http/server.ts';
import { currentFolder, hasRelease, releaseDir, releasePaths } from './folders.ts';
import { markLiveBuild } from '../live-content.ts';

/** A build's handler and files, ready to serve. */
export async function loadSite(distDir: string): Promise<PreparedSite> {
  const { handler } = (await import(pathToFileURL(join(distDir, 'server/entry.mjs')).href)) as {
    handler: NodeHandler;
  };
  return prepareSite(handler, distDir);
}

const builtAt = (dir: string) => {
  try {
    return statSync(join(dir, 'server/entry.mjs')).mtimeMs;
  } catch {
    return 0;
  }
};

const switchedAt = (link: string) => {
  try {
    return lstatSync(link).mtimeMs;
  } catch {
    return 0;
  }
};

export interface LiveSite {
  current: () => PreparedSite;
  /** Looks at the link now (the timer does every `intervalMs`); resolves once switched, if it is. */
  check: () => Promise<void>;
  /** Stops following the link. */
  stop: () => void;
}

/**
 * The build to serve from now on, followed while the process runs. At start, the live release,
 * unless dist/ was built after it (a deploy of new code, `npm run build`): dist/ is served then,
 * until the next publish or roll back switches the link.
 */
export async function liveSite(
  config: Pick<ServerConfig, 'distDir' | 'editing'>,
  log: { info: (line: string) => void; error: (line: string) => void },
  intervalMs = 500,
): Promise<LiveSite> {
  const distDir = config.distDir;
  const paths = releasePaths(config.editing);
  let folder = config.editing.enabled ? await currentFolder(paths) : undefined;
  const release =
    folder !== undefined && hasRelease(paths, folder) ? releaseDir(paths, folder) : undefined;
  // The link's own time is when its release went live: a build of dist/ after it is a deploy.
  const start = release && switchedAt(paths.current) >= builtAt(distDir) ? release : distDir;
  if (release && start === distDir)
    log.info(
      `Serving the build in ${distDir}, made after the live release ${folder}: the next publish builds on its code.`,
    );
  let site = await loadSite(start);
  markLiveBuild(start);
  if (start === release) log.info(`Serving release ${folder}.`);
  if (!config.editing.enabled)
    return { current: () => site, check: async () => {}, stop: () => {} };
  let loading: Promise<void> | undefined;
  // A release that would not load is said once (the link is looked at twice a second), and tried
  // again quietly until it loads or another goes live; the build served meanwhile stays.
  let failed: number | undefined;
  // One look at the link at a time; a test calls it itself rather than wait for the timer.
  const check = () =>
    (loading ??= (async () => {
      const now = await currentFolder(paths);
      if (now === undefined || now === folder || !hasRelease(paths, now)) return;
      try {
        site = await loadSite(releaseDir(paths, now));
      } catch (error) {
        if (failed !== now)
          log.error(
            `Could not switch to the live release ${now} (still serving the one before): ${String(error)}`,
          );
        failed = now;
        return;
      }
      markLiveBuild(releaseDir(paths, now));
      folder = now;
      failed = undefined;
      log.info(`Serving release ${now}.`);
    })()
      .catch((error: unknown) => log.error(`Could not look for the live release: ${String(error)}`))
      .finally(() => (loading = undefined)));
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return { current: () => site, check, stop: () => clearInterval(timer) };
}
