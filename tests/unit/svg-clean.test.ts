// An SVG uploaded through the visual editor, as its endpoint takes it
// (src/editor/dev-server/images.ts): checked by `imageProblem`, then rewritten by DOMPurify with
// src/domain/svg-clean.ts's rule. Every attack below must come out with nothing that could run a
// script, judged on the file as a browser reads it (an XML parser), or be refused with a sentence;
// the site's own drawings must come out the same.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { imageProblem } from '../../src/domain/images';
import { cleanSvg, type CleanedSvg } from '../../src/domain/svg-clean';

const { window } = new JSDOM('');
const purify = createDOMPurify(window);

/** What the endpoint does with a file: the shared check, then the cleaning. */
function upload(text: string): CleanedSvg {
  const problem = imageProblem('icons', 'x.svg', new TextEncoder().encode(text), []);
  return problem ? { problem } : cleanSvg('x.svg', text, purify, window);
}

/** The file as a browser reads an SVG file: XML, with the SVG namespace. */
function parsed(svg: string): Document {
  const document = new window.DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(document.getElementsByTagNameNS('*', 'parsererror')).toHaveLength(0);
  expect(document.documentElement.namespaceURI).toBe('http://www.w3.org/2000/svg');
  expect(document.documentElement.localName).toBe('svg');
  return document;
}

/** What a browser would take a URL for: entities are already read by the parser; then %-escapes, and the characters it skips. */
const asBrowserReads = (url: string) => {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {}
  return decoded.replace(
    /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g,
    '',
  );
};

const scriptElements = new Set([
  'script',
  'foreignobject',
  'iframe',
  'frame',
  'embed',
  'object',
  'handler',
  'listener',
  'base',
  'set',
  'animate',
]);

/** Everything in a parsed file that could run a script or fetch a style sheet, as readable strings. */
function scriptCapable(document: Document): string[] {
  const found: string[] = [];
  const elements = [...document.getElementsByTagNameNS('*', '*')];
  for (const element of elements) {
    const name = element.localName.toLowerCase();
    if (scriptElements.has(name)) found.push(`<${element.localName}>`);
    if (element.namespaceURI !== 'http://www.w3.org/2000/svg')
      found.push(`<${element.nodeName}> (not SVG)`);
    for (const attribute of element.attributes) {
      const attr = attribute.localName.toLowerCase();
      if (attr.startsWith('on')) found.push(`${attribute.name} on <${name}>`);
      if (attr === 'href' || attr === 'src') {
        const url = asBrowserReads(attribute.value).toLowerCase();
        if (/^(?:javascript|vbscript|livescript):|^data:text\/html/.test(url))
          found.push(`${attribute.name}="${attribute.value}"`);
        if (name === 'use' && !url.startsWith('#')) found.push(`<use> of ${attribute.value}`);
      }
      if (
        attr === 'attributename' &&
        /^(?:.*:)?(?:on|.*href)/i.test(asBrowserReads(attribute.value))
      )
        found.push(`animation of ${attribute.value}`);
      if (attr === 'style' && /@import|javascript:|url\s*\(\s*(?!#)/i.test(attribute.value))
        found.push(`style="${attribute.value}"`);
    }
    if (name === 'style' && /@import|javascript:|url\s*\(\s*(?!#)/i.test(element.textContent ?? ''))
      found.push(`<style>${element.textContent}</style>`);
  }
  const walker = document.createTreeWalker(
    document,
    0x40 /* NodeFilter.SHOW_PROCESSING_INSTRUCTION */,
  );
  if (walker.nextNode()) found.push('a processing instruction');
  if (document.doctype) found.push('a DOCTYPE');
  return found;
}

const NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
/** Something to draw beside each attack, so that what is left is still a picture. */
const shape = '<path d="M4 4h16v16H4z"/>';

/** The three files a probe found the old deny-list let through. */
const probes: [string, string, string[]][] = [
  [
    'a javascript: link with an entity for its colon',
    `<svg ${NS} viewBox="0 0 24 24"><a xlink:href="javascript&#58;alert(1)"><rect width="24" height="24"/></a></svg>`,
    ['a link to javascript:'],
  ],
  [
    'animations that set an event handler and a link',
    `<svg ${NS} viewBox="0 0 24 24"><a><set attributeName="onclick" to="alert(1)"/><animate attributeName="href" values="javascript:alert(1)"/>${shape}</a></svg>`,
    ['an animation (<set>)', 'an animation (<animate>)'],
  ],
  [
    'an XHTML iframe',
    `<svg ${NS}><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(1)" srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"/>${shape}</svg>`,
    ['an embedded page (<iframe>)'],
  ],
];

/** Known ways of making an SVG run a script, and a few of fetching something. */
const attacks: [string, string][] = [
  ['a script element', `<svg ${NS}><script>alert(1)</script>${shape}</svg>`],
  ['a script in CDATA', `<svg ${NS}><script><![CDATA[alert(1)]]></script>${shape}</svg>`],
  [
    'a namespaced svg:script',
    `<svg ${NS} xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script>${shape}</svg>`,
  ],
  [
    'an external script',
    `<svg ${NS}><script xlink:href="https://evil.example/x.js"/>${shape}</svg>`,
  ],
  ['onload on the root', `<svg ${NS} onload="alert(1)">${shape}</svg>`],
  ['ONLOAD in capitals', `<svg ${NS} ONLOAD="alert(1)">${shape}</svg>`],
  [
    'handlers across lines and tabs',
    `<svg ${NS}><rect\nonclick\n=\n"alert(1)" width="4" height="4"/><circle\tOnMouseOver = 'alert(1)' r="2"/></svg>`,
  ],
  ['onerror on an image', `<svg ${NS}><image href="x.png" onerror="alert(1)"/>${shape}</svg>`],
  ['a javascript: href', `<svg ${NS}><a href="javascript:alert(1)">${shape}</a></svg>`],
  [
    'a javascript: link in character references',
    `<svg ${NS}><a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">${shape}</a></svg>`,
  ],
  [
    'hex references in mixed case',
    `<svg ${NS}><a xlink:href="&#x4A;aVa&#x53;cRiPt:alert(1)">${shape}</a></svg>`,
  ],
  ['a tab inside the scheme', `<svg ${NS}><a href="java&#x09;script:alert(1)">${shape}</a></svg>`],
  [
    'new lines and spaces before it',
    `<svg ${NS}><a xlink:href="\n  &#x0A; javascript:alert(1)">${shape}</a></svg>`,
  ],
  ['a percent-encoded colon', `<svg ${NS}><a href="javascript%3Aalert(1)">${shape}</a></svg>`],
  ['vbscript:', `<svg ${NS}><a xlink:href="vbscript:msgbox(1)">${shape}</a></svg>`],
  [
    'a data:text/html link',
    `<svg ${NS}><a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">${shape}</a></svg>`,
  ],
  [
    'a data:text/html image',
    `<svg ${NS}><image href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"/>${shape}</svg>`,
  ],
  [
    'a javascript: filter image',
    `<svg ${NS}><filter id="f"><feImage xlink:href="javascript:alert(1)"/></filter>${shape}</svg>`,
  ],
  [
    'set of a link inside it',
    `<svg ${NS}><a><set attributeName="href" to="javascript:alert(1)"/>${shape}</a></svg>`,
  ],
  [
    'animate of xlink:href',
    `<svg ${NS}><a><animate attributeName="xlink:href" values="javascript:alert(1)" begin="0s"/>${shape}</a></svg>`,
  ],
  [
    'animateTransform aimed at a handler and a link',
    `<svg ${NS}><animateTransform attributeName="onclick" to="alert(1)"/><a><animateTransform attributeName="href" values="javascript:alert(1)"/>${shape}</a></svg>`,
  ],
  [
    'HTML in a foreignObject',
    `<svg ${NS}><foreignObject width="100" height="100"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/><script>alert(1)</script></body></foreignObject>${shape}</svg>`,
  ],
  [
    'an iframe with srcdoc',
    `<svg ${NS}><iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"/>${shape}</svg>`,
  ],
  [
    'embed and object',
    `<svg ${NS}><embed src="javascript:alert(1)"/><object data="data:text/html,x" type="text/html"/>${shape}</svg>`,
  ],
  [
    'use of a data: SVG',
    `<svg ${NS}><use href="data:image/svg+xml;base64,PHN2ZyBpZD0ieCIgeG1sbnM9Imh0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnIj48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+#x"/>${shape}</svg>`,
  ],
  [
    'use of another file',
    `<svg ${NS}><use xlink:href="https://evil.example/sprite.svg#icon"/>${shape}</svg>`,
  ],
  [
    'a style sheet that imports another',
    `<svg ${NS}><style>@import url(https://evil.example/x.css); rect { fill: red }</style>${shape}</svg>`,
  ],
  [
    'an escaped @import',
    `<svg ${NS}><style>@\\69mport 'https://evil.example/x.css';</style>${shape}</svg>`,
  ],
  [
    'url(javascript:) in a style sheet and a style attribute',
    `<svg ${NS}><style><![CDATA[rect { fill: url(javascript:alert(1)) }]]></style><rect style="background:url('javascript:alert(1)')" width="4" height="4"/></svg>`,
  ],
  [
    'CDATA that closes the style element',
    `<svg ${NS}><style><![CDATA[</style><script>alert(1)</script>]]></style>${shape}</svg>`,
  ],
  [
    'CDATA that closes the title',
    `<svg ${NS}><title><![CDATA[</title><script>alert(1)</script>]]></title>${shape}</svg>`,
  ],
  [
    'an SVG Tiny handler',
    `<svg ${NS} xmlns:ev="http://www.w3.org/2001/xml-events"><handler ev:event="load" type="application/ecmascript">alert(1)</handler>${shape}</svg>`,
  ],
  [
    'an xml-stylesheet processing instruction',
    `<?xml-stylesheet type="text/xsl" href="data:text/xml,x"?><svg ${NS}><?xml-stylesheet href="x.css"?>${shape}</svg>`,
  ],
  [
    'a link that opens a new window',
    `<svg ${NS}><a target="_blank" xlink:show="new" href="javascript:alert(1)">${shape}</a></svg>`,
  ],
  [
    'a base element',
    `<svg ${NS}><base href="javascript:alert(1)//"/><a href="x">${shape}</a></svg>`,
  ],
  ['HTML after the drawing', `<svg ${NS}>${shape}</svg><img src="x" onerror="alert(1)"/>`],
  [
    'a style that breaks out into HTML',
    `<svg ${NS}>${shape}<p><style><g title="</style><img src=x onerror=alert(1)>"></g></style></p></svg>`,
  ],
  [
    'namespace confusion through MathML',
    `<svg ${NS}>${shape}<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math></svg>`,
  ],
  [
    'an external entity',
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg ${NS}><text>&x;</text></svg>`,
  ],
  [
    'billion laughs',
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><svg ${NS}><text>&c;</text></svg>`,
  ],
];

describe('an uploaded SVG, cleaned by DOMPurify', () => {
  it.each(probes)('takes out %s, and says so', (_, text, removed) => {
    const cleaned = upload(text);
    if ('problem' in cleaned) throw new Error(cleaned.problem);
    expect(scriptCapable(parsed(cleaned.svg))).toEqual([]);
    expect(cleaned.removed).toEqual(removed);
  });

  it.each(attacks)('runs nothing after: %s', (_, text) => {
    const cleaned = upload(text);
    if ('problem' in cleaned) {
      expect(cleaned.problem).toMatch(/^"x\.svg" (?:is not|holds a DOCTYPE|has nothing)/);
      return;
    }
    expect(scriptCapable(parsed(cleaned.svg))).toEqual([]);
    // Cleaning the result again finds nothing: what was written is what was judged.
    expect(upload(cleaned.svg)).toEqual({ svg: cleaned.svg, removed: [] });
  });

  it('the check finds the attacks in the files as sent', () => {
    // Those an XML parser reads as they are, less those only an HTML parser or CSS would see.
    const htmlOrCss = /<!ENTITY|<p>|<math>|\\69mport|CDATA\[<\//;
    for (const [what, text] of [...probes, ...attacks]) {
      if (htmlOrCss.test(text)) continue;
      const document = new window.DOMParser().parseFromString(text, 'image/svg+xml');
      if (document.getElementsByTagNameNS('*', 'parsererror').length > 0) continue;
      expect(scriptCapable(document), what).not.toEqual([]);
    }
  });

  it('names each thing taken out once, in words', () => {
    const cleaned = upload(
      `<svg ${NS} onload="alert(1)"><script>alert(1)</script><script>alert(2)</script><rect onclick="alert(1)" width="4" height="4"/><rect onclick="alert(1)" width="2" height="2"/></svg>`,
    );
    expect(cleaned).toMatchObject({
      removed: ['the onload attribute of <svg>', 'a script', 'the onclick attribute of <rect>'],
    });
  });

  it('calls what a drawing program leaves in its own namespace its notes', () => {
    const cleaned = upload(
      `<svg ${NS} xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" inkscape:version="1.3"><sodipodi:namedview pagecolor="#fff"/><g inkscape:label="Layer 1">${shape}</g></svg>`,
    );
    expect(cleaned).toMatchObject({ removed: ['notes the drawing program left'] });
  });

  it('keeps what draws: shapes, gradients, clip paths, text, styles, embedded pictures and <use> of its own shapes', () => {
    const text = `<svg ${NS} viewBox="0 0 24 24"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><clipPath id="c"><rect width="12" height="12"/></clipPath><path id="p" d="M0 0h4"/></defs><style>.a { fill: url(#g) }</style><g clip-path="url(#c)" class="a"><use xlink:href="#p"/><use href="#p" x="4"/></g><text x="2" y="20" font-family="sans-serif">Hi &amp; bye</text><image href="data:image/png;base64,iVBORw0KGgo=" width="2" height="2"/><a>${shape}</a></svg>\n`;
    expect(upload(text)).toEqual({ svg: text, removed: [] });
  });

  it('keeps no address of another file or site: a tracking picture, a paint or filter from elsewhere, a link out', () => {
    const cleaned = upload(
      `<svg ${NS} viewBox="0 0 24 24"><image href="https://evil.example/track.png" width="2" height="2"/><filter id="f"><feImage xlink:href="https://evil.example/f.png"/></filter><rect width="4" height="4" fill="url(https://evil.example/a#x)"/><a href="https://evil.example/">${shape}</a><use href="other.svg#p"/></svg>`,
    );
    if ('problem' in cleaned) throw new Error(cleaned.problem);
    expect(cleaned.svg).not.toContain('evil.example');
    expect(cleaned.svg).not.toContain('other.svg');
    expect(cleaned.removed).toEqual(['a link to another file', 'a style that loads other files']);
  });

  it('refuses a file with nothing left to draw, saying what was taken out', () => {
    expect(upload('<svg onload="alert(1)"></svg>')).toEqual({
      problem:
        '"x.svg" has nothing left to draw once the onload attribute of <svg> is taken out: export it again as a plain drawing',
    });
    expect(upload(`<svg ${NS}></svg>`)).toEqual({
      problem: '"x.svg" draws nothing: export it again with its shapes',
    });
  });

  it('writes a standalone SVG file: XML, with the SVG namespace declared, even when the upload had none', () => {
    const cleaned = upload('<svg viewBox="0 0 24 24"><circle cx="12" cy="12" r="8"/></svg>');
    expect(cleaned).toEqual({
      svg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="8"/></svg>\n',
      removed: [],
    });
  });
});

describe("the site's own SVGs", () => {
  const assets = 'src/assets';
  const files = readdirSync(assets, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.svg'),
  );

  /** Every element and its attributes, in order: what the file draws. */
  const drawing = (svg: string) =>
    [...parsed(svg).getElementsByTagNameNS('*', '*')].map((element) => [
      element.namespaceURI,
      element.localName,
      Object.fromEntries(
        [...element.attributes].map((attribute) => [attribute.name, attribute.value]),
      ),
    ]);

  it('are there to check', () => {
    expect(files.filter((file) => file.startsWith('icons/')).length).toBeGreaterThan(50);
  });

  it('come out drawing the same, with nothing removed', () => {
    for (const file of files) {
      const text = readFileSync(join(assets, file), 'utf8');
      const cleaned = upload(text);
      if ('problem' in cleaned) throw new Error(`${file}: ${cleaned.problem}`);
      expect(cleaned.removed, file).toEqual([]);
      expect(drawing(cleaned.svg), file).toEqual(drawing(text));
    }
  });
});
