/**
 * Redirects (src/content/data/redirects.yaml): an old address of the site answered with a 301 to
 * its new one, so that links from search engines and old e-mails keep working. One set of rules
 * for the site's schema (src/content.config.ts), the build's check (src/lib/content-checks.ts),
 * the answer (src/pages/[...redirect].astro) and the visual editor (src/editor/), which also calls
 * `withMove` when a page's address changes.
 *
 * Both addresses are paths of this site. The old one (`from`) is a path alone; the new one (`to`)
 * may end with a `#section` of its page. Neither may hold a query, `//`, a trailing slash or any
 * character outside lowercase letters, digits, hyphens and slashes: a Location header is only ever
 * a path of the file, never anything of the request but its query string.
 */
import { patterns } from './content-rules.ts';

export interface Redirect {
  from: string;
  to: string;
}

export type RedirectField = keyof Redirect;

export interface RedirectProblem {
  /** The entry's place in the list, from 0. */
  index: number;
  field: RedirectField;
  message: string;
}

/** The longest address a redirect takes: longer is a mistake, not an address. */
export const REDIRECT_ADDRESS_MAX = 200;

/** A section of a page, as the page copy names its sections (`#form`, `#pricing-plans`). */
const FRAGMENT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The page an address leads to, as the site compares addresses (links, slugs): without its query,
 * fragment and trailing slashes; '/' stays '/'.
 */
export function pageOf(href: string): string {
  const path = href.split(/[?#]/)[0]!;
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : '/';
}

/**
 * What is wrong with one address of a redirect, in a marketer's words, or undefined. The same for
 * the editor's field and the build: what one entry alone can get wrong.
 */
export function addressProblem(value: string, field: RedirectField): string | undefined {
  const which = field === 'from' ? 'the old address' : 'the new address';
  const Which = field === 'from' ? 'The old address' : 'The new address';
  if (value === '') return `Give ${which}, a path of this site such as "/old-page"`;
  if (value.length > REDIRECT_ADDRESS_MAX)
    return `${Which} is too long: at most ${REDIRECT_ADDRESS_MAX} characters`;
  const hash = value.indexOf('#');
  if (hash >= 0 && field === 'from')
    return 'The old address is a path alone, without "#…": e.g. "/old-page"';
  const path = hash >= 0 ? value.slice(0, hash) : value;
  if (value.includes('?')) return `${Which} takes no "?…" part: give the path alone`;
  if (!patterns.internalPath.regex.test(path))
    return `${Which} ${patterns.internalPath.message}, in lowercase letters, digits and hyphens`;
  if (path.includes('//')) return `${Which} has "//": one slash between the parts`;
  if (path.length > 1 && path.endsWith('/'))
    return `${Which} takes no slash at the end: "${path.replace(/\/+$/, '')}"`;
  if (hash >= 0 && !FRAGMENT.test(value.slice(hash + 1)))
    return 'The part after "#" names a section of the page: lowercase letters, digits and hyphens';
  return undefined;
}

/**
 * What is wrong with a link of the content (`href`, a path of this site), or undefined: the build's
 * check (src/lib/content-checks.ts) and the editor's link fields say it in these words. A link to
 * an old address of `redirects` is a link to a page: it is answered with a 301 to its new one.
 */
export function linkProblem(
  href: string,
  livePages: ReadonlySet<string>,
  redirects: readonly Redirect[],
): string | undefined {
  const page = pageOf(href);
  if (livePages.has(page) || redirects.some(({ from }) => from === page)) return undefined;
  return `"${href}" is not a page of the site (a service page renamed or removed?)`;
}

/**
 * The problems of a list of redirects, each with the entry's index and field: an address one entry
 * gets wrong; an old address that is a page of the site (the redirect would hide it) or that
 * another entry redirects too (said at each); a new address that is no page of the site, or is itself
 * redirected (a chain, or a loop back to where it started). `livePages` are the site's pages: '/',
 * '/about', '/iphone' ….
 */
export function redirectProblems(
  redirects: readonly Redirect[],
  livePages: Iterable<string>,
): RedirectProblem[] {
  const pages = new Set(livePages);
  const problems: RedirectProblem[] = [];
  const firstFrom = new Map<string, number>();
  /** Where each old address leads, by each entry that has it. */
  const targets = new Map<string, string[]>();
  redirects.forEach(({ from, to }, index) => {
    if (!firstFrom.has(from)) firstFrom.set(from, index);
    targets.set(from, [...(targets.get(from) ?? []), to]);
  });
  const next = (page: string) => {
    const at = firstFrom.get(page);
    return at === undefined ? undefined : pageOf(redirects[at]!.to);
  };

  redirects.forEach(({ from, to }, index) => {
    const add = (field: RedirectField, message: string) => problems.push({ index, field, message });

    const fromProblem = addressProblem(from, 'from');
    if (fromProblem) add('from', fromProblem);
    else if (pages.has(from))
      add('from', `${from} is a page of the site: a redirect would hide it`);
    else if (targets.get(from)!.length > 1)
      // Said at each of them, naming where each leads: which to keep is the person's choice.
      add(
        'from',
        `${from} is redirected more than once (${targets
          .get(from)!
          .map((to) => `to ${to}`)
          .join(', ')}): keep one`,
      );

    const toProblem = addressProblem(to, 'to');
    if (toProblem) {
      add('to', toProblem);
      return;
    }
    const target = pageOf(to);
    if (!fromProblem && target === from) {
      add('to', `${from} leads to itself: a loop`);
      return;
    }
    if (next(target) !== undefined) {
      // Follow the chain: back to `from` is a loop, else it ends on a page or nowhere.
      const path = [from, target];
      const seen = new Set(path);
      let at = target;
      for (let step = next(at); step !== undefined && !seen.has(step); step = next(at)) {
        path.push(step);
        seen.add(step);
        at = step;
      }
      const end = next(at);
      if (end !== undefined) {
        add('to', `a loop: ${[...path, end].join(' → ')}`);
      } else if (pages.has(at)) {
        add('to', `${target} is itself redirected: send this one straight to ${at}`);
      } else {
        add('to', `${target} is itself redirected, and ${at} is not a page of the site`);
      }
      return;
    }
    if (!pages.has(target)) add('to', `${target} is not a page of the site`);
  });
  return problems;
}

/** `to` led to `page` instead of `from`: its fragment kept. */
const retarget = (to: string, page: string) => {
  const hash = to.indexOf('#');
  return hash >= 0 ? `${page}${to.slice(hash)}` : page;
};

/**
 * The redirects once a page's address has moved from `from` to `to` (a page renamed in the
 * editor): `from` → `to` added; every redirect that led to `from` now leads to `to` (no chain);
 * a redirect from `to` dropped (a page lives there again: the editor says so). Nothing else
 * changes, not even a redirect that is wrong (one to itself is the build's and the editor's to
 * refuse, never a move's to drop unsaid). The list's order is kept, the new redirect last.
 */
export function withMove(redirects: readonly Redirect[], from: string, to: string): Redirect[] {
  const oldPage = pageOf(from);
  const newPage = pageOf(to);
  if (oldPage === newPage) return [...redirects];
  const moved = redirects
    .filter((redirect) => redirect.from !== newPage && redirect.from !== oldPage)
    .map((redirect) =>
      pageOf(redirect.to) === oldPage
        ? { from: redirect.from, to: retarget(redirect.to, newPage) }
        : redirect,
    );
  return [...moved, { from: oldPage, to: newPage }];
}

/** A query string that may follow a Location's path: printable ASCII only, as a URL gives it. */
const SAFE_QUERY = /^\?[\x21-\x7e]*$/;

/**
 * Where a request for `path` is redirected, or undefined: the redirect whose old address is the
 * path (exact, but for a trailing slash), its new address with the request's query kept (`search`,
 * as URL.search gives it: '' or '?…'), placed before a fragment. Only the file's address and the
 * query ever reach the Location header, so no request can make it point elsewhere.
 */
export function resolveRedirect(
  redirects: readonly Redirect[],
  path: string,
  search = '',
): string | undefined {
  // Not pageOf: a request's path ends at its query, and a '#' in it is an escaped character's.
  const page = path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
  const found = redirects.find((redirect) => redirect.from === page);
  if (!found || addressProblem(found.to, 'to')) return undefined;
  const query = SAFE_QUERY.test(search) ? search : '';
  const hash = found.to.indexOf('#');
  return hash >= 0
    ? `${found.to.slice(0, hash)}${query}${found.to.slice(hash)}`
    : `${found.to}${query}`;
}
