/**
 * Stands in for `astro build` in the draft's preview (PUBLISH_BUILD_COMMAND), where what is tested is
 * the page shown while it runs, not the build: it writes the lines Astro writes for a few pages over
 * the time its argument says (ms); given a second argument, a file's name, it waits before those lines
 * while `<name>-1` is missing, and after them while `<name>-2` is (the test holds it at either
 * step, however slow the machine); then, if the Android page's title starts with BREAK, it fails with
 * that title in its last line, else it makes a site of that one page, its title in its heading.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

// Its server gone (a test ended mid-build), its lines have nowhere to go: it ends.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => process.exit(1));
const lasts = Number(process.argv[2] ?? 0);
const gate = process.argv[3];
const heldAt = async (step) => {
  while (gate && !existsSync(`${gate}-${step}`)) await sleep(50);
};
const title = /^title: (.*)$/m.exec(readFileSync('src/content/services/android.mdx', 'utf8'))[1];
console.log('[build] Building server entrypoints...');
await heldAt(1);
for (let page = 1; page <= 4; page++) {
  await sleep(lasts / 4);
  console.log(`  ├─ /page-${page}/index.html (+1ms)`);
}
await heldAt(2);
if (title.startsWith('BREAK')) {
  console.error(`[InvalidContentEntry] ${title}`);
  process.exit(1);
}
mkdirSync('dist/client/android', { recursive: true });
writeFileSync(
  'dist/client/android/index.html',
  `<!doctype html><html lang="en"><title>Preview</title><main><h1 id="previewed">${title}</h1></main></html>`,
);
