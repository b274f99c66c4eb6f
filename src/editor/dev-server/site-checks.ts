/**
 * The build's checks across files (src/lib/content-checks.ts: every link leads to a page, every
 * redirect to a page and from none, no two pages at one address), run by the editor's dev server on
 * the content as a Save or a restore would leave it, before it is written: a Save the build would
 * refuse is refused (./save-checks.ts), and a restore that would break a page says which, and asks
 * first (./history/route.ts). Also the site's pages and redirects as the editor's fields check
 * links against them (./site.ts, src/editor/site.ts).
 *
 * The content is read from its files, as the build reads them, so that a file as it would be can
 * be checked without writing it.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { pageOf, withMove, type Redirect } from '../../domain/redirects.ts';
import type { Fields } from '../../content-model/fields.ts';
import { contentModel } from '../../content-model/index.ts';
import {
  bodyLinks,
  checkContent,
  checkRedirects,
  internalLinks,
  livePages,
  REDIRECTS_FILE,
  routeOfPageFile,
  type CheckedEntry,
  type ContentProblem,
  type ServiceSlug,
} from '../../lib/content-checks.ts';
import { contentPlace, contentPlaceParts } from '../../content-model/places.ts';
import { contentFiles, contentText } from './content-links.ts';
import { siteRoot } from './roots.ts';
import { FRONT_MATTER, mdxCodeProblem } from '../../shared/mdx-text.ts';

/** The content's text files by their path from the project's folder ('src/content/pages/home.yaml'). */
export type ContentFiles = Map<string, string>;

const SERVICES = 'src/content/services/';
const PAGES = 'src/content/pages/';
const DATA = 'src/content/data/';

/** Every text file of src/content. */
export async function readContent(root: string): Promise<ContentFiles> {
  const files: ContentFiles = new Map();
  for (const path of await contentFiles(root)) {
    const text = await contentText(root, path);
    if (text !== undefined) files.set(path, text);
  }
  return files;
}

/** The addresses of the site's own pages, from the files of src/pages ('/', '/about', …). */
export async function fixedRoutes(root: string): Promise<string[]> {
  // A draft folder (the live site's editor, ./roots.ts) holds the content only: the pages are the project's.
  const own = join(root, 'src/pages');
  const files = await readdir(existsSync(own) ? own : join(siteRoot(), 'src/pages'), {
    recursive: true,
  });
  // Its page files, as the build's glob has them (src/lib/content.ts): not the folders among them
  // (src/pages/php/, of /php/email.php, is no page /php: the service page of that address was
  // refused at every Save).
  return files
    .filter((file) => /\.(?:astro|ts)$/.test(file))
    .flatMap((file) => routeOfPageFile(`pages/${file.replaceAll('\\', '/')}`) ?? []);
}

/** Every value inside `value` made read-only: a parse kept for the next reader is never changed. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}

/**
 * The values of the texts parsed lately, by their text (so never stale). The content is read whole
 * for every check (each Save, each list of the site's pages, each "who links here"), and most of
 * its files are as they were: parsing them again was a sixth of the dev server's time in the
 * editor's tests. Emptied when it holds some times the content's files.
 */
const parsed = new Map<string, unknown>();
const PARSED_KEPT = 400;

/** A YAML text's values; an unreadable one, none (the build's schema says what is wrong with it). */
function yaml(text: string): unknown {
  if (parsed.has(text)) return parsed.get(text);
  let values: unknown;
  try {
    values = frozen(parseYaml(text));
  } catch {
    values = undefined;
  }
  if (parsed.size >= PARSED_KEPT) parsed.clear();
  parsed.set(text, values);
  return values;
}

/** An MDX file's front matter's values and its text below. */
function mdx(text: string): { data: unknown; body: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { data: undefined, body: text };
  return { data: yaml(match[1]!), body: text.slice(match[0].length) };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** A service page's address, `slug` of its front matter, or its file's name (as src/lib/content.ts). */
const slugOf = (file: string, data: unknown) =>
  isRecord(data) && typeof data.slug === 'string' ? data.slug : file.slice(SERVICES.length, -4);

/** The service pages of the content: each file with its address. */
export function servicesOf(files: ContentFiles): ServiceSlug[] {
  return [...files]
    .filter(([file]) => file.startsWith(SERVICES) && file.endsWith('.mdx'))
    .map(([file, text]) => ({ file, slug: slugOf(file, mdx(text).data) }));
}

/** The redirects of the content (redirects.yaml), as the site reads them. */
export function redirectsOf(files: ContentFiles): Redirect[] {
  const entries = (yaml(files.get(REDIRECTS_FILE) ?? '') as { entries?: unknown } | null)?.entries;
  return (Array.isArray(entries) ? entries : []).flatMap((entry: unknown) =>
    isRecord(entry) && typeof entry.from === 'string' && typeof entry.to === 'string'
      ? [{ from: entry.from, to: entry.to }]
      : [],
  );
}

/** Each file's values, as the editor's places read them: a list file's `{ entries }`. */
const valuesOf = (file: string, text: string) =>
  file.endsWith('.mdx') ? mdx(text).data : yaml(text);

/** The entries of the content as the build checks their links (not the redirects: their own check). */
function checkedEntries(files: ContentFiles): CheckedEntry[] {
  const entries: CheckedEntry[] = [];
  for (const [file, text] of files) {
    if (file === REDIRECTS_FILE) continue;
    if (file.startsWith(SERVICES)) {
      const { data, body } = mdx(text);
      entries.push({ file, data, body });
    } else if (file.startsWith(PAGES)) {
      entries.push({ file, data: yaml(text) });
    } else if (file.startsWith(DATA)) {
      const list = (yaml(text) as { entries?: unknown } | null)?.entries;
      (Array.isArray(list) ? list : []).forEach((data, index) =>
        entries.push({
          file,
          id: isRecord(data) && data.id !== undefined ? String(data.id) : String(index),
          index,
          data,
        }),
      );
    }
  }
  return entries;
}

/**
 * What the build would say of the content: each problem with its place in the editor, its list
 * items by their names. `fixed`, the site's own pages.
 */
export function contentProblems(files: ContentFiles, fixed: readonly string[]): ContentProblem[] {
  const services = servicesOf(files);
  const redirects = redirectsOf(files);
  const problems = [
    ...checkContent(checkedEntries(files), fixed, services, redirects),
    ...checkRedirects(redirects, livePages(fixed, services)),
    ...codeInText(files),
  ];
  return problems.map((problem) => {
    const text = files.get(problem.file);
    const path = (problem.path ?? problem.field).split(',')[0]!;
    const place = contentPlace(
      problem.file,
      path,
      text === undefined ? undefined : valuesOf(problem.file, text),
    );
    return place ? { ...problem, place } : problem;
  });
}

/** MDX text that holds code, which the build refuses before running it (src/shared/mdx-text.ts). */
function codeInText(files: ContentFiles): ContentProblem[] {
  return [...files].flatMap(([file, text]) => {
    const message = file.endsWith('.mdx') ? mdxCodeProblem(text) : undefined;
    return message ? [{ file, field: 'body', message }] : [];
  });
}

/** A problem's words for a person in the editor: where, then what. */
export const describe = ({ place, file, field, message }: ContentProblem) =>
  `${place ?? `${file}: ${field}`}: ${message}`;

/** One problem, the same wherever it is found: to tell new problems from old ones. */
const keyOf = ({ file, path, field, message }: ContentProblem) =>
  `${file}\n${path ?? field}\n${message}`;

/** The problems of `after` that `before` did not have. */
export function newProblems(before: readonly ContentProblem[], after: readonly ContentProblem[]) {
  const had = new Set(before.map(keyOf));
  return after.filter((problem) => !had.has(keyOf(problem)));
}

/**
 * The content once a Save has written `additions` and removed `deletions`, with the redirects the
 * dev server then adds for the service pages it moved (./history/recorder.ts): a page saved under
 * another address is sent on from its old one, so its links do not break.
 */
export function afterSave(
  before: ContentFiles,
  additions: ReadonlyMap<string, string>,
  deletions: readonly string[],
): ContentFiles {
  const after = new Map(before);
  for (const path of deletions) after.delete(path);
  for (const [path, text] of additions) after.set(path, text);
  const address = (files: ContentFiles, file: string) => {
    const text = files.get(file);
    return text === undefined ? undefined : `/${slugOf(file, mdx(text).data)}`;
  };
  const moves: [string, string][] = [];
  const gone = deletions.filter((file) => file.startsWith(SERVICES) && before.has(file));
  const came = [...additions.keys()].filter(
    (file) => file.startsWith(SERVICES) && !before.has(file),
  );
  if (gone.length === 1 && came.length === 1)
    moves.push([address(before, gone[0]!)!, address(after, came[0]!)!]);
  for (const file of additions.keys()) {
    if (!file.startsWith(SERVICES) || !before.has(file)) continue;
    const [from, to] = [address(before, file)!, address(after, file)!];
    if (from !== to) moves.push([from, to]);
  }
  if (moves.length === 0) return after;
  let redirects = redirectsOf(after);
  for (const [from, to] of moves) redirects = withMove(redirects, from, to);
  // The recorder writes the file anew; only its list matters here.
  after.set(REDIRECTS_FILE, JSON.stringify({ entries: redirects }));
  return after;
}

/** A page of the site: its address, and its name where the content gives it one. */
export interface SitePage {
  address: string;
  name?: string;
}

/** Each of the site's own pages by the copy it shows (src/content/pages/NAME.yaml). */
const copyOf = (address: string) =>
  address === '/' ? 'home' : address === '/404' ? 'not-found' : address.slice(1).replace('/', '-');

/**
 * The site's pages, each with its name (a service page's name; a page's SEO title, "Home" for /),
 * in the order a person looks for them: the main pages, then the service pages by name.
 */
export function pagesOf(files: ContentFiles, fixed: readonly string[]): SitePage[] {
  const own = fixed.map((address) => {
    const copy = yaml(files.get(`${PAGES}${copyOf(address)}.yaml`) ?? '');
    const title = isRecord(copy) && isRecord(copy.seo) ? copy.seo.title : undefined;
    const name = address === '/' ? 'Home' : typeof title === 'string' ? title : undefined;
    return { address, ...(name && { name }) };
  });
  const services = servicesOf(files).map(({ file, slug }) => {
    const data = mdx(files.get(file)!).data;
    const name = isRecord(data) && typeof data.title === 'string' ? data.title : undefined;
    return { address: `/${slug}`, ...(name && { name }) };
  });
  return [
    ...own.sort((a, b) => a.address.localeCompare(b.address)),
    ...services.sort((a, b) => (a.name ?? a.address).localeCompare(b.name ?? b.address)),
  ];
}

/** Where a content file shows on the site, in a person's words: a page by its name, or which pages. */
export function shownOn(file: string, files: ContentFiles, fixed: readonly string[]): string {
  const pages = pagesOf(files, fixed);
  const page = (address: string | undefined) => {
    const found = pages.find((each) => each.address === address);
    return found ? `${found.name ?? found.address} (${found.address})` : undefined;
  };
  if (file.startsWith(SERVICES))
    return page(`/${slugOf(file, mdx(files.get(file) ?? '').data)}`) ?? file;
  if (file.startsWith(PAGES)) {
    const copy = file.slice(PAGES.length).replace(/\.ya?ml$/, '');
    return page(fixed.find((address) => copyOf(address) === copy)) ?? `the ${copy} page`;
  }
  if (file === `${DATA}settings.yaml`) return 'every page (the header and the footer)';
  return `the pages that show ${contentPlace(file, '') ?? file}`;
}

/** What restoring a file's older text would do to the site, before it is written. */
export interface RestoreConsequences {
  /** The mistakes it would bring, each with where it shows: the pages that would fail. */
  broken: { shownOn: string; problem: string }[];
  /** Old addresses it would leave answering "page not found", with where they lead now. */
  unanswered: Redirect[];
}

/** What writing `text` into `file` would break: compared with the content as it is now. */
export async function restoreConsequences(
  root: string,
  file: string,
  text: string,
): Promise<RestoreConsequences> {
  const [before, fixed] = await Promise.all([readContent(root), fixedRoutes(root)]);
  const after = new Map(before).set(file, text);
  const broken = newProblems(contentProblems(before, fixed), contentProblems(after, fixed)).map(
    (problem) => ({ shownOn: shownOn(problem.file, after, fixed), problem: describe(problem) }),
  );
  const live = new Set(livePages(fixed, servicesOf(after)));
  const kept = new Set(redirectsOf(after).map(({ from }) => from));
  const unanswered = redirectsOf(before).filter(({ from }) => !kept.has(from) && !live.has(from));
  return { broken, unanswered };
}

/**
 * The deepest list along a field's path that the content model says where the site shows
 * (`shownAt`: "the footer's Popular services"), and the path's segment of its items.
 */
function shownAtAlong(file: string, path: readonly string[]) {
  const model = Object.values(contentModel).find((each) =>
    each.kind === 'listFile' ? each.file === file : file.startsWith(`${each.folder}/`),
  );
  if (!model) return undefined;
  const inList = model.kind === 'listFile';
  let found = inList && model.shownAt ? { shownAt: model.shownAt, at: 0 } : undefined;
  let fields: Fields | undefined = model.fields;
  for (let i = inList ? 2 : 0; i < path.length && fields; i++) {
    const field: Fields[string] | undefined = fields[path[i]!];
    if (field?.kind === 'list') {
      if (field.shownAt) found = { shownAt: field.shownAt, at: i };
      fields = field.of.kind === 'group' ? field.of.fields : undefined;
      i++;
    } else fields = field?.kind === 'group' ? field.fields : undefined;
  }
  return found && { ...found, inList };
}

/**
 * Where a field of a content file is on the site, in a marketer's words: "the footer's Popular
 * services: Laravel", "the About page's technologies: Symfony"; a page's own field by its page and
 * its place in the editor: "Home (/): Sections → … → Links → PHP".
 */
export function sitePlace(
  file: string,
  fieldPath: string,
  files: ContentFiles,
  fixed: readonly string[],
): string {
  const text = files.get(file);
  // A link of an MDX body is 'body, line 3': the editor shows the body whole.
  const field = fieldPath.split(',')[0]!;
  const path = field.split('.').filter(Boolean);
  const values = text === undefined ? undefined : valuesOf(file, text);
  const parts = contentPlaceParts(file, field, values);
  const shown = shownAtAlong(file, path);
  if (shown && parts) {
    // The list's item: its part among the editor's (a list file's `entries` has none of its own).
    const item = parts[parts.within + shown.at + (shown.inList ? 0 : 1)];
    return item ? `${shown.shownAt}: ${item}` : shown.shownAt;
  }
  if (file.startsWith(SERVICES) || file.startsWith(PAGES)) {
    const detail = parts?.slice(parts.within) ?? [];
    return [shownOn(file, files, fixed), detail.join(' → ')].filter(Boolean).join(': ');
  }
  return parts?.join(' → ') ?? file;
}

/**
 * The content's links to a page (`address`, '/ipad'), file by file, each where it is on the site:
 * what the editor's dialogs list before a page moves or goes.
 */
export async function linksTo(root: string, address: string) {
  const [files, fixed] = await Promise.all([readContent(root), fixedRoutes(root)]);
  const found = new Map<string, string[]>();
  for (const [file, text] of files) {
    const { data, body } = file.endsWith('.mdx') ? mdx(text) : { data: yaml(text), body: '' };
    const links = [...internalLinks(data), ...(body ? bodyLinks(body) : [])];
    const places = links
      .filter(([, href]) => pageOf(href) === address)
      .map(([path]) => sitePlace(file, path, files, fixed));
    if (places.length) found.set(file, places);
  }
  return { found, names: new Map(pagesOf(files, fixed).map(({ address: a, name }) => [a, name])) };
}
