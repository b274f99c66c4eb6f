/**
 * In `astro dev` only (./editor.ts adds this middleware, before ./uploads-commit.ts): in front of
 * Keystatic's local API.
 *
 * - A Save (`POST /api/keystatic/update`) is written only if each file it writes or deletes is
 *   still the version the editor opened (./stale-files.ts). Else it is refused (409) with both
 *   texts and who changed the file when, which the editor's tab shows field by field
 *   (../browser/conflicts.ts); nothing is written, and no pending upload moves. The check and
 *   Keystatic's write are one step for the content's history (`exclusive`): two Saves, or a Save
 *   and a restore, never both pass the check on the same version.
 * - A version of a file the tab asks for (`GET /api/keystatic/blob/SHA/PATH`) that is no longer the
 *   file's text is read from the history, if it was once that file's: a tab whose copy of the
 *   files was older than a write of the server's (a rename's link move, a restore) opened the entry
 *   at the version it knew ("Could not fetch blob … 404" before), and its Save is then checked
 *   against that version like any other.
 */
import { defineMiddleware } from 'astro:middleware';
import { SAVE_BASE_HEADER } from '../events.ts';
import { historyOf } from './history/content-history.ts';
import { checkedSave, readBase, readSave } from './stale-files.ts';
import { KEYSTATIC_SAVE } from '../../domain/editing.ts';

/** How long a Save may take before the dev server's log says it has not been answered. */
const SLOW_SAVE_MS = 30_000;
const BLOB = /^\/api\/keystatic\/blob\/([0-9a-f]{40})\/(.+)$/;

const history = historyOf(process.cwd());

const refuse = (status: number, text: string) =>
  new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

async function save(request: Request, next: () => Promise<Response>) {
  // Only what Keystatic itself would take (it answers the rest).
  if (
    request.headers.get('no-cors') !== '1' ||
    request.headers.get('content-type') !== 'application/json'
  )
    return next();
  const files = readSave(
    await request
      .clone()
      .json()
      .catch(() => undefined),
  );
  if (!files) return refuse(400, 'Bad data');
  const base = readBase(request.headers.get(SAVE_BASE_HEADER));
  if (!base)
    return refuse(
      428,
      'Not saved: this page of the editor is older than the dev server. Reload it (your changes are kept as a draft) and save again.',
    );
  // A Save not answered for long says so where the marketer runs the editor: the dev server logs a
  // request only once it is answered.
  const paths = [...files.additions, ...files.deletions].map((file) => file.path).join(', ');
  const slow = setTimeout(
    () =>
      console.warn(
        `[editor] A Save of ${paths} has not been answered after ${SLOW_SAVE_MS / 1000} s.`,
      ),
    SLOW_SAVE_MS,
  );
  const outcome = await checkedSave(history, files, base, next).finally(() => clearTimeout(slow));
  if ('written' in outcome) return outcome.written;
  return Response.json(outcome.refused, { status: 409, headers: { 'Cache-Control': 'no-store' } });
}

async function olderVersion(sha: string, path: string, next: () => Promise<Response>) {
  const response = await next();
  if (response.status !== 404) return response;
  let file: string;
  try {
    file = decodeURIComponent(path);
  } catch {
    return response;
  }
  if (
    !file.startsWith('src/content/') ||
    !(await history.wasVersionOf(sha, file).catch(() => false))
  )
    return response;
  const text = await history.blobText(sha);
  return text === undefined ? response : new Response(text, { status: 200 });
}

export const onRequest = defineMiddleware(async ({ request, url }, next) => {
  if (request.method === 'POST' && url.pathname === KEYSTATIC_SAVE) return save(request, next);
  const blob = request.method === 'GET' ? BLOB.exec(url.pathname) : null;
  if (blob) return olderVersion(blob[1]!, blob[2]!, next);
  return next();
});
