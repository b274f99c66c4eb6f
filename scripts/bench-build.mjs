// Build-scale benchmark (not a test): copies the project to a temporary folder, adds N generated
// service pages (MDX files that pass the content schema), builds, and prints seconds, pages per
// second and the time of each phase of the build for each N, so that growth shows as linear or not.
// Target: >= 60 pages/s at 2,000.
//
// With --against REF (a commit, branch or tag), the same is done for that commit's tree (from
// `git archive`, with this checkout's node_modules), built alternately with the working tree at each
// size, so that both see the same machine: on a 2-core machine shared with other work, figures from
// different runs are not comparable, a ratio in one run is. --runs N repeats each pair N times (the
// order alternating) and reports the median. Before timing, one small untimed build fills Astro's image
// cache (node_modules/.astro, shared by all copies), so that no timed build pays for the images alone;
// before each timed build it waits (two minutes at most) until no task has waited for a CPU in the
// last 10 s (/proc/pressure/cpu under 10%), unless --no-wait. The CPU seconds of each build are shown
// too: unlike its wall time, they hardly change when other work shares the machine.
//
// Usage: npm run bench:build [-- --sizes 32,500,2000] [-- --against 662e84f] [-- --runs 2] [-- --no-wait]
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: {
    sizes: { type: 'string', default: '32,500,2000' },
    against: { type: 'string' },
    runs: { type: 'string', default: '1' },
    'no-wait': { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map(Number);
const runs = Math.max(1, Number(values.runs));
const root = resolve('.');
const entries = ['src', 'public', 'astro.config.mjs', 'tsconfig.json', 'package.json'];
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
function page(template, n) {
  const slug = `generated${letters(n)}`;
  const name = `${words[n % words.length]} ${n}`;
  return template
    .replace(/^slug: .*$/m, `slug: ${slug}`)
    .replace(/^title: .*$/m, `title: ${name}`)
    .replace(/^order: .*$/m, `order: ${n % 999}`)
    .replace(/^( {2}title: ).*$/m, `$1${name} Development Services`);
}

/** The tree to build: the working tree, or a commit's (`git archive`). */
function tree(ref) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-build-'));
  if (ref) {
    const tar = execFileSync('git', ['archive', '--format=tar', ref, ...entries], {
      cwd: root,
      maxBuffer: 256 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  } else {
    for (const entry of entries) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** N service pages in all: the tree's own, then copies of its Laravel page. */
function addPages(dir, size) {
  const services = join(dir, 'src/content/services');
  const template = readFileSync(join(services, 'laravel.mdx'), 'utf8');
  const own = readdirSync(services).length;
  for (let n = 0; n < size - own; n++) {
    writeFileSync(join(services, `generated${n}.mdx`), page(template, n));
  }
}

// GNU time, where there is one, gives the CPU seconds a build used.
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/**
 * `astro build` in dir, each line of its output stamped with the seconds since the start, and the CPU
 * seconds (user and system, all threads) it used.
 */
function build(dir) {
  return new Promise((done, fail) => {
    const started = performance.now();
    const astro = [process.execPath, join(root, 'node_modules/astro/bin/astro.mjs'), 'build'];
    const cpuFile = join(dir, 'cpu-seconds');
    const [command, ...args] = gnuTime ? [gnuTime, '-f', '%U %S', '-o', cpuFile, ...astro] : astro;
    const child = spawn(command, args, {
      cwd: dir,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const lines = [];
    let rest = '';
    const read = (chunk) => {
      const at = (performance.now() - started) / 1000;
      const text = rest + chunk;
      const parts = text.split('\n');
      rest = parts.pop();
      for (const line of parts) lines.push({ at, line });
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('error', fail);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (rest) lines.push({ at: seconds, line: rest });
      const cpu =
        gnuTime && existsSync(cpuFile) ? readFileSync(cpuFile, 'utf8').trim().split(/\s+/) : [];
      done({ code, seconds, cpu: cpu.length === 2 ? Number(cpu[0]) + Number(cpu[1]) : NaN, lines });
    });
  });
}

/** The phases of a build, in seconds, from when its log lines appeared. */
function phases({ seconds, lines }) {
  const at = (pattern) => lines.find(({ line }) => pattern.test(line))?.at;
  const entrypoints = at(/Building \w+ entrypoints/) ?? 0;
  const prerender = at(/(prerendering|generating) static routes/) ?? entrypoints;
  const images = at(/generating optimized images/);
  const hooks =
    at(/Rearranging server assets/) ?? at(/sitemap|service-worker|precompress/) ?? seconds;
  return {
    'setup s': entrypoints,
    'vite s': prerender - entrypoints,
    'prerender s': (images ?? hooks) - prerender,
    'images s': images === undefined ? 0 : hooks - images,
    'build:done s': seconds - hooks,
  };
}

/** The share of the last 10 s in which some task waited for a CPU (Linux), or undefined. */
function cpuPressure() {
  if (!existsSync('/proc/pressure/cpu')) return undefined;
  return Number(/some avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]);
}

/** Waits (two minutes at most) until the machine is quiet: other work's builds and tests skew a run. */
async function quiet() {
  if (values['no-wait']) return;
  for (let waited = 0; waited < 120; waited += 2) {
    const pressure = cpuPressure();
    if (pressure === undefined || pressure < 10) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  console.log('(the machine is still busy: measuring anyway)');
}

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const sides = [
  ...(values.against ? [{ name: values.against, ref: values.against }] : []),
  { name: values.against ? 'working tree' : 'this tree', ref: undefined },
];

/** Stops the bench with what went wrong and the end of the build's output. */
function failed(result, what) {
  console.error(what);
  console.error(
    result.lines
      .map(({ line }) => line)
      .join('\n')
      .slice(-3000),
  );
  process.exit(1);
}

// Fill the image cache first (untimed): the generated pages use the images the site already has.
{
  const dir = tree(undefined);
  const result = await build(dir);
  rmSync(dir, { recursive: true, force: true });
  if (result.code !== 0) failed(result, 'the build that fills the image cache failed');
}

const rows = [];
for (const size of sizes) {
  const results = new Map(sides.map(({ name }) => [name, []]));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? sides : [...sides].reverse();
    for (const { name, ref } of order) {
      const dir = tree(ref);
      addPages(dir, size);
      await quiet();
      const result = await build(dir);
      rmSync(dir, { recursive: true, force: true });
      if (result.code !== 0) failed(result, `${name}, ${size} service pages: the build failed`);
      if (process.env.KEEP_BUILD_LOG) {
        const file = `/tmp/bench-build-${size}-${name.replace(/\W+/g, '_')}-${run}.log`;
        writeFileSync(
          file,
          result.lines.map(({ at, line }) => `${at.toFixed(2)} ${line}`).join('\n'),
        );
      }
      const pages = result.lines.filter(({ line }) => /\.html \(\+/.test(line)).length || size + 7;
      results.get(name).push({
        pages,
        seconds: result.seconds,
        cpu: result.cpu,
        phases: phases(result),
      });
      console.log(
        `${name}, ${size} service pages: ${pages} pages in ${result.seconds.toFixed(1)} s (${(pages / result.seconds).toFixed(0)} pages/s, ${result.cpu.toFixed(1)} CPU s)`,
      );
    }
  }
  for (const { name } of sides) {
    const measured = results.get(name);
    const seconds = median(measured.map((m) => m.seconds));
    const phaseNames = Object.keys(measured[0].phases);
    rows.push({
      tree: name,
      'service pages': size,
      'pages built': measured[0].pages,
      seconds: seconds.toFixed(1),
      'pages/s': (measured[0].pages / seconds).toFixed(0),
      'CPU s': median(measured.map((m) => m.cpu)).toFixed(1),
      ...Object.fromEntries(
        phaseNames.map((phase) => [phase, median(measured.map((m) => m.phases[phase])).toFixed(1)]),
      ),
    });
  }
}
console.table(rows);
console.log('Target: >= 60 pages/s at 2,000 service pages.');
