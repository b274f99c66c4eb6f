/**
 * Non-text contrast as the browser renders it (WCAG 1.4.11, 3:1): axe's color-contrast rule, which
 * a11y.spec.ts runs on every page and state, covers text only, not the outline of a form field.
 */
import { expect, type Page } from '@playwright/test';

/** The WCAG contrast ratio of two `rgb()`/`rgba()` colours as getComputedStyle gives them. */
export function contrast(a: string, b: string) {
  const luminance = (color: string) => {
    const [r, g, b] = color
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((n) => {
        const c = Number(n) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * Each visible form field and time choice on the page: its border colour, its own background and
 * the background around it (the first opaque one of its ancestors, or the canvas's white).
 */
export function fieldOutlines(page: Page) {
  return page
    .locator(
      'input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea, .time-choice__time',
    )
    .evaluateAll((fields) => {
      const opaque = (color: string) => color !== 'transparent' && !/rgba\(.*, 0\)$/.test(color);
      const around = (element: Element | null): string => {
        for (let e = element; e; e = e.parentElement) {
          const color = getComputedStyle(e).backgroundColor;
          if (opaque(color)) return color;
        }
        return 'rgb(255, 255, 255)';
      };
      return fields
        .filter((field) => (field as HTMLElement).offsetParent !== null)
        .map((field) => {
          const style = getComputedStyle(field);
          return {
            field: field.getAttribute('name') ?? field.className,
            border: style.borderTopColor,
            inside: opaque(style.backgroundColor)
              ? style.backgroundColor
              : around(field.parentElement),
            outside: around(field.parentElement),
          };
        });
    });
}

/** Every visible field of the page is outlined at 3:1 or more against what is in and around it. */
export async function expectOutlined(page: Page) {
  const outlines = await fieldOutlines(page);
  expect(outlines.length).toBeGreaterThan(0);
  for (const { field, border, inside, outside } of outlines) {
    expect(contrast(border, inside), `${field}: ${border} on ${inside}`).toBeGreaterThanOrEqual(3);
    expect(contrast(border, outside), `${field}: ${border} on ${outside}`).toBeGreaterThanOrEqual(
      3,
    );
  }
}
