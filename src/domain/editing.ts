/**
 * The live site's visual editor (`EDITING=on`): the addresses the site's server hands to the
 * editor's helper process, behind the staff sign-in. Named here because the editor's build
 * (astro.editor.config.mjs: `build.assets`) and the server both use them.
 */

/** The editor's page; its History is under it (/keystatic/history/…). */
export const EDITOR_PAGE = '/keystatic';

/** Keystatic's Save (a POST): the one address every check of what a Save writes knows it by. */
export const KEYSTATIC_SAVE = '/api/keystatic/update';

/** The editor build's scripts and styles. */
export const EDITOR_ASSETS = '_keystatic';

const prefixes = [`${EDITOR_PAGE}/`, '/api/keystatic/', '/api/editor/', `/${EDITOR_ASSETS}/`];

/** Whether a path (decoded, as routes are matched) is the editor's. */
export const isEditorAddress = (path: string) =>
  path === EDITOR_PAGE || prefixes.some((prefix) => path.startsWith(prefix));

/**
 * Whether an address of Keystatic's API is written another way than its own pages write it:
 * Keystatic's router splits the path at '/', decodes each part and drops the empty ones, so
 * `/api/keystatic//update/` or `/api/keystatic/updat%65` is its Save too, which every check that
 * knows the Save by its address would let through. Refused (404) before anything reads it.
 */
export const oddlyWritten = (path: string) =>
  path.startsWith('/api/keystatic/') && /\/\/|\/$|%/.test(path);

/** The methods the editor's addresses take: its pages, Keystatic's Save, History's posts, uploads. */
export const EDITOR_METHODS = ['GET', 'HEAD', 'POST', 'DELETE'] as const;

/**
 * The header in which the site's server names the signed-in editor to the helper (the History
 * records them as a save's author): `encodeURIComponent` of `{"name","email"}` as JSON. The
 * helper trusts it, since only the server reaches it; the server drops any a browser sends.
 */
export const EDITOR_MEMBER_HEADER = 'x-editor-member';

/** The cookie of the draft's preview mode (src/server/staff/preview.ts); it holds only that it is on. */
export const PREVIEW_COOKIE = 'editor-preview';

/** Whether a request's Cookie header puts it in preview mode. */
export const inPreview = (cookie: string | undefined | null) =>
  (cookie ?? '').split(';').some((part) => part.trim().startsWith(`${PREVIEW_COOKIE}=`));

/**
 * In preview mode, where the server hands Astro an address that is a file of the live build (its
 * pages, icons, pictures and scripts): Astro answers the files its manifest lists (the icons, the
 * social picture, robots.txt) with 404 before any middleware, and its adapter serves the live build's
 * own `_astro/` files, so the preview's copies were not what an editor saw. Under this prefix the
 * middleware's preview takes each (src/server/staff/preview.ts), and the prefix goes again before
 * anything reads the address.
 */
export const PREVIEW_FILES = '/_preview';

/** A request's address without PREVIEW_FILES, as the page asked for it. */
export const previewedPath = (pathname: string) =>
  pathname.startsWith(`${PREVIEW_FILES}/`) ? pathname.slice(PREVIEW_FILES.length) : pathname;

/** Where the editor's Preview leads on the live site: `?page=/address`, the draft's build of it. */
export const PREVIEW_PAGE = `${EDITOR_PAGE}/preview`;
export const LEAVE_PREVIEW = `${PREVIEW_PAGE}/leave`;

/**
 * How the live site's publishes and roll backs begin their commits' subjects (written by
 * src/server/releases/, read by the editor's History to say who published what).
 */
export const PUBLISH_SUBJECT = 'Publish: ';
export const ROLLBACK_SUBJECT = 'Roll back to release ';
/** A publish's merge with the code deployed since (src/server/releases/draft.ts). */
export const DEPLOYED_CODE_SUBJECT = 'Bring the code deployed since into the published site';

/**
 * What `/keystatic/preview` shows while it has no preview to open (src/server/staff/preview.ts):
 * its build under way, with the build's step and progress (as Publishing shows a publish's); why
 * the build failed, in its last lines; or why a publish of the draft would be refused.
 */
export type PreviewWait =
  | {
      state: 'building';
      /** The step under way, in the editor's words; 0 to 100. */
      step: string;
      progress: number;
      /** How long this build has run, and how long the last one took (none yet: undefined). */
      runMs: number;
      lastMs: number | undefined;
    }
  | { state: 'failed'; lines: string }
  | { state: 'refused'; reason: string };

/** A build's time in words, to the nearest 5 seconds under two minutes: "35 seconds", "3 minutes". */
export function buildTimeWords(ms: number): string {
  const seconds = Math.max(5, Math.round(ms / 5_000) * 5);
  if (seconds < 120) return `${seconds} seconds`;
  return `${Math.round(seconds / 60)} minutes`;
}

/**
 * The editor's History: a commit of each Save on this ref of the draft's git, authored by the
 * member who saved (written by src/editor/dev-server/history/, read by Publishing to say who saved
 * each change); `EDITOR_HISTORY_AUTHOR`'s are the editor's own records (a change made outside it).
 */
export const EDITOR_HISTORY_REF = 'refs/editor/history';
export const EDITOR_HISTORY_AUTHOR = { name: 'Visual editor', email: 'editor@localhost' } as const;

/** Where a draft dropped by Start again is kept, a commit of its own each, until brought back. */
export const DROPPED_DRAFTS = 'refs/editor/dropped/';
