/**
 * Text for HTML written by hand rather than by Astro or React, which escape their own: an element's
 * text, or an attribute's value in double or single quotes. No tag can start in it and no attribute
 * can end: each of & < > " ' becomes its numeric character reference. One rule for every page made
 * this way (the server's answers, the field-data report, the editor's pages, an icon's label).
 */
export const htmlText = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
