// The slowest files of each test run of `npm test` (scripts/test.mjs): each vitest and Playwright
// run writes a JSON report beside its usual output, and this reads them back into one table.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** How many files to list per run. */
const SHOWN = 5;

const file = (dir, script, tool) => join(dir, `${script.replaceAll(':', '-')}.${tool}.json`);

/**
 * The environment that has a phase's test runner write its JSON report into `dir`, whichever tool
 * it is: vitest.config.ts adds VitestFileTimes when TEST_JSON_REPORT is set; Playwright adds the
 * reporter PW_TEST_REPORTER names to those of its config (its runner reads it: both Playwright
 * configs keep their own reporters, and playwright.editor.config.ts is left as it is), writing to
 * PLAYWRIGHT_JSON_OUTPUT_FILE. A phase that is neither ignores them.
 */
export function reportEnv(dir, script) {
  return {
    TEST_JSON_REPORT: file(dir, script, 'vitest'),
    PW_TEST_REPORTER: 'json',
    PLAYWRIGHT_JSON_OUTPUT_FILE: file(dir, script, 'playwright'),
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * A vitest reporter (vitest.config.ts adds it beside the usual ones when TEST_JSON_REPORT is set)
 * that writes each file's time there: from the start of its import to the end of its last test, in
 * its worker (files run side by side, so these overlap).
 */
export class VitestFileTimes {
  /** @param {string} path */
  constructor(path) {
    this.path = path;
  }

  /** @param {ReadonlyArray<import('vitest/node').TestModule>} modules */
  onTestRunEnd(modules) {
    const files = [];
    const failures = [];
    for (const module of modules) {
      const name = relative(process.cwd(), module.moduleId);
      const tests = [...module.children.allTests()];
      const d = module.diagnostic();
      files.push({
        name,
        ms:
          d.environmentSetupDuration +
          d.prepareDuration +
          d.setupDuration +
          d.collectDuration +
          d.duration,
        tests: tests.length,
      });
      for (const error of module.errors()) failures.push({ name, error: error?.message ?? '' });
      for (const test of tests)
        if (test.result().state === 'failed')
          failures.push({
            name: `${name} › ${test.fullName}`,
            error: test.result().errors?.[0]?.message ?? '',
          });
    }
    writeFileSync(this.path, JSON.stringify({ files, failures }));
  }
}

/**
 * Playwright's JSON report: each file's worker time, its tests' and what a worker did before each
 * of them (a `beforeAll`, such as a build, is in no test's own duration). Files run side by side
 * in the config's workers, and a file's tests may be spread over them (fullyParallel).
 */
function playwrightFiles(report) {
  const results = [];
  const walk = (suite, name) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        for (const result of test.results) {
          const start = Date.parse(result.startTime);
          results.push({ name, worker: result.parallelIndex, start, end: start + result.duration });
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, name);
  };
  for (const suite of report.suites) walk(suite, join(report.config.rootDir, suite.file));
  if (!results.length) return [];
  const first = Math.min(...results.map((r) => r.start));
  const lastEnd = new Map(); // worker -> end of its last test
  const files = new Map();
  for (const result of results.sort((a, b) => a.start - b.start)) {
    const since = lastEnd.get(result.worker) ?? first;
    lastEnd.set(result.worker, result.end);
    const entry = files.get(result.name) ?? {
      name: relative(process.cwd(), result.name),
      ms: 0,
      tests: 0,
    };
    entry.ms += result.end - since;
    entry.tests += 1;
    files.set(result.name, entry);
  }
  return [...files.values()];
}

function read(path) {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined; // cut short: the phase was stopped
  }
}

/** Playwright's JSON report: each test that failed, with its first error of its last try. */
function playwrightFailures(report) {
  const failures = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const error = test.results.at(-1)?.errors?.[0]?.message ?? '';
        failures.push({ name: [...titles, spec.title].join(' › '), error });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites) walk(suite, [suite.file]);
  return failures;
}

/** How many lines of a failed test's first error to repeat, and for how many tests. */
const ERROR_LINES = 12;
const FAILURES_SHOWN = 8;

/**
 * The tests `script` failed, each with the first lines of its first error, for the end of the
 * run's output: where a log cut to its tail (CI's) still shows them, however long the phase's
 * own output above.
 */
export function failedTests(dir, script) {
  const vitest = read(file(dir, script, 'vitest'));
  const playwright = read(file(dir, script, 'playwright'));
  const failures = vitest?.failures ?? (playwright ? playwrightFailures(playwright) : []);
  if (!failures.length) return '';
  // Colours off: the tools' messages carry ANSI codes of their own.
  const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');
  const lines = failures.slice(0, FAILURES_SHOWN).map(({ name, error }) => {
    const first = plain(error).trim().split('\n').slice(0, ERROR_LINES);
    return `  ✗ ${name}\n${first.map((line) => `      ${line}`).join('\n')}`;
  });
  const more =
    failures.length > FAILURES_SHOWN ? `\n  and ${failures.length - FAILURES_SHOWN} more` : '';
  return `The tests ${script} failed (${failures.length}), each with its first error:\n${lines.join('\n')}${more}`;
}

/** The table: for each of `scripts` that wrote a report, its slowest files. */
export function slowestFiles(dir, scripts) {
  const sections = [];
  for (const script of scripts) {
    const vitest = read(file(dir, script, 'vitest'));
    const playwright = read(file(dir, script, 'playwright'));
    const files = vitest ? vitest.files : playwright ? playwrightFiles(playwright) : undefined;
    if (!files?.length) continue;
    const total = files.reduce((sum, f) => sum + f.ms, 0);
    const what = vitest
      ? 'vitest: each file from its import to its last test'
      : `Playwright, worker time: ${seconds(total).trim()} over ${plural(playwright.config.metadata?.actualWorkers ?? playwright.config.workers, 'worker')}`;
    const lines = files
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN)
      .map((f) => `    ${seconds(f.ms)}  ${f.name} (${plural(f.tests, 'test')})`);
    sections.push(`  ${script} (${plural(files.length, 'file')}; ${what}):\n${lines.join('\n')}`);
  }
  return sections.length ? `The slowest files:\n${sections.join('\n')}` : '';
}
