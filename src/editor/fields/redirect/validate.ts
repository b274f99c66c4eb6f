import {
  addressProblem,
  redirectProblems,
  type Redirect,
  type RedirectField,
} from '../../../domain/redirects.ts';
import type { Site } from '../../site.ts';

/** The redirects as they are being edited (the list's items, each `{ from, to }` as typed). */
export const editedRedirects = (entries: unknown): Redirect[] =>
  (Array.isArray(entries) ? entries : []).map((entry) => ({
    from: typeof entry?.from === 'string' ? entry.from : '',
    to: typeof entry?.to === 'string' ? entry.to : '',
  }));

/**
 * What the build would say of one address of a redirect (src/domain/redirects.ts), in its words:
 * what the address alone gets wrong; then, once the editor knows the site's pages (`site`), what the
 * whole list gets wrong at this item's field: an old address that is a page, or that another item
 * has; a new address that is no page, a chain or a loop.
 *
 * `item` is this item as far as it is known: its field's value, and its other address when known.
 * An item of `list` (the items as edited) is found by its field's value (two with one value are
 * both wrong, or both right); a new one (`adding`) is checked as if added at the end.
 */
export function redirectFieldProblem(
  field: RedirectField,
  item: Partial<Redirect>,
  list: readonly Redirect[],
  site: Site | undefined,
  adding = false,
): string | undefined {
  const value = item[field] ?? '';
  const own = addressProblem(value, field);
  if (own || !site) return own;
  let index = adding ? -1 : list.findIndex((entry) => entry[field] === value);
  let all = list;
  if (index < 0) {
    all = [...list, { from: item.from ?? '', to: item.to ?? '' }];
    index = all.length - 1;
  }
  return redirectProblems(all, site.pages).find(
    (problem) => problem.index === index && problem.field === field,
  )?.message;
}
