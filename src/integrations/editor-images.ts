/**
 * The visual editor's image upload, in `astro dev` only (./editor.ts injects it at
 * `imageUploadPath`, /api/editor/images): it adds one file to a src/assets folder, named as content will name it.
 * Keystatic would store a service page's upload in a folder of its own (src/assets/icons/<page>/),
 * where the site's images are not; this writes where they are. The editor's field checks the file
 * first (src/editor/image-field.tsx); this checks it again, since anything on this machine can post
 * here, and never replaces a file.
 *
 * POST, same origin, the file's bytes as the body, `?folder=icons&file=<the file's own name>`.
 * Answers { name, file } with 201, or { error } with 4xx.
 */
import { readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { APIRoute } from 'astro';
import {
  imageExtensions,
  imageFolders,
  imageNameFrom,
  imageProblem,
  maxImageBytes,
  type AssetFolder,
} from '../domain/images';
import { readLimited } from '../server/requests/body';

export const prerender = false;

const assets = new URL('../assets/', import.meta.url);

const answer = (status: number, body: Record<string, string>) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

/** The names a folder holds, whatever their extension (content names an image without it). */
const namesIn = (folder: AssetFolder) =>
  readdirSync(new URL(`${folder}/`, assets)).map((file) => file.replace(/\.[^.]*$/, ''));

export const POST: APIRoute = async ({ request, url }) => {
  // The editor's own page, and nothing else: a page elsewhere cannot make this browser write here.
  const origin = request.headers.get('origin');
  if (origin !== url.origin || request.headers.get('sec-fetch-site') === 'cross-site')
    return answer(403, { error: 'Uploads come from the editor on this server only.' });
  if (request.headers.get('content-type') !== 'application/octet-stream')
    return answer(415, { error: 'Send the file as application/octet-stream.' });
  const folder = url.searchParams.get('folder') as AssetFolder;
  if (!imageFolders.includes(folder))
    return answer(400, { error: `The folder must be one of ${imageFolders.join(', ')}.` });
  const fileName = url.searchParams.get('file') ?? '';
  if (fileName.length === 0 || fileName.length > 200 || /[\0-\x1f\x7f]/.test(fileName))
    return answer(400, { error: 'The file needs a name of at most 200 printable characters.' });
  const max = maxImageBytes[folder];
  const bytes = await readLimited(request, max);
  if (!bytes)
    return answer(413, { error: `src/assets/${folder} takes files of at most ${max / 1024} KB.` });
  const problem = imageProblem(folder, fileName, bytes, namesIn(folder));
  if (problem) return answer(422, { error: problem });
  const name = imageNameFrom(fileName);
  const extension = imageExtensions[folder].find((ext) => fileName.toLowerCase().endsWith(ext))!;
  try {
    // 'wx': never over a file that appeared since the check.
    await writeFile(new URL(`${folder}/${name}${extension}`, assets), bytes, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return answer(409, { error: `src/assets/${folder} already has "${name}${extension}".` });
    throw error;
  }
  return answer(201, { name, file: `src/assets/${folder}/${name}${extension}` });
};

export const ALL: APIRoute = () => new Response(null, { status: 405, headers: { allow: 'POST' } });
