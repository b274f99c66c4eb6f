// The options of the project's own scripts (`npm test`, `test:stress`, the benches, the calibration,
// the content scripts), answered as the site's commands answer theirs (src/server/command-args.ts):
// `--help` prints the script's header (this kind of comment, at its top), and a mistyped or
// incomplete option says what is wrong, then the header's "Usage:" paragraph (exit 2), where
// parseArgs threw a stack trace.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commandArgs } from '../src/server/command-args.ts';

/** The script's header: the `//` lines it starts with, without their slashes. */
function header(scriptUrl) {
  const lines = [];
  for (const line of readFileSync(fileURLToPath(scriptUrl), 'utf8').split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join('\n');
}

/** parseArgs(config) for the script at `scriptUrl` (its import.meta.url), or the process ends. */
export function scriptArgs(scriptUrl, config) {
  const help = header(scriptUrl);
  const usage = /^Usage:.*(?:\n(?!\n).*)*/m.exec(help)?.[0] ?? '';
  return commandArgs(usage, config, help);
}
