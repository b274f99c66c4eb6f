/**
 * Keystatic's local API writes a Save's files in place (`fs.writeFile`: the file is emptied, then
 * written). Whatever read a file in that moment found it empty or half written: Astro's content
 * layer in the dev server logged "Error reading data from ./src/content/data/testimonials.yaml", and
 * the dev site's data failed to load until the next change. Each file is now written whole under a
 * name of its own beside it (a dot file no content folder's pattern takes), given the old file's
 * mode, and renamed into place: a reader finds the old file or the new one, never a part.
 *
 * Rewritten as Node loads Keystatic's API (./keystatic-node-rewrites.ts), as its tree read is
 * (./keystatic-reads.ts).
 */
import { basename } from 'node:path';
import { rewriteAsNodeLoads, rewriteModule } from './keystatic-node-rewrites.ts';
import type { Rewrite } from './keystatic-rewrites.ts';

/** The end of the name a Save's file has while it is written, before it is renamed into place. */
const WRITING = '.saving';

/**
 * Whether a file is one of a Save's, still being written: the history and the tabs wait for the file
 * it becomes. (Its removal by the rename is heard some 100 ms late, after the Save has answered, and
 * would start the history's wait for changes by hand anew.)
 */
export const beingWritten = (file: string) =>
  basename(file).startsWith('.') && file.endsWith(WRITING);

export const writeRewrites: Rewrite[] = [
  {
    module: 'async function update(req, config, baseDirectory) {',
    from: `    await fs.writeFile(path.join(baseDirectory, addition.path), addition.contents);`,
    to: `    const target = path.join(baseDirectory, addition.path);
    const whole = path.join(path.dirname(target), \`.\${path.basename(target)}.\${process.pid}-\${Math.random().toString(36).slice(2)}${WRITING}\`);
    await fs.writeFile(whole, addition.contents, { flag: 'wx' });
    try {
      const mode = await fs.stat(target).then((stats) => stats.mode & 0o7777, () => undefined);
      if (mode !== undefined) await fs.chmod(whole, mode);
      await fs.rename(whole, target);
    } catch (err) {
      await fs.rm(whole, { force: true });
      throw err;
    }`,
  },
];

/** Keystatic's module that answers its local API (the generic handler, Node's build of it). */
const API = /@keystatic[\\/]core[\\/]dist[\\/]keystatic-core-api-generic\.node\.js$/;

/** A module's code as the editor has it: rewritten for Keystatic's API, else `null`. */
export const rewriteUpdate = (code: string, id: string) =>
  rewriteModule(API, writeRewrites, code, id);

/** Rewrites Keystatic's API as Node loads it in this process. */
export const writeSavesWhole = () =>
  rewriteAsNodeLoads('editor.keystatic-writes', API, writeRewrites);
