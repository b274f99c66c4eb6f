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
import { oddlyWritten, KEYSTATIC_SAVE } from '../../domain/editing.ts';
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

/** A content file as Keystatic names it: under src/content, never out of it. */
const CONTENT_FILE = /^src\/content\/(?:[\w-]+\/)*[\w-]+\.(?:ya?ml|mdx?)$/;
/** A picture of a page's text, which Keystatic keeps beside its page (inert: no check reads it). */
const PICTURE = /^src\/content\/(?:[\w-]+\/)+[\w-]+\.(?:png|jpe?g|webp|gif|avif|svg)$/i;

/**
 * Whether the editor's own pages could send this path. Keystatic's API takes any other name under
 * a collection's folder, which is how a file it never writes would slip past the checks: a page
 * named `bad.x.mdx`, or a `.git` folder whose settings git would run at the next publish.
 */
const namedAsTheEditorNames = (path: string) => CONTENT_FILE.test(path) || PICTURE.test(path);

/** Why a Save naming `path` is refused, in the editor's words. */
const misnamed = (path: string) =>
  `${path.slice(0, 200)}: not a name the editor gives a file (letters, digits and hyphens, then .mdx or .yaml)`;

/**
 * The content files a Save writes (by their path, with their text) and removes, and every path it
 * names that the editor never would; undefined if the body is not a Save as Keystatic's page sends it.
 */
export async function savedFiles(request: Request) {
  const additions: ContentFiles = new Map();
  const deletions: string[] = [];
  const refused: string[] = [];
  let body: { additions?: unknown; deletions?: unknown };
  try {
    body = (await request.clone().json()) as typeof body;
  } catch {
    return undefined;
  }
  if (!Array.isArray(body?.additions) || !Array.isArray(body.deletions)) return undefined;
  for (const addition of body.additions as unknown[]) {
    const { path, contents } = (addition ?? {}) as { path?: unknown; contents?: unknown };
    if (typeof path !== 'string' || typeof contents !== 'string') return undefined;
    if (!namedAsTheEditorNames(path)) refused.push(misnamed(path));
    else if (CONTENT_FILE.test(path))
      additions.set(path, Buffer.from(contents, 'base64').toString('utf8'));
  }
  for (const deletion of body.deletions as unknown[]) {
    const { path } = (deletion ?? {}) as { path?: unknown };
    if (typeof path !== 'string') return undefined;
    if (!namedAsTheEditorNames(path)) refused.push(misnamed(path));
    else if (CONTENT_FILE.test(path)) deletions.push(path);
  }
  return { additions, deletions, refused };
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
  // A Save under another spelling of its address would pass every check by (the live site's server
  // refuses these before the helper; this is `npm run edit`'s).
  if (oddlyWritten(context.url.pathname)) return new Response('Not found.', { status: 404 });
  if (context.request.method !== 'POST' || context.url.pathname !== KEYSTATIC_SAVE) return next();
  const saved = await savedFiles(context.request);
  if (!saved) return refusal(['this is not a Save of the editor’s pages']);
  if (saved.refused.length) return refusal(saved.refused);
  const { additions, deletions } = saved;
  let problems: string[] = [];
  try {
    problems = await saveProblems(contentRoot(), additions, deletions);
  } catch (error) {
    // A check that could not run stops no Save: the build still checks.
    console.warn(`[editor] The Save's files could not be checked: ${error}`);
  }
  return problems.length ? refusal(problems) : next();
});
