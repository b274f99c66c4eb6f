// The project the editor's browser tests work in: a copy of this one in the temporary folder, so that
// their saves and uploads never touch the working tree, their `astro dev` is not the developer's own
// (Astro allows one dev server per project), and `npm test` can run them beside the phases that read
// src/content (./project-copy.mjs makes it).
//
// Usage: node scripts/editor-project.mjs [--copy NAME] -- <astro dev arguments>   makes a fresh copy
// and runs `astro dev` in it until stopped (playwright.editor.config.ts's two web servers, `first`
// and `second`, each in its copy). The tests find a copy with `editorProject(NAME)`.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyProject } from './project-copy.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * Where a copy of this project lives: one per clone and name, so that two clones' runs do not meet.
 * Its dev server's output is also written beside it, to `<copy>.log` (outside the copy, whose files
 * the dev server watches), for a failed test to quote (tests/editor/content.ts, `devServerLog`).
 */
export const editorProject = (name = 'editing') =>
  join(
    tmpdir(),
    `editor-test-${createHash('sha1').update(root).digest('hex').slice(0, 10)}-${name}`,
  );

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = process.argv.slice(2, process.argv.indexOf('--'));
  const name = options[0] === '--copy' && options[1] ? options[1] : undefined;
  const copy = editorProject(name);
  copyProject(root, copy);
  const args = process.argv.slice(process.argv.indexOf('--') + 1);
  const log = createWriteStream(`${copy}.log`);
  const server = spawn(
    process.execPath,
    [join(root, 'node_modules/astro/bin/astro.mjs'), 'dev', ...args],
    { cwd: copy, stdio: ['inherit', 'pipe', 'pipe'] },
  );
  server.stdout.on('data', (chunk) => (process.stdout.write(chunk), log.write(chunk)));
  server.stderr.on('data', (chunk) => (process.stderr.write(chunk), log.write(chunk)));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => {
    rmSync(copy, { recursive: true, force: true });
    rmSync(`${copy}.log`, { force: true });
    process.exit(code ?? (signal ? 1 : 0));
  });
}
