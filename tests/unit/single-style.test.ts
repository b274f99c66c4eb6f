/** A prerendered page leaves the build with one <style> element (src/integrations/single-style-pages.ts). */
import { describe, expect, it } from 'vitest';
import { islandIdsInOrder, singleStyle } from '../../src/integrations/single-style-pages';

describe('singleStyle', () => {
  it("appends every later plain <style>'s rules to the first, in their order, and removes them", () => {
    const html =
      '<html><head><style>a{color:red}</style></head><body><style>astro-island{display:contents}</style>' +
      '<ul><style>[data-tile="1f2937"]{--tile:#1f2937}</style><li>x</li></ul></body></html>';
    expect(singleStyle(html)).toBe(
      '<html><head><style>a{color:red}astro-island{display:contents}[data-tile="1f2937"]{--tile:#1f2937}</style>' +
        '</head><body><ul><li>x</li></ul></body></html>',
    );
  });

  it('leaves a page with one style, or none, as it is, and a style with attributes where it is', () => {
    const one = '<head><style>a{}</style></head><body><p>style</p></body>';
    expect(singleStyle(one)).toBe(one);
    expect(singleStyle('<body></body>')).toBe('<body></body>');
    const media = '<style>a{}</style><style media="print">b{}</style>';
    expect(singleStyle(media)).toBe(media);
    const icon = '<style>a{}</style><svg><style><![CDATA[.b{}]]></style></svg>';
    expect(singleStyle(icon)).toBe(icon);
  });
});

describe('islandIdsInOrder', () => {
  it('numbers the islands of a page in order, so that the folder a build ran in changes no byte', () => {
    const page = (a: string, b: string) =>
      `<astro-island uid="${a}" prefix="r1" props="{}"><astro-island uid="${b}" prefix="r2"></astro-island></astro-island><p uid="x">`;
    expect(islandIdsInOrder(page('ZUowV3', 'Z1NGkVs'))).toBe(page('0', '1'));
    expect(islandIdsInOrder(page('Z11cq8i', 'Z1Hipkk'))).toBe(page('0', '1'));
    expect(islandIdsInOrder('<p>no islands</p>')).toBe('<p>no islands</p>');
  });
});
