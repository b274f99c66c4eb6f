/**
 * The content's links to one address of the site, found and rewritten in the files themselves, for
 * the visual editor (`astro dev` only): when a page's address changes or a page is deleted, the
 * editor lists the files that link to it and offers to point them at the new address. The links
 * are those the build checks (src/lib/content-checks.ts): an `href` of a YAML file or an MDX file's
 * front matter, and a Markdown or HTML link of an MDX body. Only the address is rewritten: a
 * trailing slash, a query or a fragment stays, and so does every other byte of the file.
 */
import { readFileSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const CONTENT = 'src/content';
const TEXT_FILES = /\.(ya?ml|mdx?)$/;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The links to `address` in a file's text: what comes before it, the address, and its end. */
const linkPattern = (address: string) =>
  new RegExp(
    // `href: /a`, `href: '/a'` (YAML); `](/a` (Markdown); `href="/a` (HTML)
    `(\\bhref:[ \\t]*['"]?|\\]\\(|\\bhref=["'])${escape(address)}(?=/?(?:[?#'"\\s)]|$))`,
    'gm',
  );

/** Every content file, as a path from the project's folder ('src/content/pages/home.yaml'). */
export async function contentFiles(root: string): Promise<string[]> {
  const entries = await readdir(join(root, CONTENT), { recursive: true, withFileTypes: true });
  return (
    entries
      .filter((entry) => entry.isFile() && TEXT_FILES.test(entry.name))
      // relative(), not a slice: a root may end with a slash (a folder's URL made a path).
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/'))
      .sort()
  );
}

export interface LinkingFile {
  file: string;
  /** How many links to the address it holds. */
  links: number;
}

/**
 * A content file's text, or undefined if it is gone: a file listed a moment ago may have been
 * renamed or deleted since, by a Save under way (a rename's answer asks for the links at once).
 */
export async function contentText(root: string, file: string): Promise<string | undefined> {
  try {
    // At once, not through the thread pool: every check reads the whole content, some 60 small
    // files, and each asynchronous read (open, stat, read, close, each a trip to the pool) cost the
    // dev server several times the read itself.
    return readFileSync(join(root, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The files that link to `address` ('/iphone'), with how many links each holds. */
export async function filesLinkingTo(root: string, address: string): Promise<LinkingFile[]> {
  const found: LinkingFile[] = [];
  for (const file of await contentFiles(root)) {
    const links = (await contentText(root, file))?.match(linkPattern(address))?.length;
    if (links) found.push({ file, links });
  }
  return found;
}

/** `text` with its links to `from` pointed at `to`. */
const pointed = (text: string, from: string, to: string) =>
  // A function, so that `$` in an address is never read as a replacement pattern.
  text.replace(linkPattern(from), (_, before: string) => `${before}${to}`);

/**
 * Undoes one "Point them at" in a file's text now: `before` and `after` are the file's text on
 * each side of that move, which pointed its links to `from` elsewhere. Each line it changed that
 * still reads as it left it (found by its neighbours, if the file changed around it since) gets its
 * links to `from` back, pointed at `at`. Returns the text and how many links it pointed back.
 */
export function linksBack(before: string, after: string, now: string, from: string, at: string) {
  const [old, moved, lines] = [before, after, now].map((text) => text.split('\n')) as [
    string[],
    string[],
    string[],
  ];
  let links = 0;
  // A move changes addresses within lines: the two texts' lines match one for one.
  if (old.length !== moved.length) return { text: now, links };
  const taken = new Set<number>();
  old.forEach((line, i) => {
    if (line === moved[i]) return;
    const j = placeOf(moved, i, lines, taken);
    if (j === undefined) return;
    taken.add(j);
    lines[j] = from === at ? line : pointed(line, from, at);
    links += line.match(linkPattern(from))?.length ?? 0;
  });
  return { text: lines.join('\n'), links };
}

/**
 * Where line `i` of `text` is in `lines`: the same line, with most of the same neighbours (three
 * each side); none if no neighbour is the same, or two places are as likely.
 */
function placeOf(text: string[], i: number, lines: string[], taken: Set<number>) {
  let best: { j: number; score: number } | undefined;
  let tie = false;
  lines.forEach((line, j) => {
    if (line !== text[i] || taken.has(j)) return;
    let score = 0;
    for (let k = 1; k <= 3; k++) {
      if (i - k >= 0 && lines[j - k] === text[i - k]) score++;
      if (i + k < text.length && lines[j + k] === text[i + k]) score++;
    }
    // A line alone is no place: at least one neighbour must be the same.
    if (score === 0) return;
    // The same place wins a tie: a file unchanged since.
    if (j === i) score += 0.5;
    if (!best || score > best.score) [best, tie] = [{ j, score }, false];
    else if (score === best.score) tie = true;
  });
  return best && !tie ? best.j : undefined;
}

/** Points every link to `from` at `to` instead; returns the files it changed. */
export async function moveLinks(root: string, from: string, to: string): Promise<LinkingFile[]> {
  const changed: LinkingFile[] = [];
  for (const { file, links } of await filesLinkingTo(root, from)) {
    const path = join(root, file);
    await writeFile(path, pointed(readFileSync(path, 'utf8'), from, to));
    changed.push({ file, links });
  }
  return changed;
}
