/** What several browser tests look at the same way. */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';

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
