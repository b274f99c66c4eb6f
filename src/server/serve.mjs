/**
 * `npm run serve` (and `npm start` after its build): serves the existing build with ./main.ts.
 * Plain JavaScript, so that any Node can read it and say in one line what is wrong: a Node older
 * than 24 (which could not run the server's TypeScript, nor its node:sqlite), no build, or a build
 * older than the sources it was made from (served all the same, with a warning: a restart must not
 * wait for a build, and the operator decides when to build).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  console.error(
    `The site needs Node 24 or newer; this is Node ${process.versions.node}. Run it with \`npm run serve\` after \`npm install\` (the project's Node 24 is a dependency), or install Node 24.`,
  );
  process.exit(1);
}

const { serverConfig } = await import('./config.ts');
const { log, setLogFormat } = await import('./log.ts');
setLogFormat(serverConfig().logFormat === 'json');
const root = resolve(import.meta.dirname, '../..');
const distDir = resolve(serverConfig().distDir);
const entry = join(distDir, 'server/entry.mjs');
if (!existsSync(entry)) {
  log.error(`There is no build to serve in ${distDir}: run \`npm run build\` first.`);
  process.exit(1);
}

/** The newest modification time of the files a build is made from, and which file it is. */
function newestSource() {
  let newest = { mtimeMs: 0, path: '' };
  const visit = (path) => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return; // not in this install (public/ in an image that left it out, say)
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (stat.mtimeMs > newest.mtimeMs) newest = { mtimeMs: stat.mtimeMs, path };
  };
  for (const part of ['src', 'public', 'astro.config.mjs', 'package.json']) visit(join(root, part));
  return newest;
}

const built = statSync(entry).mtimeMs;
const source = newestSource();
if (source.mtimeMs > built) {
  log.warn(
    `The build in ${distDir} is older than ${source.path.slice(root.length + 1)}: serving it all the same; run \`npm run build\` to serve the current sources.`,
  );
}

await import('./main.ts');
