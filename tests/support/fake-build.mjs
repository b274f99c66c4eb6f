/**
 * Stands in for `astro build` in a publish's checkout (PUBLISH_BUILD_COMMAND), where the build is
 * not what is tested: the project's own build (the dist/ beside this file's project; a build is
 * given none of the server's environment) copied to the checkout's dist/, with the Android page's
 * title from the checkout's content added to that page. Given a file's path (an argument: a build
 * has no environment of the test's), it waits until that file is there, so that a test holds the
 * publish under way for as long as it watches it.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const gate = process.argv[2];
while (gate && !existsSync(gate)) await sleep(100);

cpSync(new URL('../../dist', import.meta.url), 'dist', { recursive: true });
const title = /^title: (.*)$/m.exec(readFileSync('src/content/services/android.mdx', 'utf8'))[1];
const page = 'dist/client/android/index.html';
writeFileSync(
  page,
  readFileSync(page, 'utf8').replace('</main>', `<p id="published">${title}</p></main>`),
);
// The page as written, not its compressed copies of the real build.
rmSync(`${page}.br`, { force: true });
rmSync(`${page}.gz`, { force: true });
console.log('  ├─ /android/index.html (+1ms)');
