import type { Rule } from '../../../domain/content-rules.ts';
import { linkProblem as siteLinkProblem, pageOf } from '../../../domain/redirects.ts';
import type { Site } from '../../site.ts';

/**
 * What is wrong with a link, in the build's words: none given (when one must be), not a path of the
 * site, or a path that is no page of it (`site`: the pages and redirects, once the editor knows them).
 */
export const linkProblem =
  (label: string, rule: Rule, optional = false) =>
  (href: string, site: Site | undefined): string | undefined => {
    if (href === '') return optional ? undefined : `${label} is required`;
    if (!rule.regex.test(href)) return `${label} ${rule.message}`;
    return site && siteLinkProblem(href, site.pages, site.redirects);
  };

/** Where a link leads, for a person: its page's name, or where an old address sends it on. */
export function leadsTo(href: string, site: Site | undefined): string | undefined {
  if (!site || !href.startsWith('/')) return undefined;
  const page = pageOf(href);
  const name = (address: string) => site.names.get(address) ?? address;
  if (site.pages.has(page)) return `Leads to: ${name(page)}`;
  const redirect = site.redirects.find(({ from }) => from === page);
  if (redirect) return `Leads to: ${name(pageOf(redirect.to))} (an old address, sent on)`;
  return undefined;
}
