/**
 * Old addresses answered with a 301 to their new one: src/content/data/redirects.yaml. An entry has
 * no id of its own: its old address names it. Each field refuses what the build refuses of one
 * entry (src/domain/redirects.ts); what needs the whole site (a page at the old address, none at the
 * new, a chain) is the build's (src/lib/content-checks.ts).
 */
import { addressProblem } from '../domain/redirects.ts';
import { listFile } from './collections.ts';
import { checked } from './fields.ts';

export const redirects = listFile({
  label: 'Redirects (old addresses)',
  file: 'src/content/data/redirects.yaml',
  ids: false,
  preview: false,
  hint: 'When a page moves or goes, its old address can lead to another page, so that links from search engines and old e-mails keep working.',
  itemLabel: (entry) => `${entry.from} → ${entry.to}`,
  fields: {
    from: checked({
      label: 'From (old address)',
      problem: (text) => addressProblem(text, 'from'),
      expects: 'an address',
      hint: 'An address of this site that is no page any more, e.g. "/old-page". Visitors, search engines and old e-mails that open it are sent to the new address.',
      about:
        'The old address, e.g. `/old-page`: a path of this site of at most 200 characters, in lowercase letters, digits, hyphens and single slashes, with no slash at the end, no `?…` and no `#…`. It must not be a page of the site (the redirect would hide the page), and only one entry may have it.',
    }),
    to: checked({
      label: 'To (new address)',
      problem: (text) => addressProblem(text, 'to'),
      expects: 'an address',
      hint: 'The page they land on instead, e.g. "/new-page", or a section of it: "/new-page#pricing".',
      about:
        "The page it leads to, a path as `from`, or a section of that page: `/contact#form`. It must be a page of the site, not another entry's old address (send it straight to the page, not along a chain of redirects), and never back to `from`.",
    }),
  },
});
