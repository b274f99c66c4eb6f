/**
 * The editor's History pages, in `astro dev` only (../editor.ts injects the route under the
 * editor's own address and policy): an entry's saved versions, newest first; what restoring one
 * would change, and Restore, which writes it back as a new save; the deleted entries, each with
 * Restore; and the links that still lead to an old address, with a button that points them at the
 * new one. Plain pages and forms (./pages/), which work without the editor's script; the editor's
 * tab links here (../../browser/tab-history.ts) and asks `links.json` for its Delete dialog.
 *
 * This endpoint reads and decides; the pages are Astro components it renders with Astro's
 * container, so that each address keeps exactly the methods it takes (an .astro page answers any
 * method) and none of the scripts Astro adds to a page comes with them.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import type { ComponentProps } from 'astro/types';
import { addressProblem } from '../../../domain/redirects.ts';
import { HISTORY_BASE } from '../../routes.ts';
import { apart } from '../../time-words.ts';
import { historyOf, type Saver } from './content-history.ts';
import { contentFiles, filesLinkingTo, moveLinks } from './content-links.ts';
import {
  adjustFor,
  collections,
  entryOfFile,
  entryOfPath,
  fileOf,
  labelOf,
  type Entry,
} from './entries.ts';
import DeletedEntry from './pages/DeletedEntry.astro';
import EntryHistory from './pages/EntryHistory.astro';
import EntryVersion from './pages/EntryVersion.astro';
import NoGit from './pages/NoGit.astro';
import NotFound from './pages/NotFound.astro';
import Overview from './pages/Overview.astro';
import { DELETE_PLANS, addressOf, readRedirects, savedBy, writeRedirects } from './recorder.ts';
import {
  clockOf,
  describeRecent,
  describeVersions,
  restoreChanges,
  TIME_ZONE_COOKIE,
  versionWords,
  type Clock,
} from './version-words.ts';
import RestoreCheck from './pages/RestoreCheck.astro';
import { linksTo, restoreConsequences } from '../site-checks.ts';

export const prerender = false;

const root = process.cwd();
const history = historyOf(root);

let container: Promise<AstroContainer> | undefined;

/** A History page as the answer: one of ./pages/, never kept by the browser. */
async function page<Page extends (props: any) => unknown>(
  component: Page,
  props: ComponentProps<Page>,
  status = 200,
) {
  container ??= AstroContainer.create();
  const renderer = await container;
  // A whole page (its doctype included), not a part of one.
  const html = await renderer.renderToString(component as never, { props, partial: false });
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

const notFound = () => page(NotFound, {}, 404);

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
  return page(EntryHistory, {
    entry,
    clock,
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

/** The deleted entries of the editor's collections, newest deletion first within each. */
async function deletedEntries() {
  const folders = Object.values(collections).map((c) => c.path?.replace(/\/\*$/, ''));
  const deleted = await Promise.all(folders.map((f) => (f ? history.deleted(f) : [])));
  return deleted.flat().map((d) => ({ ...d, label: labelOf(d.file) }));
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
    moved: moved && { from: moved.from, to: moved.to },
    deleted: await deletedEntries(),
    stale: await staleLinks(),
    recent,
  });
}

/** A deleted entry by its file and the commit that deleted it, if it is one. */
async function findDeleted(file: string, commit: string) {
  const deleted = await history.deleted(file.replace(/\/[^/]+$/, '')).catch(() => []);
  return deleted.find((d) => d.file === file && d.commit === commit);
}

async function deletedPage(url: URL, clock: Clock) {
  const file = url.searchParams.get('file') ?? '';
  const commit = url.searchParams.get('commit') ?? '';
  const found = await findDeleted(file, commit);
  if (!found) return notFound();
  const text = await history.textAt(`${commit}^`, file);
  if (text === undefined) return notFound();
  const address = file.startsWith('src/content/services/') ? addressOf(text) : undefined;
  const redirect = address
    ? (await readRedirects(root)).find((r) => r.from === address)
    : undefined;
  return page(DeletedEntry, {
    clock,
    file,
    commit,
    label: labelOf(file),
    deletedAt: found.deletedAt,
    text,
    redirect: redirect && { from: redirect.from, to: redirect.to },
  });
}

/** What the Delete dialog lists: the entries that link to an address, and the pages to send it to. */
async function linksJson(url: URL) {
  const to = url.searchParams.get('to') ?? '';
  if (!/^\/[a-z0-9-]+$/.test(to))
    return Response.json({ error: 'no such address' }, { status: 400 });
  const files = await filesLinkingTo(root, to);
  const pages = (await contentFiles(root))
    .filter((f) => f.startsWith('src/content/services/'))
    .map(async (f) => addressOf(await readFile(join(root, f), 'utf8')));
  const addresses = (await Promise.all(pages)).filter((a): a is string => !!a && a !== to);
  // Each link where it is on the site, and each page by its name: not files and bare addresses.
  const { found, names } = await linksTo(root, to);
  const listed = ['/', '/service', '/portfolio', '/about', '/contact', ...addresses.sort()];
  return Response.json({
    links: files.map((f) => ({ ...f, label: labelOf(f.file), places: found.get(f.file) ?? [] })),
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
  // A save whose files have just been written is recorded first.
  await history.flush();
  if (!(await history.ready())) return page(NoGit, {}, 503);
  // Times in the zone of the marketer's tab, which the editor's tab tells in a cookie.
  const clock = clockOf(cookies.get(TIME_ZONE_COOKIE)?.value);
  const path = params.path ?? '';
  if (path === '') return overview(url, clock);
  if (path === 'deleted') return deletedPage(url, clock);
  if (path === 'links.json') return linksJson(url);
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

/** Points the links to an old address of redirects.yaml at another address of the site. */
async function pointLinks(from: string, to: string, seeOther: SeeOther, by?: Saver) {
  const known = (await readRedirects(root)).some((r) => r.from === from);
  if (!known || addressProblem(to, 'to')) return new Response('Bad request', { status: 400 });
  await moveLinks(root, from, to);
  await history.record(`Links to ${from} now lead to ${to}`, by);
  return seeOther(`${HISTORY_BASE}?moved=${encodeURIComponent(from)}`, 303);
}

/** Brings a deleted entry back, and with it its address (a redirect that took it over goes). */
async function bringBack(file: string, commit: string, seeOther: SeeOther, by?: Saver) {
  const found = await findDeleted(file, commit);
  if (!found) return notFound();
  await history.restore(`${commit}^`, file);
  const address = file.startsWith('src/content/services/')
    ? addressOf(await readFile(join(root, file), 'utf8'))
    : undefined;
  const redirects = await readRedirects(root);
  if (address && redirects.some((r) => r.from === address))
    await writeRedirects(
      root,
      redirects.filter((r) => r.from !== address),
    );
  await history.record(`Restored ${file}, deleted ${new Date(found.deletedAt).toISOString()}`, by);
  return seeOther(`${HISTORY_BASE}?restored=${encodeURIComponent(file)}`, 303);
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
  await history.record(`Restored the version of ${new Date(version.savedAt).toISOString()}`, by);
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
  if (path === 'deleted') return bringBack(field('file'), field('commit'), redirect, by);
  return restoreVersion(path, field('version'), field('confirmed') === 'yes', {
    seeOther: redirect,
    clock,
    by,
  });
};
