/**
 * What the schema cannot see, because it looks at one entry at a time: that every internal link in
 * the content leads to a page of the site, and that service slugs are unique and do not take the
 * address of a fixed page. Run by the build (src/pages/[service].astro) over all the content, so
 * that deleting or renaming a service page fails `npm run build` naming each file that still links
 * to it; in `astro dev`, by each page over the entries it shows (lib/content.ts), so that a mistake
 * fails only those pages; the slugs also each time the service pages are read, so `astro dev` shows
 * a slug's error on /service and on the service pages.
 */
import { contentMistakeHeadings } from '../domain/content-rules';
import { linkProblem, redirectProblems, type Redirect } from '../domain/redirects';

export interface CheckedEntry {
  /** The file the entry comes from, as the editor knows it: 'src/content/data/technologies.yaml'. */
  file: string;
  /** The entry's id in a list file; undefined for one file per entry (a service page, a page). */
  id?: string;
  /** Its place in a list file, from 0: where the editor shows it. */
  index?: number;
  data: unknown;
  /** An MDX file's body, whose Markdown and HTML links are checked too. */
  body?: string;
}

export interface ContentProblem {
  file: string;
  field: string;
  message: string;
  /** The field's path in the file ('entries.3.href'), for its place in the editor; else `field`. */
  path?: string;
  /** The field's place in the editor, in its labels (src/content-model/places.ts), once known. */
  place?: string;
}

/** Every internal link of a value: strings under an `href` key that start with '/', with their path. */
export function* internalLinks(value: unknown, path: string[] = []): Generator<[string, string]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* internalLinks(item, [...path, String(i)]);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'href' && typeof item === 'string' && item.startsWith('/')) {
        yield [[...path, key].join('.'), item];
      } else {
        yield* internalLinks(item, [...path, key]);
      }
    }
  }
}

/** Links in Markdown (`[text](/path)`) and in HTML (`href="/path"`) of an MDX body. */
export function* bodyLinks(body: string): Generator<[string, string]> {
  for (const match of body.matchAll(/\]\((\/[^)\s]*)\)|href=["'](\/[^"']*)["']/g)) {
    const line = body.slice(0, match.index).split('\n').length;
    yield [`body, line ${line}`, (match[1] ?? match[2])!];
  }
}

/** A service page's file and its slug. */
export interface ServiceSlug {
  file: string;
  slug: string;
}

/**
 * The problems of the service pages' slugs: one that is the address of a fixed page, or one that
 * two files share (each named, on the line of the other).
 */
export function checkServiceSlugs(
  services: readonly ServiceSlug[],
  fixedRoutes: readonly string[],
): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const fixed = new Set(fixedRoutes);
  const slugFiles = new Map<string, string[]>();
  for (const { file, slug } of services)
    slugFiles.set(slug, [...(slugFiles.get(slug) ?? []), file]);

  for (const [slug, files] of slugFiles) {
    for (const file of files) {
      if (fixed.has(`/${slug}`)) {
        problems.push({
          file,
          field: 'slug',
          message: `"${slug}" is the address of a fixed page (/${slug}): choose another address`,
        });
      } else if (files.length > 1) {
        const others = files.filter((other) => other !== file).join(', ');
        problems.push({
          file,
          field: 'slug',
          message: `"${slug}" is also the slug of ${others}: each service page needs its own`,
        });
      }
    }
  }
  return problems;
}

/**
 * The problems of the content, each naming the file, the entry and the field. `fixedRoutes` are the
 * site's own pages ('/', '/about', ...); `services` the slug of each service page with its file;
 * `redirects` those of redirects.yaml: a link to an old address stays valid (it is answered with a
 * 301 to the new one, src/pages/[...redirect].astro).
 */
export function checkContent(
  entries: readonly CheckedEntry[],
  fixedRoutes: readonly string[],
  services: readonly ServiceSlug[],
  redirects: readonly Redirect[] = [],
): ContentProblem[] {
  const problems = checkServiceSlugs(services, fixedRoutes);
  const pages = new Set(livePages(fixedRoutes, services));
  for (const entry of entries) {
    const links = [...internalLinks(entry.data), ...(entry.body ? bodyLinks(entry.body) : [])];
    for (const [field, href] of links) {
      const message = linkProblem(href, pages, redirects);
      if (!message) continue;
      problems.push({
        file: entry.file,
        field: entry.id ? `entry "${entry.id}", ${field}` : field,
        message,
        ...(entry.index !== undefined && { path: `entries.${entry.index}.${field}` }),
      });
    }
  }
  return problems;
}

/**
 * A problem's text as it is printed, to a terminal too: control characters from the content (an
 * escape sequence in a link, a key) written as \u001b, not run; a message of several lines on one.
 */
const printable = (text: string) =>
  text
    .replace(/\s*\n\s*/g, ' ')
    .replace(
      /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );

/** The addresses of the site's pages: the fixed ones and the service pages. */
export const livePages = (fixedRoutes: readonly string[], services: readonly ServiceSlug[]) => [
  ...fixedRoutes,
  ...services.map(({ slug }) => `/${slug}`),
];

/** The file staff keep redirects in, as the build names it. */
export const REDIRECTS_FILE = 'src/content/data/redirects.yaml';

/**
 * The problems of redirects.yaml (src/domain/redirects.ts), each naming the file, the entry by its
 * old address, and the field.
 */
export function checkRedirects(
  redirects: readonly Redirect[],
  livePageAddresses: readonly string[],
): ContentProblem[] {
  return redirectProblems(redirects, livePageAddresses).map(({ index, field, message }) => ({
    file: REDIRECTS_FILE,
    field: `entry "${redirects[index]!.from}", ${field}`,
    path: `entries.${index}.${field}`,
    message,
  }));
}

/** The build's error: one line per problem, file first, its place in the editor beside the field. */
export const describeProblems = (problems: readonly ContentProblem[]) =>
  `${contentMistakeHeadings.build}\n${problems
    .map(
      ({ file, field, message, place }) =>
        `  ${printable(`${file}: ${field}${place ? ` (${place})` : ''}: ${message}`)}`,
    )
    .join('\n')}`;

/**
 * A page's error in `astro dev`, for the person editing: each mistake where the editor shows it,
 * then, for a developer, the file and the field.
 */
export const describeForStaff = (problems: readonly ContentProblem[]) =>
  `${contentMistakeHeadings.page}\n${problems
    .map(
      ({ file, field, message, place }) =>
        `  ${printable(`${place ?? file}: ${message}`)}\n      (${printable(`${file}: ${field}`)})`,
    )
    .join('\n')}`;

/** A route of a file under src/pages: '/', '/about', '/schedule/booked'; undefined for a dynamic one. */
export function routeOfPageFile(file: string): string | undefined {
  const path = file
    .replace(/^(?:.*?\/)?pages(?=\/)/, '')
    .replace(/\.(astro|ts|md|mdx)$/, '')
    .replace(/\/index$/, '');
  if (path.includes('[')) return undefined;
  return path || '/';
}
