/**
 * Keystatic's local API lists the project's folders, then reads each file it listed. A file renamed
 * or deleted in between (a rename's links moved, a Save in another tab, a `git checkout`) failed the
 * whole read with ENOENT, and with it the request: the tree a tab asks for after every write, and a
 * Save's own answer, though that Save had written. The dev server then showed the error over the
 * editor, in front of its Save button. Keystatic already takes a folder that is gone for an empty
 * one; a file that is gone is now left out the same way, and the next read finds it where it went.
 *
 * Rewritten as Node loads it (./keystatic-node-rewrites.ts).
 */
import { rewriteAsNodeLoads, rewriteModule } from './keystatic-node-rewrites.ts';
import type { Rewrite } from './keystatic-rewrites.ts';

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
  rewriteModule(TREE_READER, treeReadRewrites, code, id);

/** Rewrites Keystatic's tree reader as Node loads it in this process. */
export const tolerateFilesGoneWhileRead = () =>
  rewriteAsNodeLoads('editor.keystatic-reads', TREE_READER, treeReadRewrites);
