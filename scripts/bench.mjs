// The performance bench (a benchmark, not a test; CI does not run it).
// Builds when there is no build, serves it on loopback with `npm start`'s server, and runs Lighthouse's
// default mobile profile (simulated slow 4G, 4x CPU slowdown) three times on each page; prints the medians
// and writes them to bench/results.json.
//
// Usage: npm run bench [-- --runs 3 --pages /,/iphone]   (Chromium: CHROME_PATH or /usr/bin/chromium)
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const { values } = parseArgs({
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

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const dir = mkdtempSync(join(tmpdir(), 'bench-'));
const server = spawn(process.execPath, ['src/server/main.ts'], {
  env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ENQUIRY_DB: join(dir, 'e.sqlite') },
  stdio: 'ignore',
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {}
  if (i > 100) throw new Error('The server did not start');
  await new Promise((r) => setTimeout(r, 100));
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
});

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
    scriptBytes: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    firstResponseBytes: document?.transferSize ?? 0,
    renderBlocking: (audit('render-blocking-insight') ?? audit('render-blocking-resources'))?.details?.items?.length ?? 0,
  };
}

const results = {};
try {
  for (const page of pages) {
    const samples = [];
    for (let run = 0; run < runs; run++) {
      const { lhr } = await lighthouse(`${base}${page}`, { port: chrome.port, output: 'json', logLevel: 'error' });
      samples.push(measure(lhr));
      process.stdout.write('.');
    }
    results[page] = Object.fromEntries(Object.keys(samples[0]).map((key) => [key, median(samples.map((s) => s[key]))]));
  }
} finally {
  await chrome.kill();
  server.kill('SIGTERM');
  await once(server, 'exit');
  rmSync(dir, { recursive: true, force: true });
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
  JS: kb(r.scriptBytes),
  'first response': kb(r.firstResponseBytes),
  'render-blocking': r.renderBlocking,
}));
console.log(`\nLighthouse ${lighthouse.version ?? ''} mobile profile, median of ${runs} runs per page\n`);
console.table(rows);
console.log('Targets: every score 100; LCP <= 1.00 s; CLS 0; TBT <= 30 ms; first response <= 14 KB; / <= 250 KB.');
mkdirSync('bench', { recursive: true });
writeFileSync('bench/results.json', `${JSON.stringify({ date: new Date().toISOString(), runs, results }, null, 2)}\n`);
console.log('Written to bench/results.json.');
