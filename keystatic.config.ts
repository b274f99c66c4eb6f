// The visual editor's schema, where @keystatic/astro looks for it; it lives in src/editor/.
export { default } from './src/editor/schema.ts';
