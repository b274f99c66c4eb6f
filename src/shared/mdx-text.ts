/**
 * A content file's MDX text is text: Markdown, never code. MDX runs its `import`s, `export`s and
 * `{expressions}` as JavaScript when the site is built, and a page's text is written by marketers,
 * on the live site too (its draft is built on the server): one `export` could read the server's
 * keys into a page. No content file needs code (the blocks are fields; the text is rich text), so
 * the build refuses any (../integrations/content-without-code.ts) before MDX compiles it, and the
 * editor refuses it at Save (src/editor/dev-server/site-checks.ts).
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { mdxFromMarkdown } from 'mdast-util-mdx';
import { mdxjs } from 'micromark-extension-mdxjs';

/** What MDX has beyond Markdown: script, and JSX (a component, or HTML that can carry script). */
const CODE: Record<string, string> = {
  mdxjsEsm: 'an import or export',
  mdxFlowExpression: 'an {expression}',
  mdxTextExpression: 'an {expression}',
  mdxJsxFlowElement: 'a <tag>',
  mdxJsxTextElement: 'a <tag>',
};

interface Node {
  type: string;
  position?: { start: { line: number } };
  children?: Node[];
  /** A link's, a picture's or a link definition's address. */
  url?: string;
}

/**
 * The schemes a link of a page's text may have: a web address, an e-mail or a phone number (or
 * none: an address of the site). Any other (`javascript:`, `data:`) would run or show what the
 * link holds; the page's policy stops it today, but the text should not depend on that.
 */
const LINK_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

/** A link's scheme as a browser reads it (tabs and line breaks dropped, leading controls trimmed). */
const schemeOf = (url: string) =>
  /^([a-z][a-z\d+.-]*):/i.exec(url.replace(/[\t\n\r]/g, '').replace(/^[\0-\x20]+/, ''))?.[1];

function unsafeLink(node: Node): Node | undefined {
  const scheme = node.url === undefined ? undefined : schemeOf(node.url);
  if (scheme && !LINK_SCHEMES.has(scheme.toLowerCase())) return node;
  for (const child of node.children ?? []) {
    const found = unsafeLink(child);
    if (found) return found;
  }
  return undefined;
}

/** A content file's front matter between its `---` lines (group 1), and the line break after. */
export const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

/**
 * Where Astro ends a file's front matter, for @astrojs/mdx and the content layer alike
 * (@astrojs/internal-helpers' frontmatter.js): after blank lines, a byte-order mark or nothing, at
 * the first line that begins with `---` (or `+++`), whatever follows it there. What MDX compiles
 * is what comes after; a file whose front matter the two rules end apart is refused, or an
 * `export` below a `--- ` line would be front matter to the check and code to the build.
 */
const ASTRO_FRONT_MATTER = /(?:^\uFEFF?|^\s*\n)(?:---|\+\+\+)([\s\S]*?\n)(?:---|\+\+\+)/;

/** The line of `file` on which its front matter ends by Astro's rule, where ours ends it otherwise. */
function frontMatterApart(file: string): number | undefined {
  const astro = ASTRO_FRONT_MATTER.exec(file);
  if (!astro) return undefined;
  const ours = FRONT_MATTER.exec(file);
  const astroEnd = astro.index + astro[0].length;
  const oursEnd = ours && ours[0].replace(/\r?\n$/, '').length;
  return oursEnd === astroEnd ? undefined : file.slice(0, astroEnd).split('\n').length;
}

/** The text below a file's front matter, and the line it starts on. */
export function mdxBody(file: string): { body: string; firstLine: number } {
  const match = FRONT_MATTER.exec(file);
  if (!match) return { body: file, firstLine: 1 };
  return { body: file.slice(match[0].length), firstLine: match[0].split('\n').length };
}

/**
 * Why a file's MDX text is not plain text, with its line in the file, or undefined. Text MDX cannot
 * read is refused too: the build would fail on it.
 */
export function mdxCodeProblem(file: string): string | undefined {
  const apart = frontMatterApart(file);
  if (apart)
    return `the front matter must begin with a line of three dashes alone and end with one, first thing in the file (line ${apart})`;
  const { body, firstLine } = mdxBody(file);
  if (!body.trim()) return undefined;
  let tree: Node;
  try {
    tree = fromMarkdown(body, {
      extensions: [mdxjs()],
      mdastExtensions: [mdxFromMarkdown()],
    }) as Node;
  } catch (error) {
    const line = (error as { line?: number }).line;
    return `the page text cannot be read as MDX${line ? ` (line ${line + firstLine - 1})` : ''}: write it as plain text`;
  }
  const lineOf = (node: Node) => (node.position?.start.line ?? 1) + firstLine - 1;
  const found = codeIn(tree);
  if (found)
    return `the page text holds ${CODE[found.type]} (line ${lineOf(found)}): page text is words only, never code`;
  const link = unsafeLink(tree);
  if (link)
    return `the page text has a link to "${schemeOf(link.url!)}:…" (line ${lineOf(link)}): a link leads to a page of the site (/…) or a web address (https://…)`;
  return undefined;
}

function codeIn(node: Node): Node | undefined {
  if (node.type in CODE) return node;
  for (const child of node.children ?? []) {
    const found = codeIn(child);
    if (found) return found;
  }
  return undefined;
}
