/**
 * The editor's History pages, in `astro dev` only (../editor.ts injects the route under the
 * editor's own address and policy): an entry's saved versions, newest first; what restoring one
 * would change, and Restore, which writes it back as a new save; the deleted entries, each with
 * Restore; and the links that still lead to an old address, with a button that points them at the
 * new one. Plain pages and forms (./pages/), which work without the editor's script; the editor's
 * tab links here (../../browser/tab-history.ts) and asks `links.json` for its Delete dialog. The
 * deleted entries' pages and posts are ./deleted-pages.ts's.
 *
 * This endpoint reads and decides; the pages are Astro components it renders with Astro's
 * container, so that each address keeps exactly the methods it takes (an .astro page answers any
 * method) and none of the scripts Astro adds to a page comes with them.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { addressProblem, type Redirect } from '../../../domain/redirects.ts';
import { HISTORY_BASE } from '../../routes.ts';
import { apart } from '../../time-words.ts';
import { linksTo, restoreConsequences } from '../site-checks.ts';
import { LINKS_MOVED } from './bring-back.ts';
import { historyOf, type Saver } from './content-history.ts';
import { contentFiles, contentText, filesLinkingTo, moveLinks } from '../content-links.ts';
import {
  bringBackPost,
  broughtNotice,
  deletedEntries,
  deletedPage,
  linkedBackNotice,
  linksBackPost,
} from './deleted-pages.ts';
import { adjustFor, entryOfFile, entryOfPath, fileOf, labelOf, type Entry } from './entries.ts';
import { valuesOf } from './lineages.ts';
import EntryHistory from './pages/EntryHistory.astro';
import EntryVersion from './pages/EntryVersion.astro';
import NoGit from './pages/NoGit.astro';
import Overview from './pages/Overview.astro';
import RestoreCheck from './pages/RestoreCheck.astro';
import { DELETE_PLANS, REPLACED, addressOf, readRedirects, savedBy } from './recorder.ts';
import { notFound, page } from './render.ts';
import {
  clockOf,
  describeRecent,
  describeVersions,
  restoreChanges,
  TIME_ZONE_COOKIE,
  versionWords,
  type Clock,
} from './version-words.ts';

export const prerender = false;

const root = process.cwd();
const history = historyOf(root);

async function entryPage(entry: Entry, url: URL, clock: Clock) {
  const file = await fileOf(entry, history);
  if (!file) return notFound();
  const versions = await history.versions(file);
  const chosen = url.searchParams.get('version');
  if (chosen) {
    const index = versions.findIndex((v) => v.commit === chosen);
    const version = versions[index];
    if (!version) return notFound();
    const { action, detail } = await versionWords(history, version);
    return page(EntryVersion, {
      entry,
      clock,
      commit: version.commit,
      savedAt: version.savedAt,
      action,
      ...(detail && { detail }),
      // Its time told apart from the versions listed beside it, as the list tells it.
      apart: apart(
        versions.map((v) => v.savedAt),
        clock.timeZone,
      )[index]!,
      changes: await restoreChanges(history, version, file, adjustFor(file)),
    });
  }
  const shown = await describeVersions(history, versions, clock);
  const current = await history.currentBlob(file);
  const restored = Number(url.searchParams.get('restored'));
  // An entry deleted from this file before the one there now took it: its History is its own.
  const before = existsSync(join(root, file))
    ? (await deletedEntries(history, posix.dirname(file))).find((d) => d.file === file)
    : undefined;
  return page(EntryHistory, {
    entry,
    clock,
    before,
    restored: restored > 0 && restored < 8.64e15 ? restored : undefined,
    versions: versions.map((version, index) => ({
      ...shown[index]!,
      current:
        version.blob !== current
          ? undefined
          : index === 0
            ? 'Current version'
            : 'Same as the current version',
    })),
  });
}

/** The redirects whose old address the content still links to, with the files that do. */
async function staleLinks() {
  const redirects = await readRedirects(root);
  const linked = await Promise.all(
    redirects.map(async ({ from, to }) => ({
      from,
      to,
      files: (await filesLinkingTo(root, from)).map((f) => ({ ...f, label: labelOf(f.file) })),
    })),
  );
  return linked.filter((r) => r.files.length);
}

async function overview(url: URL, clock: Clock) {
  // What a post just did, from its redirect's query: only names the site knows are shown.
  const restored = entryOfFile(url.searchParams.get('restored') ?? '');
  const moved = (await readRedirects(root)).find((r) => r.from === url.searchParams.get('moved'));
  const recent = (await describeRecent(history, await history.recentSaves(15), clock)).map(
    (save) => ({ ...save, ...(save.file && { entry: entryOfFile(save.file) }) }),
  );
  return page(Overview, {
    clock,
    restored,
    brought: await broughtNotice(history, url.searchParams.get('brought') ?? ''),
    linkedBack: await linkedBackNotice(history, url.searchParams.get('linked-back') ?? ''),
    moved: moved && { from: moved.from, to: moved.to },
    deleted: await deletedEntries(history),
    stale: await staleLinks(),
    recent,
  });
}

/**
 * What the Delete dialog and the Page address field ask of an address: the entries that link to
 * it, the redirect from it if there is one, and the pages to send it to.
 */
async function linksJson(url: URL) {
  const to = url.searchParams.get('to') ?? '';
  if (!/^\/[a-z0-9-]+$/.test(to))
    return Response.json({ error: 'no such address' }, { status: 400 });
  const files = await filesLinkingTo(root, to);
  const redirect = (await readRedirects(root)).find((r) => r.from === to);
  const pages = (await contentFiles(root))
    .filter((f) => f.startsWith('src/content/services/'))
    .map(async (f) => {
      const text = await contentText(root, f);
      return text === undefined ? undefined : addressOf(text);
    });
  const addresses = (await Promise.all(pages)).filter((a): a is string => !!a && a !== to);
  // Each link where it is on the site, and each page by its name: not files and bare addresses.
  const { found, names } = await linksTo(root, to);
  const listed = ['/', '/service', '/portfolio', '/about', '/contact', ...addresses.sort()];
  return Response.json({
    links: files.map((f) => ({ ...f, label: labelOf(f.file), places: found.get(f.file) ?? [] })),
    redirect: redirect && { from: redirect.from, to: redirect.to },
    pages: listed,
    names: Object.fromEntries(
      [to, ...listed].flatMap((page) => (names.get(page) ? [[page, names.get(page)]] : [])),
    ),
  });
}

/** Posts come from the editor's own pages only: another site cannot make a browser restore or rewrite. */
function sameOrigin({ request, url }: APIContext) {
  const site = request.headers.get('sec-fetch-site');
  if (site) return site === 'same-origin';
  return request.headers.get('origin') === url.origin;
}

export const GET: APIRoute = async ({ params, url, cookies }) => {
  const path = params.path ?? '';
  // The files as they are now: nothing of the history (asked as an address is typed, during Saves).
  if (path === 'links.json') return linksJson(url);
  // A save whose files have just been written is recorded first.
  await history.flush();
  if (!(await history.ready())) return page(NoGit, {}, 503);
  // Times in the zone of the marketer's tab, which the editor's tab tells in a cookie.
  const clock = clockOf(cookies.get(TIME_ZONE_COOKIE)?.value);
  const query = (name: string) => url.searchParams.get(name) ?? '';
  if (path === '') return overview(url, clock);
  if (path === 'deleted') return deletedPage(history, query('file'), query('commit'), clock);
  const entry = entryOfPath(path);
  return entry ? entryPage(entry, url, clock) : notFound();
};

/** The Delete dialog's choice: where a page about to be deleted sends its visitors. */
async function plan(request: Request) {
  const { file, to } = (await request.json().catch(() => ({}))) as Record<string, unknown>;
  if (typeof file !== 'string' || !/^src\/content\/services\/[a-z0-9-]+\.mdx?$/.test(file))
    return new Response('Bad plan', { status: 400 });
  const plans = await history.readState<Record<string, string>>(DELETE_PLANS, {});
  // The site's own rule for a redirect's new address: a path of this site, never `//host`.
  if (typeof to === 'string' && !addressProblem(to, 'to')) plans[file] = to;
  else delete plans[file];
  await history.writeState(DELETE_PLANS, plans);
  return new Response(null, { status: 204 });
}

/** How a post answers once done: 303 to a page that says what it did. */
type SeeOther = APIContext['redirect'];

/**
 * Whether links to `from` may be pointed at `to`: `from` is an old address of redirects.yaml, or
 * one a recent move took back from a redirect to `to` (its links led there until then).
 */
async function mayPoint(from: string, to: string, redirects: readonly Redirect[]) {
  if (addressProblem(to, 'to')) return false;
  if (redirects.some((r) => r.from === from)) return true;
  return (await history.latestSaves(20)).some((save) =>
    valuesOf(save.trailers, REPLACED).some(([was, sent]) => was === from && sent === to),
  );
}

/** Points the links to an old address at another address of the site. */
async function pointLinks(from: string, to: string, seeOther: SeeOther, by?: Saver) {
  if (!(await mayPoint(from, to, await readRedirects(root))))
    return new Response('Bad request', { status: 400 });
  await history.record(`Links to ${from} now lead to ${to}`, {
    trailers: [{ key: LINKS_MOVED, value: `${from} ${to}` }],
    by,
    write: async () => void (await moveLinks(root, from, to)),
  });
  return seeOther(`${HISTORY_BASE}?moved=${encodeURIComponent(from)}`, 303);
}

/**
 * Writes a saved version of an entry back, as a new save. One that would break a page, or leave an
 * old address unanswered, says which first, and is written once `confirmed`.
 */
async function restoreVersion(
  path: string,
  commit: string,
  confirmed: boolean,
  { seeOther, clock, by }: { seeOther: SeeOther; clock: Clock; by?: Saver },
) {
  const entry = entryOfPath(path);
  const file = entry && (await fileOf(entry, history));
  if (!entry || !file) return notFound();
  const version = (await history.versions(file)).find((v) => v.commit === commit);
  if (!version) return notFound();
  if (!confirmed) {
    const older = (await history.textAt(version.commit, version.file)) ?? '';
    const now = existsSync(join(root, file)) ? await readFile(join(root, file), 'utf8') : '';
    const text = adjustFor(file)?.(older, now) ?? older;
    const consequences = await restoreConsequences(root, file, text);
    if (consequences.broken.length || consequences.unanswered.length)
      return page(RestoreCheck, {
        entry,
        clock,
        commit: version.commit,
        savedAt: version.savedAt,
        ...consequences,
      });
  }
  await history.restore(version.commit, version.file, file, adjustFor(file));
  await history.record(`Restored the version of ${new Date(version.savedAt).toISOString()}`, {
    by,
  });
  return seeOther(`${entry.historyUrl}?restored=${version.savedAt}`, 303);
}

// Each post writes content: not between a Save's check and its write (../save-check.ts).
export const POST: APIRoute = (context) => history.exclusive(async () => post(context));

const post: APIRoute = async (context) => {
  if (!sameOrigin(context)) return new Response('Forbidden', { status: 403 });
  if (!(await history.ready())) return new Response('No history', { status: 503 });
  const { params, request, redirect, cookies } = context;
  const path = params.path ?? '';
  if (path === 'plan') return plan(request);
  const clock = clockOf(cookies.get(TIME_ZONE_COOKIE)?.value);
  const form = await request.formData().catch(() => undefined);
  const field = (name: string) => {
    const value = form?.get(name);
    return typeof value === 'string' ? value : '';
  };
  // Who posts, once editors sign in: the history records them as the save's author.
  const by = savedBy(request.headers);
  if (path === 'links') return pointLinks(field('from'), field('to').split('#')[0]!, redirect, by);
  if (path === 'deleted') {
    const asked = { file: field('file'), commit: field('commit'), name: field('name') };
    return bringBackPost(history, asked, { seeOther: redirect, clock, headers: request.headers });
  }
  if (path === 'links-back')
    return linksBackPost(history, field('save'), redirect, request.headers);
  return restoreVersion(path, field('version'), field('confirmed') === 'yes', {
    seeOther: redirect,
    clock,
    by,
  });
};
