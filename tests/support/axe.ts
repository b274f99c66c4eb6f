/**
 * axe's violations in a browser test's page: the site's pages (../e2e/helpers.ts) and the editor's
 * (../editor/). One line each: the rule and its elements.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

/**
 * axe's minified build. AxeBuilder injects the readable one (1.5 MB), and a renderer compiles what it
 * is given anew in every tab: 0.35 s of its processor time against 0.25 s for this one, on every check.
 */
const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Every rule runs; only the violations are gathered in full (`resultTypes`: the passes' elements are
 * neither gathered nor sent back, which halved a run). In a page without frames, axe runs in the page
 * itself and is put in only once per document, so that a second look at the same page (another
 * width, a dialog opened) does not compile it again. A page with frames goes through AxeBuilder,
 * which runs axe in each frame and joins their parts.
 */
export async function violations(page: Page, within?: string): Promise<string[]> {
  const options: RunOptions = { resultTypes: ['violations'] };
  let results: AxeResults;
  if (page.frames().length === 1) {
    // Asked of axe's own function: an element with the id "axe" is also `window.axe`.
    if (!(await page.evaluate(() => typeof window.axe?.run === 'function')))
      await page.evaluate(source);
    results = await page.evaluate(
      ({ within, options }) => window.axe.run(within ?? document, options),
      { within, options },
    );
  } else {
    const axe = new AxeBuilder({ page, axeSource: source }).options(options);
    if (within) axe.include(within);
    results = await axe.analyze();
  }
  return results.violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

declare global {
  interface Window {
    axe: typeof import('axe-core');
  }
}
