/**
 * The visual editor's images, in `astro dev` only (./editor.ts injects it at `imageUploadPath`,
 * /api/editor/images), for one src/assets folder at a time (`?folder=icons`):
 * - GET lists the folder's images and whether any content or code uses each;
 * - POST adds one file, named as content will name it (`&file=<the file's own name>`, the bytes as
 *   an application/octet-stream body). The editor's field checks the file first
 *   (src/editor/fields/image/); this checks it again, since anything on this machine can post here,
 *   and keeps an SVG as DOMPurify rewrote it (src/domain/svg-clean.ts), answering what it took out
 *   (`removed`, in words the field shows). The file is kept pending (./pending.ts) until a
 *   Save names it, which moves it into its src/assets folder; its `url` shows it meanwhile. It never
 *   replaces a file: the same file sent again is a no-op (a retry after a lost answer);
 * - GET with `&preview=<name>` shows a pending upload (or, once saved, sends to its file);
 * - GET `?pending`, without a folder, lists every pending upload, `{ uploads: [{ folder, name,
 *   url }] }`: an editor opened again offers those its drafts name;
 * - POST `?held`, a JSON body `{ browser, uploads: [{ folder, name }] }`: the pending uploads that
 *   browser's drafts name now, which stay while they do (./pending.ts); an upload is held for the
 *   browser that sent it (`&browser=<id>`) from the start;
 * - DELETE removes an image nothing uses (`&name=<name>`), or a pending upload.
 * Keystatic would store a service page's upload in a folder of its own (src/assets/icons/<page>/),
 * where the site's images are not; this writes where they are.
 * Answers JSON: { images }, { name, file, url, removed } with 201 (200 for the same file again), 204,
 * or { error }.
 */
import { readFile, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIRoute } from 'astro';
import {
  imageExtensions,
  imageFolders,
  imageKinds,
  imageName,
  imageNameFrom,
  imageProblem,
  maxImageBytes,
  pictureAddress,
  picturePreviewAddress,
  tooLarge,
  type AssetFolder,
  type FolderImage,
} from '../../domain/images.ts';
import { cleanSvg, type Purifier, type SvgWindow } from '../../domain/svg-clean.ts';
import { readLimited } from '../../shared/read-limited.ts';
import { assetHeaders } from './asset-headers.ts';
import { contentPath, siteRoot } from './roots.ts';
import {
  BROWSER_ID,
  allPending,
  dropPending,
  holdFor,
  keepPending,
  pendingIn,
  readPending,
  sweep,
  type Upload,
} from './pending.ts';

export const prerender = false;

// Uploads left unsaved since an earlier run of the dev server go (see ./pending.ts).
void sweep();

/** The content's folder: the project's src/ in `npm run edit`, the draft's in the helper (./roots.ts). */
const src = pathToFileURL(contentPath('src/'));
const assets = new URL('assets/', src);
/** The site's code, which may name a picture too: the project's src/. */
const siteCode = () => pathToFileURL(join(siteRoot(), 'src/'));

const answer = (status: number, body?: Record<string, unknown>) =>
  new Response(body && JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

/**
 * DOMPurify over a jsdom window, made for the first SVG uploaded: only this dev-only route loads
 * jsdom, and only when it needs it, so `astro build` and `npm start` never do.
 */
let cleaner: Promise<{ purify: Purifier; window: SvgWindow }> | undefined;
function svgCleaner() {
  cleaner ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([
      import('jsdom'),
      import('dompurify'),
    ]);
    const { window } = new JSDOM('');
    return { purify: createDOMPurify(window), window };
  })().catch((error: unknown) => {
    cleaner = undefined;
    throw error;
  });
  return cleaner;
}

/** The folder's image files by the name content gives them (without the extension). */
async function filesIn(folder: AssetFolder): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of (await readdir(new URL(`${folder}/`, assets))).sort()) {
    const extension = /\.[^.]*$/.exec(file)?.[0].toLowerCase() ?? '';
    if (imageExtensions[folder].includes(extension))
      files.set(file.slice(0, -extension.length), file);
  }
  return files;
}

const textFiles = async (folder: URL, pattern: RegExp) =>
  Promise.all(
    (await readdir(folder, { recursive: true }))
      .filter((path) => pattern.test(path))
      .map((path) => readFile(new URL(path, folder), 'utf8')),
  );

/**
 * The names of a folder that something uses: any value of the content (a YAML value or list item,
 * front matter included) that equals the name, and any file of the code that names the file
 * (`assets/icons/cloud.svg`). Erring towards "used": a word that happens to equal an image's name
 * keeps the image, never the other way round.
 */
async function usedNames(folder: AssetFolder): Promise<Set<string>> {
  const used = new Set<string>();
  for (const text of await textFiles(new URL('content/', src), /\.(?:ya?ml|mdx?|json)$/i))
    for (const match of text.matchAll(/(?:^|[:-])[ \t]*["']?([a-z0-9-]+)["']?[ \t]*$/gm))
      used.add(match[1]!);
  const inCode = new RegExp(`assets/${folder}/([a-z0-9-]+)\\.`, 'g');
  const code = await textFiles(
    siteCode(),
    /^(?!content\/|assets\/).*\.(?:astro|[cm]?[jt]sx?|css)$/,
  );
  for (const text of code) for (const match of text.matchAll(inCode)) used.add(match[1]!);
  return used;
}

/** The editor's own page, and nothing else: a page elsewhere cannot make this browser write here. */
const foreign = (request: Request, url: URL) =>
  request.headers.get('origin') !== url.origin ||
  request.headers.get('sec-fetch-site') === 'cross-site';

const folderOf = (url: URL) => {
  const folder = url.searchParams.get('folder') as AssetFolder;
  return imageFolders.includes(folder) ? folder : undefined;
};
const badFolder = () =>
  answer(400, { error: `The folder must be one of ${imageFolders.join(', ')}.` });

const mediaTypes: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
};

/** A pending upload, as the dev server sends a file of src/assets; once saved, that file. */
async function preview(folder: AssetFolder, name: string) {
  if (!imageName.regex.test(name)) return answer(404, { error: 'No such upload.' });
  const file = (await pendingIn(folder)).get(name);
  const bytes = file && (await readPending(folder, file));
  if (file && bytes)
    return new Response(new Uint8Array(bytes), {
      headers: {
        'content-type': mediaTypes[/\.[^.]*$/.exec(file)![0]]!,
        'cache-control': 'no-store',
        ...assetHeaders,
      },
    });
  const saved = (await filesIn(folder)).get(name);
  // The dev server serves src/assets itself; the live site's helper has no such address, and
  // sends the draft's file from here, under the same policy.
  if (saved && import.meta.env.DEV)
    return new Response(null, {
      status: 302,
      headers: { location: pictureAddress(folder, saved, true), 'cache-control': 'no-store' },
    });
  if (saved)
    return new Response(new Uint8Array(await readFile(new URL(`${folder}/${saved}`, assets))), {
      headers: {
        'content-type': mediaTypes[/\.[^.]*$/.exec(saved)![0]]!,
        'cache-control': 'no-store',
        ...assetHeaders,
      },
    });
  return answer(404, { error: `There is no ${imageKinds[folder].one} named "${name}".` });
}

export const GET: APIRoute = async ({ url }) => {
  if (url.searchParams.has('pending') && !url.searchParams.has('folder'))
    return answer(200, {
      uploads: (await allPending()).map(({ folder, name }) => ({
        folder,
        name,
        url: picturePreviewAddress(folder, name),
      })),
    });
  const folder = folderOf(url);
  if (!folder) return badFolder();
  const shown = url.searchParams.get('preview');
  if (shown !== null) return preview(folder, shown);
  const [files, used] = await Promise.all([filesIn(folder), usedNames(folder)]);
  const images: FolderImage[] = [...files].map(([name, file]) => ({
    name,
    url: pictureAddress(folder, file, import.meta.env.DEV),
    used: used.has(name),
  }));
  return answer(200, { images });
};

/** The most a browser says its drafts hold: far more names than any editor's drafts would. */
const HELD_BYTES = 64 * 1024;

/** What a browser's drafts name now, of the pending uploads: those stay, the others may go. */
async function held(request: Request) {
  if (request.headers.get('content-type') !== 'application/json')
    return answer(415, { error: 'Send the uploads as application/json.' });
  const body = await readLimited(request, HELD_BYTES);
  if (!body) return answer(413, { error: 'Too many uploads named.' });
  let said: { browser?: unknown; uploads?: unknown };
  try {
    said = JSON.parse(new TextDecoder().decode(body)) as typeof said;
  } catch {
    return answer(400, { error: 'Send { browser, uploads }.' });
  }
  if (
    typeof said.browser !== 'string' ||
    !BROWSER_ID.test(said.browser) ||
    !Array.isArray(said.uploads)
  )
    return answer(400, { error: 'Send { browser, uploads }.' });
  const pending = await allPending();
  const named: Upload[] = pending.filter(({ folder, name }) =>
    (said.uploads as unknown[]).some(
      (upload) =>
        !!upload &&
        typeof upload === 'object' &&
        (upload as Record<string, unknown>).folder === folder &&
        (upload as Record<string, unknown>).name === name,
    ),
  );
  await holdFor(said.browser, named);
  return answer(204);
}

export const POST: APIRoute = async ({ request, url }) => {
  if (foreign(request, url))
    return answer(403, { error: 'Uploads come from the editor on this server only.' });
  if (url.searchParams.has('held')) return held(request);
  if (request.headers.get('content-type') !== 'application/octet-stream')
    return answer(415, { error: 'Send the file as application/octet-stream.' });
  const folder = folderOf(url);
  if (!folder) return badFolder();
  const fileName = url.searchParams.get('file') ?? '';
  if (fileName.length === 0 || fileName.length > 200 || /[\0-\x1f\x7f]/.test(fileName))
    return answer(400, { error: 'The file needs a name of at most 200 printable characters.' });
  const bytes = await readLimited(request, maxImageBytes[folder]);
  if (!bytes) return answer(413, { error: tooLarge(folder, fileName) });
  await sweep();
  const name = imageNameFrom(fileName);
  const [saved, pending] = await Promise.all([filesIn(folder), pendingIn(folder)]);
  const files = new Map([...pending, ...saved]);
  const extension = imageExtensions[folder].find((ext) => fileName.toLowerCase().endsWith(ext));
  const file = `${name}${extension ?? ''}`;
  // The same picture again (a second try, a Save that came before the answer) is checked and cleaned
  // as the first was, then compared with what the first wrote.
  const again = extension !== undefined && files.get(name) === file;
  const others = [...files.keys()].filter((held) => !again || held !== name);
  const problem = imageProblem(folder, fileName, bytes, others);
  if (problem) return answer(422, { error: problem });
  let written: Uint8Array = bytes;
  let removed: string[] = [];
  if (extension === '.svg') {
    const { purify, window } = await svgCleaner();
    const cleaned = cleanSvg(fileName, new TextDecoder().decode(bytes), purify, window);
    if ('problem' in cleaned) return answer(422, { error: cleaned.problem });
    written = new TextEncoder().encode(cleaned.svg);
    removed = cleaned.removed;
  }
  if (again) {
    const held =
      saved.get(name) === file
        ? await readFile(new URL(`${folder}/${file}`, assets))
        : await readPending(folder, file);
    if (held?.equals(written)) return answer(200, uploaded(folder, name, file, removed));
    return answer(422, { error: imageProblem(folder, fileName, bytes, [...files.keys()]) });
  }
  try {
    // Pending until a Save names it; 'wx': never over an upload that appeared since the check.
    const browser = url.searchParams.get('browser') ?? '';
    await keepPending(folder, file, written, BROWSER_ID.test(browser) ? browser : undefined);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return answer(409, {
        error: `There is already another ${imageKinds[folder].one} named "${name}": rename your file.`,
      });
    throw error;
  }
  return answer(201, uploaded(folder, name, file, removed));
};

/**
 * An upload's answer: `file`, where a Save puts it; `url`, where it shows meanwhile; `removed`, what
 * cleaning took out of an SVG, in words, each once.
 */
const uploaded = (folder: AssetFolder, name: string, file: string, removed: string[]) => ({
  name,
  file: `src/assets/${folder}/${file}`,
  url: picturePreviewAddress(folder, name),
  removed,
});

export const DELETE: APIRoute = async ({ request, url }) => {
  if (foreign(request, url))
    return answer(403, { error: 'Images are removed from the editor on this server only.' });
  const folder = folderOf(url);
  if (!folder) return badFolder();
  const name = url.searchParams.get('name') ?? '';
  const file = imageName.regex.test(name) ? (await filesIn(folder)).get(name) : undefined;
  const upload = imageName.regex.test(name) ? (await pendingIn(folder)).get(name) : undefined;
  if (!file && upload) {
    await dropPending(folder, upload);
    return answer(204);
  }
  if (!file)
    return answer(404, { error: `There is no ${imageKinds[folder].one} named "${name}".` });
  if ((await usedNames(folder)).has(name))
    return answer(409, {
      error: `"${name}" is shown on the site: choose another ${imageKinds[folder].one} where it is used first.`,
    });
  await unlink(new URL(`${folder}/${file}`, assets));
  return answer(204);
};

export const ALL: APIRoute = () =>
  new Response(null, { status: 405, headers: { allow: 'GET, POST, DELETE' } });
