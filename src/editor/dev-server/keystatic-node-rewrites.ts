/**
 * Keystatic's server side is a package Node loads itself, in both processes that serve its API (the
 * dev server, the live site's helper): its modules are rewritten as Node loads them, by a hook put in
 * place before the API is first loaded (./editor.ts, ./keystatic-api.ts).
 */
import { registerHooks } from 'node:module';
import { rewriteKeystatic, type Rewrite } from './keystatic-rewrites.ts';

/** The code of the module at `id` as the editor has it: rewritten if `module` is its file, else `null`. */
export const rewriteModule = (
  module: RegExp,
  rewrites: readonly Rewrite[],
  code: string,
  id: string,
) => (module.test(id) ? rewriteKeystatic(code, id, rewrites) : null);

/**
 * Rewrites the module matching `module` as Node loads it in this process, once for `name`: a dev
 * server restarted in the same process sets up again, and a second hook would find the text already
 * rewritten.
 */
export function rewriteAsNodeLoads(name: string, module: RegExp, rewrites: readonly Rewrite[]) {
  const key = Symbol.for(name);
  const registered = globalThis as { [key]?: true };
  if (registered[key]) return;
  registered[key] = true;
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!module.test(url) || loaded.source == null) return loaded;
      const source =
        typeof loaded.source === 'string' ? loaded.source : new TextDecoder().decode(loaded.source);
      const rewritten = rewriteModule(module, rewrites, source, url);
      return rewritten ? { ...loaded, source: rewritten } : loaded;
    },
  });
}
