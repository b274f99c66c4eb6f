// Build-scale benchmark (not a test): copies the project to a temporary folder, adds N generated
// service pages (MDX files that pass the content schema), builds, and prints seconds and pages per
// second for each N, so that growth shows as linear or not. Target: >= 50 pages/s at 2,000.
//
// Usage: npm run bench:build [-- --sizes 32,500,2000]
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '32,500,2000' } } });
const sizes = values.sizes.split(',').map(Number);
const root = resolve('.');
const template = readFileSync(join(root, 'src/content/services/laravel.mdx'), 'utf8');
const words = [
  'Atlas',
  'Beacon',
  'Cobalt',
  'Delta',
  'Ember',
  'Fjord',
  'Granite',
  'Harbor',
  'Indigo',
  'Juniper',
];

/** n in letters (0 -> a, 26 -> ba): slugs are lowercase letters only. */
const letters = (n) =>
  (n < 26 ? '' : letters(Math.floor(n / 26))) + String.fromCharCode(97 + (n % 26));

/** A generated service page: the Laravel page with its own slug, title and SEO title. */
function page(n) {
  const slug = `generated${letters(n)}`;
  const name = `${words[n % words.length]} ${n}`;
  return template
    .replace(/^slug: .*$/m, `slug: ${slug}`)
    .replace(/^title: .*$/m, `title: ${name}`)
    .replace(/^order: .*$/m, `order: ${n % 999}`)
    .replace(/^( {2}title: ).*$/m, `$1${name} Development Services`);
}

const rows = [];
for (const size of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-build-'));
  for (const entry of ['src', 'public', 'astro.config.mjs', 'tsconfig.json', 'package.json']) {
    cpSync(join(root, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // N service pages in all: the project's own 32, then generated ones.
  const own = readdirSync(join(dir, 'src/content/services')).length;
  for (let n = 0; n < size - own; n++) {
    writeFileSync(join(dir, 'src/content/services', `generated${n}.mdx`), page(n));
  }
  const started = performance.now();
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'],
    {
      cwd: dir,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  if (build.status !== 0) {
    console.error(build.stdout.slice(-3000), build.stderr.slice(-3000));
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  }
  const pages = (build.stdout.match(/\.html \(\+/g) ?? []).length || size + 7;
  rows.push({
    'service pages': size,
    'pages built': pages,
    seconds: seconds.toFixed(1),
    'pages/s': (pages / seconds).toFixed(0),
  });
  if (process.env.KEEP_BUILD_LOG) writeFileSync(`/tmp/bench-build-${size}.log`, build.stdout);
  rmSync(dir, { recursive: true, force: true });
  console.log(`${size} service pages: ${pages} pages in ${seconds.toFixed(1)} s`);
}
console.table(rows);
console.log('Target: >= 50 pages/s at 2,000 service pages.');
