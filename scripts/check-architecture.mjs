// Checks the import rules of .dependency-cruiser.cjs over src/, .astro files included: dependency-cruiser
// cannot parse .astro, so each is read into a TypeScript file of its imports (frontmatter and <script>s)
// in a mirror of the tree, named X.astro.ts so that an import of './X.astro' still resolves to it.
// Then the length of every function of the server and src/lib (./function-lengths.mjs).
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { EXCEPTIONS, FOLDERS, MAX_LINES, lengthProblems } from './function-lengths.mjs';

// The tree to check: this project, or another given as the first argument (the rules' own test).
const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;
const rules = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs'));

/** The import statements of an .astro file: its frontmatter and its <script> elements. */
export function astroImports(source) {
  const parts = [source.match(/^---\n([\s\S]*?)\n---/)?.[1] ?? ''];
  for (const [, script] of source.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g))
    parts.push(script);
  return parts
    .flatMap((part) => part.match(/^\s*(?:import|export)\b[\s\S]*?['"][^'"]+['"];?/gm) ?? [])
    .join('\n');
}

const mirror = mkdtempSync(join(tmpdir(), 'architecture-'));
try {
  cpSync(join(root, 'src'), join(mirror, 'src'), {
    recursive: true,
    filter: (path) => !path.includes(`${join(root, 'src', 'content')}/`) || /\.ts$/.test(path),
  });
  symlinkSync(join(root, 'node_modules'), join(mirror, 'node_modules'));
  for (const entry of readdirSync(join(mirror, 'src'), { recursive: true })) {
    if (!entry.endsWith('.astro')) continue;
    const path = join(mirror, 'src', entry);
    writeFileSync(`${path}.ts`, astroImports(readFileSync(path, 'utf8')));
    rmSync(path);
  }
  process.chdir(mirror);
  const { output, exitCode } = await cruise(['src'], {
    ...rules.options,
    validate: true,
    ruleSet: { forbidden: rules.forbidden },
    outputType: 'err-long',
  });
  const text = String(output).replaceAll('.astro.ts', '.astro').replaceAll(`${mirror}/`, '');
  process.stdout.write(text);
  if (exitCode === 0) console.log('The import rules of .dependency-cruiser.cjs hold.');
  process.exitCode = exitCode;
} finally {
  rmSync(mirror, { recursive: true, force: true });
}

const problems = lengthProblems(root);
for (const problem of problems) console.log(problem);
const left = EXCEPTIONS.size ? ` (but ${[...EXCEPTIONS.keys()].join(', ')}, for now)` : '';
if (problems.length > 0) process.exitCode = 1;
else
  console.log(`Every function in ${FOLDERS.join(' and ')} is ${MAX_LINES} lines or fewer${left}.`);
