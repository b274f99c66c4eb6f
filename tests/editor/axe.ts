/** axe in the editor's pages: the violations of one part of a page (a dialog), or of a whole page. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe's violations, one line each (rule and elements), of the elements `within` selects, or of the
 * whole page. Every rule runs; only violations are gathered (as tests/e2e/helpers.ts does).
 */
export async function violations(page: Page, within?: string) {
  const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  if (within) axe.include(within);
  if (page.frames().length === 1) axe.setLegacyMode();
  const { violations: found } = await axe.analyze();
  return found.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
