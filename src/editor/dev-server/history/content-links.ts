/**
 * The content's links to one address of the site, found and rewritten in the files themselves, for
 * the visual editor (`astro dev` only): when a page's address changes or a page is deleted, the
 * editor lists the files that link to it and offers to point them at the new address. The links
 * are those the build checks (src/lib/content-checks.ts): an `href` of a YAML file or an MDX file's
 * front matter, and a Markdown or HTML link of an MDX body. Only the address is rewritten: a
 * trailing slash, a query or a fragment stays, and so does every other byte of the file.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

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
  return entries
    .filter((entry) => entry.isFile() && TEXT_FILES.test(entry.name))
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(root.length + 1)
        .replaceAll('\\', '/'),
    )
    .sort();
}

export interface LinkingFile {
  file: string;
  /** How many links to the address it holds. */
  links: number;
}

/** The files that link to `address` ('/iphone'), with how many links each holds. */
export async function filesLinkingTo(root: string, address: string): Promise<LinkingFile[]> {
  const found: LinkingFile[] = [];
  for (const file of await contentFiles(root)) {
    const links = (await readFile(join(root, file), 'utf8')).match(linkPattern(address))?.length;
    if (links) found.push({ file, links });
  }
  return found;
}

/** Points every link to `from` at `to` instead; returns the files it changed. */
export async function moveLinks(root: string, from: string, to: string): Promise<LinkingFile[]> {
  const changed: LinkingFile[] = [];
  for (const { file, links } of await filesLinkingTo(root, from)) {
    const path = join(root, file);
    const text = await readFile(path, 'utf8');
    // A function, so that `$` in an address is never read as a replacement pattern.
    await writeFile(
      path,
      text.replace(linkPattern(from), (_, before: string) => `${before}${to}`),
    );
    changed.push({ file, links });
  }
  return changed;
}
