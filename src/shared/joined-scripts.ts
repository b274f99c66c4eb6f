/**
 * Inline scripts joined into one, by the build (src/integrations/fewer-scripts.ts), and taken apart
 * again by the server (src/server/http/server.ts): a joined script is allowed by a page's CSP only
 * when each of its parts is a script that Astro hashed, so that joining lets nothing run that would
 * not have run before (a script written into the content, say).
 */

export type ScriptKind = 'module' | 'classic';

const START = 'try{';
const END = '\n}catch(e){setTimeout(()=>{throw e})}';
// A module script's code runs in a function of its own, so that its names stay its own.
const OPEN = '(()=>{';
const CLOSE = '\n})()';

/** Whether `code` can be a part: one that holds what separates parts would not come apart again. */
export const joinable = (code: string) => !code.includes(END);

/**
 * The codes as one script of `kind`, run in their order, each apart: an error in one stops only it,
 * and is still reported (thrown again from a timer).
 */
export const joinScripts = (codes: string[], kind: ScriptKind) =>
  codes.map((code) => START + (kind === 'module' ? OPEN + code + CLOSE : code) + END).join('');

/** The codes that make up a script joined by `joinScripts`, or undefined if it is not one. */
export function joinedParts(code: string, kind: ScriptKind): string[] | undefined {
  if (!code.startsWith(START) || !code.endsWith(END)) return undefined;
  const parts = code.slice(START.length, -END.length).split(END + START);
  if (kind === 'classic') return parts;
  if (!parts.every((part) => part.startsWith(OPEN) && part.endsWith(CLOSE))) return undefined;
  return parts.map((part) => part.slice(OPEN.length, -CLOSE.length));
}
