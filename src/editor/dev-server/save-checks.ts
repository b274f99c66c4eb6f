/**
 * In `astro dev` only (./editor.ts adds this middleware): a Save of the editor that `npm run build`
 * would refuse is refused, before Keystatic writes anything. The editor's fields say most of it at
 * the field as it is typed (a link to no page, a redirect's loop: src/editor/site.ts); this is the
 * same check on the files themselves, for what no field can see: a link in a page's text, a page
 * another tab has just removed, a redirect whose removal leaves another page's link leading nowhere.
 * Keystatic shows the answer's text above the entry ("Not saved: …"), and the entry stays unsaved.
 *
 * A Save that only deletes (Delete entry…) is the Delete dialog's: its redirect comes once the file
 * is gone (./history/recorder.ts).
 */
import { defineMiddleware } from 'astro:middleware';
import { contentRoot } from './roots.ts';
import {
  afterSave,
  contentProblems,
  describe,
  fixedRoutes,
  newProblems,
  readContent,
  type ContentFiles,
} from './site-checks.ts';

const SAVE_PATH = '/api/keystatic/update';
const CONTENT = 'src/content/';
/** A content file as Keystatic names it: under src/content, never out of it. */
const CONTENT_FILE = /^src\/content\/(?:[\w-]+\/)*[\w-]+\.(?:ya?ml|mdx?)$/;
/** What the build may read as content, however named: checked (a picture in a page's text is not). */
const checked = (path: string) =>
  /\.(?:ya?ml|mdx?)$/i.test(path) || path.split('/').some((part) => part === '..' || part === '.');

/** The content files a Save writes and removes, or none if the body is not Keystatic's. */
export async function savedFiles(request: Request) {
  const additions: ContentFiles = new Map();
  const deletions: string[] = [];
  try {
    const body = (await request.clone().json()) as {
      additions?: { path?: unknown; contents?: unknown }[];
      deletions?: { path?: unknown }[];
    };
    for (const { path, contents } of body.additions ?? [])
      if (
        typeof path === 'string' &&
        path.startsWith(CONTENT) &&
        checked(path) &&
        typeof contents === 'string'
      )
        additions.set(path, Buffer.from(contents, 'base64').toString('utf8'));
    for (const { path } of body.deletions ?? [])
      if (typeof path === 'string' && CONTENT_FILE.test(path)) deletions.push(path);
  } catch {
    // Not Keystatic's: Keystatic answers it.
  }
  return { additions, deletions };
}

/**
 * What stops a Save, in a person's words, or none: every problem of the files it writes, and every
 * problem it would bring to another file (a link whose redirect it removes).
 */
export async function saveProblems(
  projectRoot: string,
  additions: ReadonlyMap<string, string>,
  deletions: readonly string[],
): Promise<string[]> {
  if (additions.size === 0) return [];
  // Never written by the editor's own pages, only sent to its API: the checks below would not know it.
  const misnamed = [...additions.keys()].filter((path) => !CONTENT_FILE.test(path));
  if (misnamed.length)
    return misnamed.map(
      (path) =>
        `${path}: not a name the editor gives a file (letters, digits and hyphens, then .mdx or .yaml)`,
    );
  const [before, fixed] = await Promise.all([readContent(projectRoot), fixedRoutes(projectRoot)]);
  const after = contentProblems(afterSave(before, additions, deletions), fixed);
  const added = new Set(newProblems(contentProblems(before, fixed), after));
  return after.filter((problem) => additions.has(problem.file) || added.has(problem)).map(describe);
}

/** The answer to a refused Save: Keystatic shows its text. */
export const refusal = (problems: readonly string[]) =>
  new Response(
    `Not saved: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more: see each field)` : ''}`,
    { status: 422, headers: { 'content-type': 'text/plain; charset=utf-8' } },
  );

export const onRequest = defineMiddleware(async (context, next) => {
  if (context.request.method !== 'POST' || context.url.pathname !== SAVE_PATH) return next();
  const { additions, deletions } = await savedFiles(context.request);
  let problems: string[] = [];
  try {
    problems = await saveProblems(contentRoot(), additions, deletions);
  } catch (error) {
    // A check that could not run stops no Save: the build still checks.
    console.warn(`[editor] The Save's files could not be checked: ${error}`);
  }
  return problems.length ? refusal(problems) : next();
});
