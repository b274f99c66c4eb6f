import { describe, expect, it } from 'vitest';
// Astro's own split, as @astrojs/mdx compiles a file (a package of Astro's, for the test alone).
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
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

  it('refuses a link that would run or show what it holds, however written; takes web, mail and phone', () => {
    const cases: [string, string][] = [
      ['A [link](javascript:alert(document.domain)).\n', 'javascript'],
      ['A [link](JaVaScRiPt:alert(1)).\n', 'JaVaScRiPt'],
      ['A [link](java&#x09;script:alert(1)).\n', 'javascript'],
      ['A [link](data:text/html;base64,PHNjcmlwdD4=).\n', 'data'],
      ['![A picture](vbscript:x)\n', 'vbscript'],
      ['[x]: javascript:alert(1)\n\nA [link][x].\n', 'javascript'],
    ];
    for (const [body, scheme] of cases)
      expect(mdxCodeProblem(file(body)), body).toBe(
        `the page text has a link to "${scheme}:…" (line 5): a link leads to a page of the site (/…) or a web address (https://…)`,
      );
    for (const body of [
      'A [page](/about), [a site](https://example.com), [mail](mailto:a@example.com), [call](tel:+441234).\n',
      'A [part](#pricing) and a [relative](contact) link.\n',
    ])
      expect(mdxCodeProblem(file(body)), body).toBeUndefined();
  });

  it('refuses a front matter Astro would end elsewhere, so that code cannot pass below it', () => {
    const code = "export const a = (await import('node:fs')).readFileSync('/etc/passwd');";
    const files = [
      `---\nslug: yii\n--- \n${code}\n---\n`, // a space after the dashes
      `---\nslug: yii\n---x\n${code}\n---\n`,
      `\n---\nslug: yii\n---\n${code}\n`, // a blank line first
      `+++\nslug = 'yii'\n+++\n${code}\n`, // TOML's
      `\uFEFF---\nslug: yii\n---\n${code}\n`,
    ];
    for (const text of files) {
      // Astro compiles the code in each: what the check refuses is what the build would run.
      expect(parseFrontmatter(text).content, JSON.stringify(text)).toContain('export const a');
      expect(mdxCodeProblem(text), JSON.stringify(text)).toMatch(
        /^the front matter must begin with a line of three dashes alone and end with one/,
      );
    }
    expect(mdxCodeProblem(files[0]!)).toContain('(line 3)');
    // Where both rules end it at the same line, its text is checked as before.
    const plain = file('Words.\n');
    expect(parseFrontmatter(plain).content.trim()).toBe('Words.');
    expect(mdxCodeProblem(plain)).toBeUndefined();
    expect(mdxCodeProblem(`---\r\nslug: yii\r\n---\r\nWords.\r\n`)).toBeUndefined();
  });

  it('refuses text MDX cannot read', () => {
    expect(mdxCodeProblem(file('{ unclosed\n'))).toMatch(/^the page text cannot be read as MDX/);
  });
});
