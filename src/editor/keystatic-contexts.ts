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
