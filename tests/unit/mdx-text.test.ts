import { describe, expect, it } from 'vitest';
import { mdxBody, mdxCodeProblem } from '../../src/shared/mdx-text';

const file = (body: string) => `---\nslug: yii\nname: Yii\n---\n${body}`;

describe("a content file's MDX text", () => {
  it('is taken below its front matter, with the line it starts on', () => {
    expect(mdxBody(file('Words.\n'))).toEqual({ body: 'Words.\n', firstLine: 5 });
    expect(mdxBody('No front matter')).toEqual({ body: 'No front matter', firstLine: 1 });
  });

  it('passes as words: none, Markdown, and the braces and angles the editor escapes', () => {
    for (const body of [
      '',
      '\n\n',
      '## A heading\n\nSome **bold** words, a [link](/about) and a list:\n\n- one\n- two\n',
      'Prices from \\{5\\} and a \\<tag\\> written out, 3 > 2.\n',
    ])
      expect(mdxCodeProblem(file(body)), body).toBeUndefined();
  });

  it('refuses code of every kind MDX runs or renders, naming its line in the file', () => {
    const cases: [string, string][] = [
      ['\nexport const a = 1;\n', 'an import or export (line 6)'],
      ["import fs from 'node:fs';\n", 'an import or export (line 5)'],
      ['Words.\n\n{process.env.STAFF_SECRET}\n', 'an {expression} (line 7)'],
      ['Words and {1 + 1} inline.\n', 'an {expression} (line 5)'],
      ['<img src="x" onerror="alert(1)" />\n', 'a <tag> (line 5)'],
      ['Text with <b>a tag</b> inline.\n', 'a <tag> (line 5)'],
    ];
    for (const [body, said] of cases)
      expect(mdxCodeProblem(file(body)), body).toBe(
        `the page text holds ${said}: page text is words only, never code`,
      );
  });

  it('refuses text MDX cannot read', () => {
    expect(mdxCodeProblem(file('{ unclosed\n'))).toMatch(/^the page text cannot be read as MDX/);
  });
});
