// A copy of the project in a folder of its own, for the tests that build it or run `astro dev` on it
// apart from the working tree (the editor's, the content checks', the captcha build's).
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/**
 * The project's files a build or `astro dev` reads; and .gitignore, which the editor's listing of
 * the files reads (Keystatic's tree skips what git ignores: without it, the history's own repository
 * was listed, its lock files vanishing as they were read, a 500).
 */
const projectFiles = [
  '.gitignore',
  'src',
  'public',
  'astro.config.mjs',
  // `npm run build` builds the live site's editor too.
  'astro.editor.config.mjs',
  'keystatic.config.ts',
  'tsconfig.json',
  'package.json',
];

/**
 * Copies the project at `from` to `to` (replacing it), with node_modules linked package by package
 * but for Vite's and Astro's caches, which are the copy's own: a copy's content store written into
 * the project's (a link to node_modules whole did that) was read by the project's next build, which
 * then built a test's fixture as a page of the site. The cache of optimized images, which only
 * depends on each picture, starts as a copy of this project's, so that a build of the copy encodes
 * only the pictures new to it.
 */
export function copyProject(from, to) {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(join(to, 'node_modules'), { recursive: true });
  for (const entry of projectFiles) cpSync(join(from, entry), join(to, entry), { recursive: true });
  for (const entry of readdirSync(join(from, 'node_modules')))
    if (entry !== '.astro' && entry !== '.vite')
      symlinkSync(join(from, 'node_modules', entry), join(to, 'node_modules', entry));
  const images = join(root, 'node_modules/.astro/assets');
  if (existsSync(images))
    cpSync(images, join(to, 'node_modules/.astro/assets'), { recursive: true });
}

/**
 * The build steps that only package the pages a build has made: their precompressed copies (the
 * server sends each file as it is without them) and the service worker with its list of them. A
 * test that builds a copy to look at its pages leaves them out (a copy's build some 13.5 s of CPU
 * whole, 6 to 9 without them and the sitemap: docs/test-runs.md).
 */
export const PACKAGING = ['precompress', 'service-worker'];

/**
 * Writes into the copy at `to` a config that is the project's without the integrations named in
 * `without` (PACKAGING, say), and returns its name, for `astro build --config`.
 */
export function configWithout(to, without) {
  const name = 'astro.test-build.config.mjs';
  writeFileSync(
    join(to, name),
    `import config from './astro.config.mjs';
const without = ${JSON.stringify(without)};
export default { ...config, integrations: config.integrations.filter((i) => !without.includes(i.name)) };
`,
  );
  return name;
}
