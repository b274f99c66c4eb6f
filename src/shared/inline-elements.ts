/**
 * A page's inline <script> and <style> elements, found as the build writes them and the server reads
 * them: the build's middleware joins them (src/integrations/single-style-pages.ts,
 * src/integrations/fewer-scripts.ts), the server hashes what is left (src/server/http/server.ts).
 */

export interface InlineElement {
  /** Where the element starts and ends in the page. */
  at: number;
  end: number;
  /** Its attributes as written, trimmed ('' for none). */
  attributes: string;
  content: string;
}

/** The page's elements of `tag`, in order. */
export const inlineElements = (html: string, tag: 'script' | 'style'): InlineElement[] =>
  [...html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => ({
    at: m.index,
    end: m.index + m[0].length,
    attributes: (m[1] ?? '').trim(),
    content: m[2]!,
  }));

/** The page with each element of `instead` written as the text given for it ('' removes it). */
export function replaceElements(html: string, instead: Map<InlineElement, string>): string {
  if (!instead.size) return html;
  let out = '';
  let from = 0;
  for (const [element, text] of [...instead].sort(([a], [b]) => a.at - b.at)) {
    out += html.slice(from, element.at) + text;
    from = element.end;
  }
  return out + html.slice(from);
}
