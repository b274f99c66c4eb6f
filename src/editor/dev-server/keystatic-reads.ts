/**
 * Keystatic's local API lists the project's folders, then reads each file it listed. A file renamed
 * or deleted in between (a rename's links moved, a Save in another tab, a `git checkout`) failed the
 * whole read with ENOENT, and with it the request: the tree a tab asks for after every write, and a
 * Save's own answer, though that Save had written. The dev server then showed the error over the
 * editor, in front of its Save button. Keystatic already takes a folder that is gone for an empty
 * one; a file that is gone is now left out the same way, and the next read finds it where it went.
 *
 * Keystatic's API is a package Node loads itself, in both processes that serve it: its module is
 * rewritten as Node loads it. The hook is put in place as the dev server starts (./editor.ts), and in
 * the live site's helper by the API's own route before it loads Keystatic's (./keystatic-api.ts).
 */
import { registerHooks } from 'node:module';
import { rewriteKeystatic, type Rewrite } from './keystatic-rewrites.ts';

export const treeReadRewrites: Rewrite[] = [
  {
    module: 'async function collectEntriesInDir(',
    from: `      const contents = await fs.readFile(path.join(baseDir, innerPath));`,
    to: `      let contents;
      try {
        contents = await fs.readFile(path.join(baseDir, innerPath));
      } catch (err) {
        if (err.code === 'ENOENT') return [];
        throw err;
      }`,
  },
];

/** Keystatic's module that reads the local tree (its name carries a hash of its text). */
const TREE_READER = /@keystatic[\\/]core[\\/]dist[\\/]read-local-[\w-]+\.node\.js$/;

/** A module's code as the editor has it: rewritten for Keystatic's tree reader, else `null`. */
export const rewriteTreeRead = (code: string, id: string) =>
  TREE_READER.test(id) ? rewriteKeystatic(code, id, treeReadRewrites) : null;

/**
 * Rewrites Keystatic's tree reader as Node loads it in this process, once: a dev server restarted
 * in the same process sets up again, and a second hook would find the text already rewritten.
 */
export function tolerateFilesGoneWhileRead() {
  const key = Symbol.for('editor.keystatic-reads');
  const registered = globalThis as { [key]?: true };
  if (registered[key]) return;
  registered[key] = true;
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!TREE_READER.test(url) || loaded.source == null) return loaded;
      const source =
        typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
      const rewritten = rewriteTreeRead(source, url);
      return rewritten ? { ...loaded, source: rewritten } : loaded;
    },
  });
}
