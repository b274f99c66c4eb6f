// The performance bench (a benchmark, not a test; CI does not run it).
// Builds when there is no build, serves it on loopback with `npm start`'s server, and runs Lighthouse's
// default mobile profile (simulated slow 4G, 4x CPU slowdown) three times on each page; prints the medians
// and writes them to bench/results.json.
//
// Usage: npm run bench [-- --runs 3 --pages /,/iphone]   (Chromium: CHROME_PATH or /usr/bin/chromium)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { launchLighthouseChrome, serveBuild } from './local.mjs';
import { scriptArgs } from './script-args.mjs';

const { values } = scriptArgs(import.meta.url, {
  options: {
    runs: { type: 'string', default: '3' },
    pages: { type: 'string', default: '/,/iphone,/portfolio,/contact,/about' },
  },
});
const runs = Number(values.runs);
const pages = values.pages.split(',');

if (!existsSync('dist/server/entry.mjs')) {
  console.log('No build yet: building.');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = await serveBuild();
const base = server.url;
const chrome = await launchLighthouseChrome();

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function measure(lhr) {
  const audit = (id) => lhr.audits[id];
  const requests = audit('network-requests').details.items;
  const document = requests.find((r) => r.resourceType === 'Document');
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  return {
    performance: lhr.categories.performance.score * 100,
    accessibility: lhr.categories.accessibility.score * 100,
    bestPractices: lhr.categories['best-practices'].score * 100,
    seo: lhr.categories.seo.score * 100,
    lcpMs: audit('largest-contentful-paint').numericValue,
    fcpMs: audit('first-contentful-paint').numericValue,
    cls: audit('cumulative-layout-shift').numericValue,
    tbtMs: audit('total-blocking-time').numericValue,
    transferBytes: audit('total-byte-weight').numericValue,
    // Script files as transferred; the inline scripts are added after.
    scriptBytes: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    firstResponseBytes: document?.transferSize ?? 0,
    renderBlocking:
      (audit('render-blocking-insight') ?? audit('render-blocking-resources'))?.details?.items
        ?.length ?? 0,
  };
}

/** Gzip bytes of a page's inline scripts, which Lighthouse's list of requests does not show. */
async function inlineScriptBytes(page) {
  const html = await (await fetch(`${base}${page}`)).text();
  const scripts = [
    ...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*ld\+json)[^>]*>([\s\S]*?)<\/script>/g),
  ];
  return scripts.reduce((sum, [, code]) => sum + gzipSync(code).length, 0);
}

const results = {};
try {
  for (const page of pages) {
    const samples = [];
    for (let run = 0; run < runs; run++) {
      const { lhr } = await lighthouse(`${base}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
      });
      samples.push(measure(lhr));
      process.stdout.write('.');
    }
    results[page] = Object.fromEntries(
      Object.keys(samples[0]).map((key) => [key, median(samples.map((s) => s[key]))]),
    );
    results[page].scriptBytes += await inlineScriptBytes(page);
  }
} finally {
  chrome.kill();
  await server.stop();
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const rows = Object.entries(results).map(([page, r]) => ({
  page,
  perf: r.performance,
  a11y: r.accessibility,
  'best pr.': r.bestPractices,
  seo: r.seo,
  LCP: `${(r.lcpMs / 1000).toFixed(2)} s`,
  FCP: `${(r.fcpMs / 1000).toFixed(2)} s`,
  CLS: r.cls.toFixed(3),
  TBT: `${Math.round(r.tbtMs)} ms`,
  transfer: kb(r.transferBytes),
  'JS (gzip)': kb(r.scriptBytes),
  'first response': kb(r.firstResponseBytes),
  'render-blocking': r.renderBlocking,
}));
console.log(
  `\nLighthouse ${lighthouse.version ?? ''} mobile profile, median of ${runs} runs per page\n`,
);
console.table(rows);
console.log(
  'Targets: every score 100; LCP <= 1.00 s; CLS 0; TBT <= 30 ms; first response <= 14 KB; / <= 250 KB.',
);
mkdirSync('bench', { recursive: true });
writeFileSync(
  'bench/results.json',
  `${JSON.stringify({ date: new Date().toISOString(), runs, results }, null, 2)}\n`,
);
console.log('Written to bench/results.json.');
