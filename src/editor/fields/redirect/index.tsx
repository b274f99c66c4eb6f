/**
 * A redirect's two addresses (src/content/data/redirects.yaml), each checked at its field as the
 * build checks the whole list (src/domain/redirects.ts, `redirectProblems`): an old address that is
 * a page of the site or that another item has too, a new one that is no page, a chain, a loop. An
 * item is checked against the others as they are being edited (Keystatic's state of the Redirects
 * page, ../../keystatic-contexts.ts) and against the site's pages (../../site.ts).
 *
 * Keystatic hands a field its own value alone, and edits a list item in place: an item of the
 * list is found there by its value (two items with one value are both wrong, or both right). A new
 * item, in the "Add item" dialog, is not in the list yet: it is checked as if added at the end, with
 * the other address as its field in that dialog was last drawn (`drawn`).
 */
import type { BasicFormField } from '@keystatic/core';
import { useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { RedirectField } from '../../../domain/redirects.ts';
import type { CheckedField } from '../../../content-model/fields.ts';
import { editedSingleton } from '../../keystatic-contexts.ts';
import { currentSite, subscribeSite } from '../../site.ts';
import { FieldError } from '../check.ts';
import { asString } from '../checked/index.tsx';
import { CheckedText } from '../checked/ui.tsx';
import { editedRedirects, redirectFieldProblem } from './validate.ts';

/** The singleton whose list these items are. */
const REDIRECTS = 'redirects';

/** Each address as its field was last drawn: the other field of a new item's dialog. */
const drawn: Partial<Record<RedirectField, string>> = {};

const other = (field: RedirectField): RedirectField => (field === 'from' ? 'to' : 'from');

function problemAt(field: RedirectField, value: string, adding: boolean) {
  const list = editedRedirects(editedSingleton(REDIRECTS)?.entries);
  const item = adding
    ? { [field]: value, [other(field)]: drawn[other(field)] ?? '' }
    : { [field]: value };
  return redirectFieldProblem(field, item, list, currentSite(), adding);
}

/** Whether the field is drawn in the dialog of an item not yet added to its list. */
function useAdding() {
  const at = useRef<HTMLDivElement>(null);
  const [adding, setAdding] = useState(false);
  useLayoutEffect(() => {
    const heading = at.current?.closest('[role="dialog"]')?.querySelector('h2')?.textContent;
    setAdding(heading?.trim() === 'Add item');
  }, []);
  return { at, adding };
}

/** One address of a redirect, declared by the content model; `field`, which. */
export function redirectAddressField(
  field: RedirectField,
  { label, hint }: CheckedField,
): BasicFormField<string> {
  const validate = (value: string) => {
    const found = problemAt(field, value, false);
    if (found) throw new FieldError(found);
    return value;
  };
  const { parse, serialize } = asString('an address');
  return {
    kind: 'form',
    label,
    Input: function RedirectAddress(props) {
      // Drawn again once the site's pages are known.
      useSyncExternalStore(subscribeSite, currentSite, () => undefined);
      const { at, adding } = useAdding();
      drawn[field] = props.value;
      return (
        <div ref={at}>
          <CheckedText
            {...props}
            label={label}
            description={hint}
            problem={(value) => problemAt(field, value, adding)}
          />
        </div>
      );
    },
    defaultValue: () => '',
    parse,
    serialize: (value) => ({ value: serialize(value) }),
    validate,
    reader: { parse: (value) => validate(parse(value)) },
  };
}
