/**
 * The editor's History pages, in `astro dev` only (./editor.ts injects the route under the editor's
 * own address and policy): an entry's saved versions, newest first; what restoring one would
 * change, and Restore, which writes it back as a new save; the deleted entries, each with Restore;
 * and the links that still lead to an old address, with a button that points them at the new one.
 * Plain pages and forms, which work without the editor's script; the editor's tab links here
 * (./editor-tab.ts) and asks `links.json` for its Delete dialog.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIContext, APIRoute } from 'astro';
import { addressProblem } from '../domain/redirects.ts';
import { htmlText } from '../server/safe-text.ts';
import editorConfig from '../../keystatic.config.ts';
import { historyOf, type Version } from './content-history.ts';
import { contentFiles, filesLinkingTo, moveLinks } from './content-links.ts';
import { DELETE_PLANS, addressOf, readRedirects, writeRedirects } from './editor-history.ts';

export const prerender = false;

const root = process.cwd();
const history = historyOf(root);
const BASE = '/keystatic/history';
const EXTENSIONS = ['.mdx', '.mdoc', '.md', '.yaml', '.yml', '.json'];

type Config = {
  collections?: Record<string, { label: string; path?: string }>;
  singletons?: Record<string, { label: string; path?: string }>;
};
const { collections = {}, singletons = {} } = editorConfig as unknown as Config;

/** An entry of the editor: where the editor shows it, and its file. */
interface Entry {
  label: string;
  editorUrl: string;
  historyUrl: string;
  /** Its file without the extension ('src/content/services/iphone'). */
  stem: string;
}

function entryOfPath(path: string): Entry | undefined {
  const [kind, name = '', item, slug = ''] = path.split('/');
  if (kind === 'collection' && item === 'item' && Object.hasOwn(collections, name)) {
    const collection = collections[name]!;
    if (!/^[a-z0-9-]+$/.test(slug) || !collection.path?.endsWith('*')) return undefined;
    return {
      label: `${collection.label} → ${slug}`,
      editorUrl: `/keystatic/collection/${name}/item/${slug}`,
      historyUrl: `${BASE}/collection/${name}/item/${slug}`,
      stem: collection.path.replace('*', slug),
    };
  }
  if (kind === 'singleton' && item === undefined && Object.hasOwn(singletons, name)) {
    const singleton = singletons[name]!;
    if (!singleton.path) return undefined;
    return {
      label: singleton.label,
      editorUrl: `/keystatic/singleton/${name}`,
      historyUrl: `${BASE}/singleton/${name}`,
      stem: singleton.path,
    };
  }
  return undefined;
}

/** The editor's entry a content file is, if it is one. */
function entryOfFile(file: string): Entry | undefined {
  const stem = file.replace(/\.[^./]+$/, '');
  for (const [name, singleton] of Object.entries(singletons))
    if (singleton.path === stem) return entryOfPath(`singleton/${name}`);
  for (const [name, collection] of Object.entries(collections)) {
    const prefix = collection.path?.replace(/\*$/, '');
    if (prefix && stem.startsWith(prefix) && !stem.slice(prefix.length).includes('/'))
      return entryOfPath(`collection/${name}/item/${stem.slice(prefix.length)}`);
  }
  return undefined;
}

/** The entry's file: on disk, else the one its history knows. */
async function fileOf(entry: Entry): Promise<string | undefined> {
  for (const extension of EXTENSIONS)
    if (existsSync(join(root, entry.stem + extension))) return entry.stem + extension;
  for (const extension of EXTENSIONS)
    if ((await history.versions(entry.stem + extension, 1)).length) return entry.stem + extension;
  return undefined;
}

/**
 * A service page's older version keeps the address the page has now: the address moves only by
 * a rename in the editor, which also redirects the old one (./editor-history.ts).
 */
const keepAddress = (older: string, now: string) => {
  const slug = /^slug:.*$/m.exec(now)?.[0];
  return slug ? older.replace(/^slug:.*$/m, () => slug) : older;
};
const adjustFor = (file: string) =>
  file.startsWith('src/content/services/') ? keepAddress : undefined;

/** A time as the marketer reads it: the machine's own zone, and how long ago. */
function when(ms: number, now = Date.now()) {
  const date = new Date(ms);
  const absolute = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date);
  const minutes = Math.round((now - ms) / 60_000);
  const ago =
    minutes < 1
      ? 'just now'
      : minutes < 60
        ? `${minutes} min ago`
        : minutes < 60 * 24
          ? `${Math.round(minutes / 60)} h ago`
          : `${Math.round(minutes / 60 / 24)} days ago`;
  return `<time datetime="${date.toISOString()}">${htmlText(absolute)}</time> <span class="quiet">(${ago})</span>`;
}

const STYLE = `
  :root { color-scheme: light; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; }
  body { margin: 0; }
  header { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; padding: 1rem 1.5rem; border-bottom: 1px solid #d8dee4; }
  header a { color: inherit; }
  main { max-width: 60rem; padding: 1rem 1.5rem 3rem; }
  h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
  h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
  a { color: #2e5bd6; }
  .quiet { color: #59636e; }
  ol.versions, ul.plain { list-style: none; padding: 0; margin: 0; }
  ol.versions li, ul.plain li { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: baseline; padding: .75rem 0; border-bottom: 1px solid #eaeef2; }
  .tag { font-size: .8rem; border-radius: 1rem; padding: 0 .5rem; background: #dafbe1; color: #116329; }
  .notice { padding: .75rem 1rem; border-radius: .5rem; background: #dafbe1; color: #116329; margin: 1rem 0; }
  .problem { padding: .75rem 1rem; border-radius: .5rem; background: #ffebe9; color: #a40e26; margin: 1rem 0; }
  button { font: inherit; padding: .5rem 1rem; border-radius: .4rem; border: 1px solid #2e5bd6; background: #2e5bd6; color: #fff; cursor: pointer; }
  button.secondary { background: #fff; color: #2e5bd6; }
  .diff { font: 14px/1.45 ui-monospace, monospace; border: 1px solid #d8dee4; border-radius: .4rem; overflow-x: auto; margin: .5rem 0 1rem; }
  .diff p { margin: 0; padding: 0 .75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
  .diff .hunk { background: #f6f8fa; color: #59636e; padding: .25rem .75rem; }
  .diff del, .diff ins { display: block; text-decoration: none; }
  .diff del { background: #ffebe9; }
  .diff ins { background: #dafbe1; }
  pre.text { font: 14px/1.45 ui-monospace, monospace; white-space: pre-wrap; overflow-wrap: anywhere; border: 1px solid #d8dee4; border-radius: .4rem; padding: .75rem; max-height: 30rem; overflow: auto; }
  form { margin: .5rem 0; display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

function page(title: string, body: string, status = 200) {
  return new Response(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${htmlText(title)} · Site content</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${STYLE}</style></head><body><header><a href="/keystatic">← Back to the editor</a><a href="${BASE}">History and deleted entries</a></header><main>${body}</main></body></html>`,
    {
      status,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
    },
  );
}

const notFound = () =>
  page('Not found', '<h1>Not found</h1><p>There is no such entry or version.</p>', 404);

/** A unified diff as lines a marketer can read: what is there now, and what would come back. */
function diffHtml(diff: string) {
  const lines = diff.split('\n').filter((line, i, all) => line || i < all.length - 1);
  return `<div class="diff">${lines
    .map((line) => {
      const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(line);
      if (hunk) return `<p class="hunk">Near line ${hunk[1]}</p>`;
      if (line.startsWith('\\')) return '';
      const text = htmlText(line.slice(1)) || ' ';
      if (line.startsWith('-'))
        return `<del><p><span class="visually-hidden">Now: </span>− ${text}</p></del>`;
      if (line.startsWith('+'))
        return `<ins><p><span class="visually-hidden">Restored: </span>+ ${text}</p></ins>`;
      return `<p>  ${text}</p>`;
    })
    .join('')}</div>`;
}

async function entryPage(entry: Entry, url: URL) {
  const file = await fileOf(entry);
  if (!file) return notFound();
  const versions = await history.versions(file);
  const current = await history.currentBlob(file);
  const chosen = url.searchParams.get('version');
  const restored = Number(url.searchParams.get('restored'));
  const title = `History of ${entry.label}`;
  const notice =
    restored > 0 && restored < 8.64e15
      ? `<p class="notice" role="status">Restored. The version of ${when(Number(restored))} is now the current version, saved as a new version: the site shows it, and you can undo this the same way.</p>`
      : '';
  if (chosen) {
    const version = versions.find((v) => v.commit === chosen);
    if (!version) return notFound();
    const changes = await history.changesTo(version.commit, version.file, file, adjustFor(file));
    const body = changes
      ? `<p>Restoring writes this version back as a new save. What would change (<span style="background:#ffebe9">−</span> the text now, <span style="background:#dafbe1">+</span> the text that comes back):</p>${diffHtml(changes)}
        <form method="post"><input type="hidden" name="version" value="${htmlText(version.commit)}"><button>Restore this version</button> <a href="${entry.historyUrl}">Cancel</a></form>`
      : `<p>This version is the same as the current one: there is nothing to restore.</p><p><a href="${entry.historyUrl}">Back to the history</a></p>`;
    return page(
      title,
      `<h1>${htmlText(entry.label)}: the version of ${when(version.savedAt)}</h1>${body}`,
    );
  }
  const rows = versions.map((version, index) => {
    const isCurrent = version.blob === current;
    return `<li><span>${when(version.savedAt)}</span><span class="quiet">${htmlText(describeNote(version))}</span>${
      isCurrent
        ? `<span class="tag">${index === 0 ? 'Current version' : 'Same as the current version'}</span>`
        : `<a href="${entry.historyUrl}?version=${version.commit}">See the changes and restore<span class="visually-hidden"> the version of ${htmlText(new Date(version.savedAt).toISOString())}</span></a>`
    }</li>`;
  });
  const list = rows.length
    ? `<ol class="versions" aria-label="Saved versions, newest first">${rows.join('')}</ol>`
    : '<p>No saved versions yet: each Save from now on is kept here.</p>';
  return page(
    title,
    `<h1>${htmlText(title)}</h1>${notice}<p>Every save is kept, newest first. <a href="${entry.editorUrl}">Open the entry in the editor</a>.</p>${list}`,
  );
}

/** A version's note as staff read it: the editor's words, or "Committed: …" for a developer's. */
function describeNote(version: Pick<Version, 'note'>) {
  if (version.note === 'Saved') return 'Its file was changed outside the editor';
  if (/^(Saved in the editor|As found|Restored|Visitors of|Links to)/.test(version.note))
    return version.note;
  return `Committed: ${version.note}`;
}

async function overview(url: URL) {
  const parts: string[] = [];
  // What a post just did, from its redirect's query: only names the site knows are shown.
  const restored = entryOfFile(url.searchParams.get('restored') ?? '');
  const moved = (await readRedirects(root)).find((r) => r.from === url.searchParams.get('moved'));
  if (restored)
    parts.push(
      `<p class="notice" role="status">Brought back: ${htmlText(restored.label)}. <a href="${restored.editorUrl}">Open it in the editor</a>.</p>`,
    );
  if (moved)
    parts.push(
      `<p class="notice" role="status">The links to ${htmlText(moved.from)} now lead to ${htmlText(moved.to)}.</p>`,
    );
  parts.push(
    '<h1>History and deleted entries</h1><p>Every save in the editor is kept. To go back to an earlier version of an entry, open the entry and choose <strong>History</strong>, or pick it below.</p>',
  );

  const deleted = (
    await Promise.all(
      Object.values(collections).map(async (c) =>
        c.path ? history.deleted(c.path.replace(/\/\*$/, '')) : [],
      ),
    )
  ).flat();
  parts.push('<h2 id="deleted">Deleted entries</h2>');
  parts.push(
    deleted.length
      ? `<ul class="plain" aria-labelledby="deleted">${deleted
          .map(
            (d) =>
              `<li><strong>${htmlText(entryOfFile(d.file)?.label ?? d.file)}</strong><span class="quiet">deleted ${when(d.deletedAt)}</span><a href="${BASE}/deleted?file=${encodeURIComponent(d.file)}&amp;commit=${d.commit}">See it and bring it back<span class="visually-hidden"> (${htmlText(d.file)})</span></a></li>`,
          )
          .join('')}</ul>`
      : '<p>No deleted entries.</p>',
  );

  const redirects = await readRedirects(root);
  const stale = (
    await Promise.all(
      redirects.map(async (r) => ({ ...r, files: await filesLinkingTo(root, r.from) })),
    )
  ).filter((r) => r.files.length);
  if (stale.length) {
    parts.push(
      `<h2 id="old-links">Links to old addresses</h2><p>These links still work (visitors are sent on to the new address), but pointing them at the new address saves a step.</p>`,
    );
    for (const r of stale)
      parts.push(
        `<h3>${htmlText(r.from)} → ${htmlText(r.to)}</h3><ul>${r.files
          .map((f) => `<li>${fileLine(f.file, f.links)}</li>`)
          .join('')}</ul>${linksForm(r.from, r.to)}`,
      );
  }
  const recent = await history.recentSaves(15);
  if (recent.length) {
    parts.push(
      `<h2 id="recent">Recent saves</h2><ol class="versions" aria-labelledby="recent">${recent
        .map((v) => {
          const entry = entryOfFile(v.file);
          return `<li><span>${when(v.savedAt)}</span>${
            entry
              ? `<a href="${entry.historyUrl}">${htmlText(entry.label)}</a>`
              : `<span>${htmlText(v.file)}</span>`
          }<span class="quiet">${htmlText(describeNote(v))}</span></li>`;
        })
        .join('')}</ol>`,
    );
  }
  return page('History', parts.join(''));
}

const fileLine = (file: string, links: number) =>
  `${htmlText(entryOfFile(file)?.label ?? file)} <span class="quiet">(${htmlText(file)}, ${links} link${links === 1 ? '' : 's'})</span>`;

const linksForm = (from: string, to: string) =>
  `<form method="post" action="${BASE}/links"><input type="hidden" name="from" value="${htmlText(from)}"><input type="hidden" name="to" value="${htmlText(to)}"><button>Point these links at ${htmlText(to)}</button></form>`;

async function deletedPage(url: URL) {
  const file = url.searchParams.get('file') ?? '';
  const commit = url.searchParams.get('commit') ?? '';
  const found = (await history.deleted(file.replace(/\/[^/]+$/, '')).catch(() => [])).find(
    (d) => d.file === file && d.commit === commit,
  );
  if (!found) return notFound();
  const text = await history.textAt(`${commit}^`, file);
  if (text === undefined) return notFound();
  const label = entryOfFile(file)?.label ?? file;
  const address = file.startsWith('src/content/services/') ? addressOf(text) : undefined;
  const redirected = address
    ? (await readRedirects(root)).find((r) => r.from === address)
    : undefined;
  return page(
    `Bring back ${label}`,
    `<h1>Bring back ${htmlText(label)}</h1><p>Deleted ${when(found.deletedAt)}. This is the entry as it was before it was deleted; bringing it back writes it as a new save.</p>${
      redirected
        ? `<p>Its address ${htmlText(address!)} now sends visitors to ${htmlText(redirected.to)}: bringing it back removes that redirect, so the page is shown there again.</p>`
        : ''
    }<form method="post"><input type="hidden" name="file" value="${htmlText(file)}"><input type="hidden" name="commit" value="${htmlText(commit)}"><button>Bring it back</button> <a href="${BASE}">Cancel</a></form><h2>Its text</h2><pre class="text">${htmlText(text)}</pre>`,
  );
}

/** Posts come from the editor's own pages only: another site cannot make a browser restore or rewrite. */
function sameOrigin({ request, url }: APIContext) {
  const site = request.headers.get('sec-fetch-site');
  if (site) return site === 'same-origin';
  return request.headers.get('origin') === url.origin;
}

export const GET: APIRoute = async ({ params, url }) => {
  // A save whose files have just been written is recorded first.
  await history.flush();
  if (!(await history.ready()))
    return page(
      'History',
      '<h1>History</h1><p class="problem">The history needs git, which is not installed on this computer.</p>',
      503,
    );
  const path = params.path ?? '';
  if (path === '') return overview(url);
  if (path === 'deleted') return deletedPage(url);
  if (path === 'links.json') {
    const to = url.searchParams.get('to') ?? '';
    if (!/^\/[a-z0-9-]+$/.test(to))
      return Response.json({ error: 'no such address' }, { status: 400 });
    const files = await filesLinkingTo(root, to);
    const pages = (await contentFiles(root))
      .filter((f) => f.startsWith('src/content/services/'))
      .map(async (f) => addressOf(await readFile(join(root, f), 'utf8')));
    const addresses = (await Promise.all(pages)).filter((a): a is string => !!a && a !== to);
    return Response.json({
      links: files.map((f) => ({ ...f, label: entryOfFile(f.file)?.label ?? f.file })),
      pages: ['/', '/service', '/portfolio', '/about', '/contact', ...addresses.sort()],
    });
  }
  const entry = entryOfPath(path);
  return entry ? entryPage(entry, url) : notFound();
};

export const POST: APIRoute = async (context) => {
  if (!sameOrigin(context)) return new Response('Forbidden', { status: 403 });
  if (!(await history.ready())) return new Response('No history', { status: 503 });
  const { params, request, redirect } = context;
  const path = params.path ?? '';
  if (path === 'plan') {
    // The Delete dialog's choice: where a page about to be deleted sends its visitors.
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
  const form = await request.formData().catch(() => undefined);
  const field = (name: string) => {
    const value = form?.get(name);
    return typeof value === 'string' ? value : '';
  };
  if (path === 'links') {
    const from = field('from');
    const to = field('to').split('#')[0]!;
    const known = (await readRedirects(root)).some((r) => r.from === from);
    if (!known || addressProblem(to, 'to')) return new Response('Bad request', { status: 400 });
    await moveLinks(root, from, to);
    await history.record(`Links to ${from} now lead to ${to}`);
    return redirect(`${BASE}?moved=${encodeURIComponent(from)}`, 303);
  }
  if (path === 'deleted') {
    const file = field('file');
    const commit = field('commit');
    const found = (await history.deleted(file.replace(/\/[^/]+$/, '')).catch(() => [])).find(
      (d) => d.file === file && d.commit === commit,
    );
    if (!found) return notFound();
    await history.restore(`${commit}^`, file);
    const address = file.startsWith('src/content/services/')
      ? addressOf(await readFile(join(root, file), 'utf8'))
      : undefined;
    if (address) {
      const redirects = await readRedirects(root);
      if (redirects.some((r) => r.from === address))
        await writeRedirects(
          root,
          redirects.filter((r) => r.from !== address),
        );
    }
    await history.record(`Restored ${file}, deleted ${new Date(found.deletedAt).toISOString()}`);
    return redirect(`${BASE}?restored=${encodeURIComponent(file)}`, 303);
  }
  const entry = entryOfPath(path);
  const file = entry && (await fileOf(entry));
  if (!entry || !file) return notFound();
  const version = (await history.versions(file)).find((v) => v.commit === field('version'));
  if (!version) return notFound();
  await history.restore(version.commit, version.file, file, adjustFor(file));
  await history.record(`Restored the version of ${new Date(version.savedAt).toISOString()}`);
  return redirect(`${entry.historyUrl}?restored=${version.savedAt}`, 303);
};
