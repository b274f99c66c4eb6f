// The main-thread bench (not a test): Lighthouse's mainthread-work-breakdown (its mobile profile:
// simulated slow 4G, CPU x4) on this site's pages and, in the same run and the same browser, on
// AstroWind's home and services pages (a peer Astro site, built offline: see docs/benchmarks.md).
// Pages are measured in turns (one run of each, then the next round), so that a busy spell on the
// machine falls on every page alike. Medians of the runs; each of our pages is also given as a ratio
// to AstroWind's services page, its lightest, and so is its main thread's own processor time (the
// tasks' thread time, unscaled: "own CPU"), which a busy machine moves far less.
//
// Usage: npm run bench:main-thread [-- --runs 3] [-- --astrowind /tmp/astrowind/dist]
//   [-- --pages /,/iphone] [-- --url http://127.0.0.1:4321]
// Without --url it serves the build (`npm run build` first); AstroWind's dist/ is served by a small
// static server here, compressed as ours is (brotli, then gzip, made once per file). Writes
// bench/main-thread.json. Exits 1 when one of our pages is over 0.8x AstroWind's services page.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { launchLighthouseChrome, serveBuild } from './local.mjs';
import { scriptArgs } from './script-args.mjs';

const { values: args } = scriptArgs(import.meta.url, {
  options: {
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: '/,/iphone,/portfolio,/contact,/about' },
    astrowind: { type: 'string' },
    url: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const RATIO_LINE = 0.8;
const PEER_PAGES = ['/', '/services'];

const types = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
  '.xml': 'application/xml',
  '.txt': 'text/plain',
};
const compressible = /^(text\/|application\/(json|xml)|image\/svg)/;

/** A static server over a built dist/ (directory format: /services -> services/index.html). */
function serveStatic(root) {
  const cache = new Map();
  const find = (pathname) => {
    const clean = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
    for (const candidate of [clean, join(clean, 'index.html'), `${clean}.html`]) {
      const file = join(root, candidate);
      if (file.startsWith(root) && existsSync(file) && statSync(file).isFile()) return file;
    }
    return null;
  };
  const server = createServer((request, response) => {
    const file = find(new URL(request.url, 'http://x').pathname);
    if (!file) return response.writeHead(404).end();
    const type = types[extname(file)] ?? 'application/octet-stream';
    const accept = String(request.headers['accept-encoding'] ?? '');
    let body = readFileSync(file);
    const headers = { 'content-type': type, 'cache-control': 'no-cache' };
    if (compressible.test(type)) {
      const key = `${file} ${/\bbr\b/.test(accept) ? 'br' : /gzip/.test(accept) ? 'gzip' : ''}`;
      if (!cache.has(key)) {
        cache.set(
          key,
          key.endsWith(' br')
            ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
            : key.endsWith(' gzip')
              ? gzipSync(body, { level: 9 })
              : body,
        );
      }
      body = cache.get(key);
      if (key.endsWith(' br')) headers['content-encoding'] = 'br';
      if (key.endsWith(' gzip')) headers['content-encoding'] = 'gzip';
      headers.vary = 'accept-encoding';
    }
    response.writeHead(200, headers).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        stop: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

if (!args.url && !existsSync('dist/server/entry.mjs')) {
  console.error('No build found: run `npm run build` first.');
  process.exit(1);
}
const peerRoot = args.astrowind && normalize(args.astrowind.replace(/\/?$/, '/'));
if (peerRoot && !existsSync(join(peerRoot, 'index.html'))) {
  console.error(`No built site in ${peerRoot} (give AstroWind's dist/).`);
  process.exit(1);
}
const server = args.url ? null : await serveBuild();
const peer = peerRoot ? await serveStatic(peerRoot) : null;
const targets = [
  ...args.pages
    .split(',')
    .map((path) => ({ site: 'ours', path, url: (args.url ?? server.url) + path })),
  ...(peer ? PEER_PAGES.map((path) => ({ site: 'AstroWind', path, url: peer.url + path })) : []),
];
const chrome = await launchLighthouseChrome();

/**
 * The page's main thread's own processor time in a Lighthouse trace (ms): its top-level tasks'
 * thread time (`tdur`), unscaled. Lighthouse's figures are the tasks' wall-clock lengths (times the
 * profile's CPU x4), and on a 2-core machine with the browser, its GPU and network processes, the
 * server and Lighthouse itself beside the renderer, about half of a task's length was the thread
 * waiting for a core: the same page read 374 to 610 ms from run to run. Its own time moves far less,
 * so it tells a change to a page from the noise (docs/benchmarks.md, 2026-12-02).
 */
function mainThreadCpu(trace) {
  const events = trace?.traceEvents ?? [];
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || !e.dur || !mains.has(thread)) continue;
    if (!byThread.has(thread)) byThread.set(thread, []);
    byThread.get(thread).push(e);
  }
  // The page's renderer is the one whose main thread was busiest (an SVG picture's document runs
  // on the same thread; other renderers are the browser's own pages).
  const length = (tasks) => tasks.reduce((sum, e) => sum + e.dur, 0);
  const [tasks] = [...byThread.values()].sort((a, b) => length(b) - length(a));
  if (!tasks) return NaN;
  tasks.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  let end = 0;
  let cpu = 0;
  for (const e of tasks) {
    if (e.ts < end) continue; // nested in the task before
    cpu += e.tdur ?? 0;
    end = e.ts + e.dur;
  }
  return cpu / 1000;
}

/** One Lighthouse run: the main thread's total and its groups (ms), with LCP and FCP. */
async function measure(url) {
  const { lhr, artifacts } = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  const breakdown = lhr.audits['mainthread-work-breakdown'];
  const groups = {};
  for (const item of breakdown.details?.items ?? []) groups[item.group] = item.duration;
  return {
    total: breakdown.numericValue,
    cpu: mainThreadCpu(artifacts?.Trace),
    groups,
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    fcp: lhr.audits['first-contentful-paint'].numericValue,
  };
}

const samples = new Map(targets.map((t) => [t, []]));
try {
  for (let run = 0; run < RUNS; run++) {
    for (const target of targets) {
      samples.get(target).push(await measure(target.url));
      process.stdout.write('.');
    }
  }
} finally {
  chrome.kill();
  await server?.stop();
  await peer?.stop();
}

// A run whose trace Lighthouse could not read (a busy machine) gives NaN: left out.
const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};
const rows = targets.map((target) => {
  const runs = samples.get(target);
  const groups = [...new Set(runs.flatMap((r) => Object.keys(r.groups)))];
  return {
    site: target.site,
    path: target.path,
    totalMs: median(runs.map((r) => r.total)),
    runs: runs.map((r) => Math.round(r.total)),
    cpuMs: median(runs.map((r) => r.cpu)),
    groups: Object.fromEntries(groups.map((g) => [g, median(runs.map((r) => r.groups[g] ?? 0))])),
    lcpMs: median(runs.map((r) => r.lcp)),
    fcpMs: median(runs.map((r) => r.fcp)),
  };
});
const services = rows.find((r) => r.site === 'AstroWind' && r.path === '/services');
for (const row of rows) {
  if (services && row.site === 'ours') {
    row.ratio = Math.round((row.totalMs / services.totalMs) * 100) / 100;
    // The median leaves out runs whose trace had no main thread (NaN); with none left, no ratio.
    const cpuRatio = row.cpuMs / services.cpuMs;
    if (Number.isFinite(cpuRatio)) row.cpuRatio = Math.round(cpuRatio * 100) / 100;
  }
}

mkdirSync('bench', { recursive: true });
writeFileSync(
  'bench/main-thread.json',
  `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, rows }, null, 2)}\n`,
);
const short = {
  other: 'other',
  scriptEvaluation: 'script',
  styleLayout: 'style+layout',
  paintCompositeRender: 'paint',
  parseHTML: 'parse HTML',
  scriptParseCompile: 'script parse',
  garbageCollection: 'GC',
};
console.log(`\nMain-thread work (Lighthouse mobile profile), median of ${RUNS} runs, ms:`);
console.table(
  rows.map((r) => ({
    page: `${r.site} ${r.path}`,
    total: Math.round(r.totalMs),
    runs: r.runs.join(' '),
    'x services': r.ratio ?? '',
    'own CPU': Number.isFinite(r.cpuMs) ? Math.round(r.cpuMs * 10) / 10 : '',
    'CPU x services': r.cpuRatio ?? '',
    ...Object.fromEntries(
      Object.entries(r.groups).map(([g, ms]) => [short[g] ?? g, Math.round(ms)]),
    ),
    LCP: Math.round(r.lcpMs),
    FCP: Math.round(r.fcpMs),
  })),
);
const over = rows.filter((r) => typeof r.ratio === 'number' && r.ratio > RATIO_LINE);
if (over.length)
  console.log(`Over ${RATIO_LINE}x AstroWind's services page: ${over.map((r) => r.path)}`);
process.exitCode = over.length ? 1 : 0;
