// `npm run format:content`: rewrites the content files the visual editor edits (src/content/services/*.mdx,
// src/content/pages/*.yaml, src/content/data/*.yaml) in the format the editor writes them
// (src/editor/format.ts), so that a file edited by hand and then saved in the editor changes only the
// lines of the fields that changed. `-- --check` only lists the files that differ (exit 1 if any).
//
// The editor's schema uses Vite's import.meta.glob, so it is loaded through Vite, as `astro dev` does.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'vite';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: { check: { type: 'boolean', default: false } },
});

const vite = await createServer({
  configFile: false,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, watch: null },
  optimizeDeps: { noDiscovery: true, include: [] },
});
let differing = 0;
try {
  const { default: config } = await vite.ssrLoadModule('/keystatic.config.ts');
  const { editorText } = await vite.ssrLoadModule('/src/editor/format.ts');
  const files = [
    ['src/content/services', '.mdx'],
    ['src/content/pages', '.yaml'],
    ['src/content/data', '.yaml'],
  ].flatMap(([folder, extension]) =>
    readdirSync(folder)
      .filter((name) => name.endsWith(extension))
      .sort()
      .map((name) => `${folder}/${name}`),
  );
  for (const path of files) {
    const text = readFileSync(path, 'utf8');
    const written = editorText(config, path, text);
    if (written === text) continue;
    differing++;
    if (values.check) console.log(`differs from the editor's format: ${path}`);
    else {
      writeFileSync(path, written);
      console.log(`rewritten: ${path}`);
    }
  }
  console.log(
    `${files.length} files, ${differing} ${values.check ? 'differ' : 'rewritten'} (the editor's format).`,
  );
} finally {
  await vite.close();
}
if (values.check && differing > 0) process.exitCode = 1;
