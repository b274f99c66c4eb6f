/**
 * A link of the content (an `href`: a path of this site), checked as the build checks it
 * (src/lib/content-checks.ts): a path, and a page of the site or an old address a redirect sends on
 * (src/editor/site.ts). A link to no page is said at the field, before Save, in the build's words.
 */
import type { BasicFormField } from '@keystatic/core';
import type { Rule } from '../../../domain/content-rules.ts';
import { currentSite } from '../../site.ts';
import { FieldError } from '../check.ts';
import { asString } from '../checked/index.tsx';
import { LinkInput } from './ui.tsx';
import { linkProblem } from './validate.ts';

/** `optional`: the site takes a default for an empty one (the field's hint says so). */
export function linkField(
  label: string,
  description: string | undefined,
  rule: Rule,
  { optional = false } = {},
): BasicFormField<string> {
  const problem = linkProblem(label, rule, optional);
  const validate = (href: string) => {
    const found = problem(href, currentSite());
    if (found) throw new FieldError(found);
    return href;
  };
  // As Keystatic's own text field keeps it: left out of the file when empty.
  const { parse, serialize } = asString('a link', true);
  return {
    kind: 'form',
    label,
    Input: (props) => (
      <LinkInput {...props} label={label} description={description} problem={problem} />
    ),
    defaultValue: () => '',
    parse,
    serialize: (href) => ({ value: serialize(href) }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}
