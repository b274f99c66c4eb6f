/**
 * Where Keystatic's own contexts of a field are kept for the editor's fields: Keystatic does not
 * export them, and src/editor/dev-server/keystatic-rewrites.ts puts them here as Vite pre-bundles
 * Keystatic. A list item's id field reads the other items' ids from them (fields/unique-id/).
 */
export const KEYSTATIC_CONTEXTS = 'editor:keystatic-contexts';

/** What Keystatic's slug context holds inside a list item's dialog: the other items' ids. */
export interface SlugInfo {
  field: string;
  slugs: ReadonlySet<string>;
}

/**
 * Where the entry a singleton's page edits is kept, as it is now (its `state`, each field's value),
 * for the editor's fields that check one item against the others of its list (a redirect against
 * the other redirects: fields/redirect/). src/editor/dev-server/keystatic-rewrites.ts puts it here
 * each time Keystatic draws the page, before the fields, and before Save checks them.
 */
export const EDITED_ENTRY = 'editor:edited-entry';

/** The entry the singleton `name`'s page edits now, or undefined (another page, or not yet drawn). */
export function editedSingleton(name: string): Record<string, unknown> | undefined {
  const edited = (globalThis as Record<symbol, unknown>)[Symbol.for(EDITED_ENTRY)] as
    { singleton?: unknown; state?: unknown } | undefined;
  return edited?.singleton === name && edited.state && typeof edited.state === 'object'
    ? (edited.state as Record<string, unknown>)
    : undefined;
}
