/** Text for HTML written by hand (src/domain/html-text.ts): whatever it is, it stays text. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlText } from '../../src/domain/html-text';
import { nasty, numRuns } from '../support/hostile-text';

const decoded = (html: string) =>
  html.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

describe('text for HTML written by hand', () => {
  it('starts no tag, ends no attribute and reads back as it was, whatever the string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), nasty), (text) => {
        const html = htmlText(text);
        expect(html).not.toMatch(/[<>"']/);
        expect(html.replace(/&#\d+;/g, '')).not.toContain('&');
        expect(decoded(html)).toBe(text);
      }),
      { numRuns },
    );
  });

  it('keeps a reference as text rather than letting it be read', () => {
    expect(htmlText('&lt;script&gt; "x" \'y\'')).toBe(
      '&#38;lt;script&#38;gt; &#34;x&#34; &#39;y&#39;',
    );
  });
});
