/**
 * Fewer inline scripts in a prerendered page (./single-style-pages.ts applies it in the build). Each
 * inline script costs the page a hash of some 55 bytes in its CSP header (src/server/http/server.ts
 * lists the page's own, a joined one when Astro hashed each of its parts), and a page's first
 * response, headers included, must fit one round trip; each module script is also a module of its
 * own for the browser to compile and link.
 */
import { transformSync } from 'esbuild';
import { inlineElements, replaceElements, type InlineElement } from '../shared/inline-elements.ts';
import { joinable, joinScripts } from '../shared/joined-scripts.ts';

/** An arrow function called at once: what Astro's own inline scripts (its islands' runtime) are. */
const IIFE = /^\(\(\)=>\{[\s\S]*\}\)\(\);?$/;

/**
 * Astro's script of a client directive (`client:visible`, this project's `client:interaction`): it
 * only defines its directive on the global `Astro` and says so with an event, which an island
 * waiting for it hears. Astro writes each before the first island that uses it; it may run earlier.
 */
const DIRECTIVE =
  /\(self\.Astro\|\|\(self\.Astro=\{\}\)\)\.\w+=\w+;window\.dispatchEvent\(new Event\("astro:\w+"\)\);\}\)\(\);?$/;

/** Whether code fails to parse (esbuild says so by throwing). */
const refused = (code: string, format: 'esm' | 'iife') => {
  try {
    transformSync(code, { loader: 'js', format, logLevel: 'silent' });
    return false;
  } catch {
    return true;
  }
};

/**
 * Whether a module script's code runs the same inside a function: no import or export statement
 * (refused inside one) and no top-level await (refused by an IIFE's format).
 */
const runsInFunction = (code: string) =>
  !refused(`(()=>{${code}\n})`, 'esm') && !refused(code, 'iife');

/**
 * The page with its inline module scripts run, in the same order, from one, where the last of them
 * stood (module scripts run after the page is parsed, in order, wherever they are), each in a
 * function of its own so that their names stay apart; and each run of inline classic scripts with
 * nothing between them, each an arrow function called at once, joined, the first run with the
 * later directives' scripts. A page that loads a module or deferred script from a file keeps its
 * module scripts as they are (it runs among them).
 */
export function fewerScripts(html: string): string {
  const scripts = inlineElements(html, 'script');
  const external = scripts.some(
    ({ attributes }) => /\bsrc=/.test(attributes) && /\btype="module"|\bdefer\b/.test(attributes),
  );
  const modules = external
    ? []
    : scripts.filter(
        ({ attributes, content }) =>
          attributes === 'type="module"' && joinable(content) && runsInFunction(content),
      );

  // What replaces each script: one element for the last module script, nothing for the other ones.
  const replace = new Map<InlineElement, string>();
  if (modules.length > 1) {
    for (const script of modules) replace.set(script, '');
    const joined = joinScripts(
      modules.map(({ content }) => content),
      'module',
    );
    replace.set(modules.at(-1)!, `<script type="module">${joined}</script>`);
  }
  const classic = scripts.filter(
    ({ attributes, content }) =>
      attributes === '' && IIFE.test(content.trim()) && joinable(content),
  );
  const directives = classic.slice(1).filter(({ content }) => DIRECTIVE.test(content.trim()));
  const staying = classic.filter((script) => !directives.includes(script));
  for (let i = 0; i < staying.length;) {
    let j = i + 1;
    while (j < staying.length && !html.slice(staying[j - 1]!.end, staying[j]!.at).trim()) j++;
    const run = [...staying.slice(i, j), ...(i === 0 ? directives : [])];
    if (run.length > 1) {
      for (const script of run) replace.set(script, '');
      const joined = joinScripts(
        run.map(({ content }) => content),
        'classic',
      );
      replace.set(run[0]!, `<script>${joined}</script>`);
    }
    i = j;
  }
  return replaceElements(html, replace);
}
