import { createContext, useContext, type Context } from 'react';
import { KEYSTATIC_CONTEXTS, type SlugInfo } from '../../keystatic-contexts.ts';
import { CheckedText } from '../checked/ui.tsx';
import { noIds } from './validate.ts';

const noSlugInfo = createContext<SlugInfo | undefined>(undefined);
const noPath = createContext<readonly unknown[]>([]);

/**
 * The ids of the other items of the list whose item's dialog holds this field, as Keystatic's own
 * id fields read them (its context, made available by src/editor/dev-server/keystatic-rewrites.ts); none
 * where Keystatic gives none. Read on each render, so a later Keystatic without it still renders.
 */
function useOtherIds(): ReadonlySet<string> {
  const contexts = (globalThis as Record<symbol, unknown>)[Symbol.for(KEYSTATIC_CONTEXTS)] as
    | { SlugFieldContext: Context<SlugInfo | undefined>; PathContext: Context<readonly unknown[]> }
    | undefined;
  const slug = useContext(contexts?.SlugFieldContext ?? noSlugInfo);
  const path = useContext(contexts?.PathContext ?? noPath);
  // As Keystatic checks it: the item's own field, directly under the item.
  return slug && path.length === 1 && path[0] === slug.field ? slug.slugs : noIds;
}

/** A list item's id, checked at the field against the other items' ids too. */
export function UniqueIdInput(
  props: Parameters<typeof CheckedText>[0] & {
    problem(id: string, others: ReadonlySet<string>): string | undefined;
  },
) {
  const others = useOtherIds();
  // Another item's id is said at once, as the item's row says it, not only once the field is left.
  return (
    <CheckedText
      {...props}
      forceValidation={props.forceValidation || others.has(props.value)}
      problem={(id) => props.problem(id, others)}
    />
  );
}
