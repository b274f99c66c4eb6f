/** What several browser tests look at the same way. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/** axe's violations on the page as it is now, one line each: rule and elements. */
export async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The index of the slide at the left edge of a carousel's viewport, or -1 while it moves. */
export function leadingSlide(carousel: Locator) {
  return carousel.evaluate((root) => {
    const viewport = root.querySelector('.carousel__viewport')!.getBoundingClientRect();
    const slides = [...root.querySelectorAll('.carousel__slide')];
    return slides.findIndex((s) => Math.abs(s.getBoundingClientRect().left - viewport.left) < 2);
  });
}

/**
 * Waits until the island that holds `inside` has hydrated. Until then a form posts natively, by
 * design (first-tap.spec.ts), so a test of what the island does waits for it: on a loaded machine
 * the first keystroke's hydration can still be under way when the test clicks.
 */
export async function islandHydrated(inside: Locator) {
  await expect(inside.locator('xpath=ancestor::astro-island[1]')).not.toHaveAttribute('ssr');
}
