/** An icon written into a page (src/lib/assets.ts): sized, named or hidden, its ids its own. */
import { describe, expect, it } from 'vitest';
import { iconMarkup, svgForPage } from '../../src/lib/assets';

describe('an icon written into the page', () => {
  it('is the icon file’s drawing, at the size asked, named by its alt text', () => {
    const cart = iconMarkup('cart', 100, 'A "cart" & <more>')!;
    expect(cart).toMatch(
      /^<svg width="100" height="100" role="img" aria-label="A &#34;cart&#34; &#38; &#60;more&#62;" viewBox="0 0 48 48"/,
    );
    expect(cart).not.toContain('xmlns');
    expect(cart).toContain('<circle cx="18" cy="37" r="2.5"/>');
    expect(cart.endsWith('</svg>')).toBe(true);
  });

  it('is hidden from assistive technology when its alt text is empty, beside its own words', () => {
    expect(iconMarkup('cart', 56, '')).toMatch(/^<svg width="56" height="56" aria-hidden="true" /);
  });

  it('keeps its ids apart from another icon’s on the same page, references included', () => {
    const source = `<?xml version="1.0"?>
<!-- drawn by hand -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="24" viewBox="0 0 24 24"><defs><linearGradient id="g"/><path id="p" d="M0 0h2"/></defs><use href="#p"/><use xlink:href="#p"/><rect fill="url(#g)" width="4" height="4"/></svg>`;
    const svg = svgForPage(source, 'ring', 24, '');
    expect(svg).toBe(
      '<svg width="24" height="24" aria-hidden="true" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"><defs><linearGradient id="icon-ring-g"/><path id="icon-ring-p" d="M0 0h2"/></defs><use href="#icon-ring-p"/><use xlink:href="#icon-ring-p"/><rect fill="url(#icon-ring-g)" width="4" height="4"/></svg>',
    );
  });

  it('is left an image when it has styles of its own, which in the page would reach beyond it', () => {
    const drawing = '<path class="a" d="M0 0h2"/></svg>';
    for (const styled of [
      `<svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:red}</style>${drawing}`,
      `<svg xmlns="http://www.w3.org/2000/svg" style="color:red">${drawing}`,
      `<svg xmlns="http://www.w3.org/2000/svg"><path STYLE = "fill:red" d="M0 0h2"/></svg>`,
    ])
      expect(svgForPage(styled, 'styled', 56, '')).toBeUndefined();
  });

  it('names the icon a content file asks for and the folder does not have', () => {
    expect(() => iconMarkup('no-such-icon', 56, '')).toThrow(
      'No image named "no-such-icon" in src/assets/icons',
    );
  });
});
