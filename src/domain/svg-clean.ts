/**
 * An SVG uploaded through the visual editor, rewritten with an allow-list by DOMPurify before it is
 * written into src/assets (src/editor/dev-server/images.ts): a home-made deny-list of "<script",
 * "on…=", "javascript:" let through an entity-encoded javascript: link, `<set attributeName="onclick">`
 * and an XHTML `<iframe>`. What is not drawing is taken out; what was taken out is named in words a
 * marketer reads at the upload field ("a script", "the onclick attribute of <svg>").
 *
 * No DOM of its own: the caller hands over a DOMPurify instance and the window it was made with (the
 * dev server's a jsdom window, a browser its own), so that this rule is one module, with its
 * configuration in one place, whichever runtime runs it. Run it after `imageProblem` (./images.ts),
 * which refuses what no parser should be asked to read (entities) and what is no SVG at all.
 *
 * How the file is read and written: DOMPurify parses the text as HTML (its usual, most tested path;
 * the HTML parser puts `<svg>` and what is in it into the SVG namespace, as a browser does for SVG in a
 * page); the tree it keeps is written out with XMLSerializer, so the file is XML again, with its
 * namespaces declared. The result is then read back as a browser reads an SVG file (`image/svg+xml`,
 * an XML parser) and must parse without an error, and that tree, cleaned again, must lose nothing:
 * what the browser will read is what was cleaned.
 */

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/**
 * DOMPurify's configuration for an SVG file: its SVG profile (drawing and filters, no HTML, no
 * MathML), plus `<use>`, which icon exporters use to repeat a shape and which DOMPurify leaves out
 * because it can fetch another file: `href` on `<use>` is kept only for a shape of the same file
 * (`#id`, `cleanAttribute`). An element taken out goes with everything inside it (a script's text,
 * the HTML inside a `<foreignObject>`), rather than its contents being left behind as loose text.
 */
export const svgCleaning = {
  USE_PROFILES: { svg: true, svgFilters: true },
  ADD_TAGS: ['use'],
  KEEP_CONTENT: false,
};

/** A DOMPurify instance, as much of it as this uses (the type is DOMPurify's, without importing it). */
export interface Purifier {
  /** With RETURN_DOM, the <body> the text was parsed into; with IN_PLACE, the node it cleaned. */
  sanitize(
    dirty: string | Node,
    config: typeof svgCleaning & { RETURN_DOM?: boolean; IN_PLACE?: boolean },
  ): unknown;
  removed: ({ element: Node } | { attribute: Attr | null; from: Node })[];
  addHook(entryPoint: 'uponSanitizeAttribute', hook: AttributeHook): void;
  removeHook(entryPoint: 'uponSanitizeAttribute', hook?: AttributeHook): unknown;
}
type AttributeHook = (
  node: Element,
  event: { attrName: string; attrValue: string; keepAttr: boolean },
) => void;

/** The two APIs of a window this needs: to read the result back as an SVG file, and to write it. */
export interface SvgWindow {
  DOMParser: { new (): DOMParser };
  XMLSerializer: { new (): XMLSerializer };
}

export type CleanedSvg = { svg: string; removed: string[] } | { problem: string };

/** What a URL is once the characters a browser skips in it are gone (as DOMPurify compares it). */
const compact = (url: string) =>
  url.replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/g, '');

const percentDecoded = (url: string) => {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
};

/** A picture embedded in the file, in a format that is only ever a picture. */
const embeddedPicture = /^data:image\/(?:png|jpe?g|gif|webp)[;,]/i;

/**
 * CSS that fetches another file or runs anything: `@import`, `url(…)` other than a shape of this file
 * (`url(#shadow)`), old script hooks. Escapes and comments are read first, as CSS reads them.
 */
function cssReachesOut(css: string): boolean {
  const read = css
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, '')
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) =>
      String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd),
    )
    .replace(/\\([\s\S])/g, '$1');
  return /@import|url\s*\(\s*(?!['"]?\s*#)|image-set\s*\(|expression\s*\(|javascript:|-moz-binding|behavior\s*:/i.test(
    read,
  );
}

/**
 * The rules DOMPurify's own leave open for a file shown as a picture, or drawn inline in a page: an
 * address (`href`) only of a shape of this file (`#id`), or on `<image>` and `<feImage>` an embedded
 * picture (DOMPurify takes any `data:` there, data:text/html included); nothing that fetches another
 * file (a tracking picture) or leads out of the page (a link in an icon drawn inline is one a
 * visitor could follow); no animation of a link or an event handler (`attributeName`); no style or
 * presentation attribute (`fill="url(https://…)"`) that fetches another file.
 */
const cleanAttribute: AttributeHook = (node, event) => {
  const name = event.attrName;
  const value = event.attrValue;
  if (name === 'href' || name === 'xlink:href') {
    const url = compact(value).toLowerCase();
    const picture =
      ['image', 'feimage'].includes(node.localName.toLowerCase()) && embeddedPicture.test(url);
    if (!url.startsWith('#') && !picture) event.keepAttr = false;
  } else if (name === 'attributename') {
    const target = compact(value).toLowerCase().replace(/^.*:/, '');
    if (target.startsWith('on') || target.includes('href')) event.keepAttr = false;
  } else if ((name === 'style' || /url\s*\(/i.test(value)) && cssReachesOut(value))
    event.keepAttr = false;
};

/** What a removed element was, in a marketer's words. */
const elementWords: Record<string, string> = {
  script: 'a script',
  handler: 'a script',
  listener: 'a script',
  foreignobject: 'web page content (<foreignObject>)',
  iframe: 'an embedded page (<iframe>)',
  frame: 'an embedded page (<frame>)',
  embed: 'an embedded object (<embed>)',
  object: 'an embedded object (<object>)',
  set: 'an animation (<set>)',
  animate: 'an animation (<animate>)',
  style: 'a style sheet that loads other files',
  '#comment': 'a comment',
};

/** What drawing programs add in a namespace of their own (inkscape:label, sodipodi:namedview). */
const programNotes = 'notes the drawing program left';

function elementPhrase(node: Node): string | undefined {
  if (node.nodeType !== 1) return elementWords[node.nodeName];
  const element = node as Element;
  const name = element.localName;
  // "svg:script" as the HTML parser names a prefixed element: what matters is the part after the prefix.
  const known = elementWords[name.replace(/^.*:/, '').toLowerCase()];
  if (known) return known;
  if (element.namespaceURI === HTML_NAMESPACE) return 'web page content';
  if (name.includes(':')) return programNotes;
  return `a <${name}> element`;
}

function attributePhrase(attribute: Attr | null, from: Node): string | undefined {
  if (!attribute) return undefined;
  const name = attribute.name;
  const tag = (from as Element).localName ?? from.nodeName;
  if (/^on/i.test(name)) return `the ${name.toLowerCase()} attribute of <${tag}>`;
  if (/^(?:xlink:)?href$|^src$|^action$|^formaction$/i.test(name)) {
    const scheme = /^(javascript|vbscript|livescript|data):/i.exec(
      compact(percentDecoded(compact(attribute.value))),
    );
    return scheme ? `a link to ${scheme[1]!.toLowerCase()}:` : 'a link to another file';
  }
  if (name.toLowerCase() === 'style' || /url\s*\(/i.test(attribute.value))
    return 'a style that loads other files';
  // A namespace's declaration: the file is written with those it still uses.
  if (/^xmlns(?::|$)/i.test(name)) return undefined;
  if (name.includes(':') && !/^xlink:|^xml:/i.test(name)) return programNotes;
  return `the ${name} attribute of <${tag}>`;
}

/** `<style>` elements DOMPurify keeps whatever their CSS: those that reach out are taken out here. */
function removeReachingStyles(root: Element, removed: Node[]) {
  for (const style of [...root.getElementsByTagNameNS('*', 'style')])
    if (cssReachesOut(style.textContent ?? '')) {
      style.remove();
      removed.push(style);
    }
}

/** Elements that draw something: a file with none left is no picture. */
const drawing = new Set([
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'image',
  'use',
]);
const draws = (root: Element) =>
  [...root.getElementsByTagNameNS(SVG_NAMESPACE, '*')].some((element) =>
    drawing.has(element.localName.toLowerCase()),
  );

/** "a, b and c" */
const listed = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '');

const isSvgRoot = (node: Node | null | undefined): node is Element =>
  !!node &&
  node.nodeType === 1 &&
  (node as Element).namespaceURI === SVG_NAMESPACE &&
  (node as Element).localName === 'svg';

/** DOMPurify with this module's rule on, for one call. */
function withRule<T>(purify: Purifier, run: () => T): T {
  purify.addHook('uponSanitizeAttribute', cleanAttribute);
  try {
    return run();
  } finally {
    purify.removeHook('uponSanitizeAttribute', cleanAttribute);
  }
}

/**
 * The SVG file `text` rewritten to what draws and nothing that could run or fetch, with what was taken
 * out in words ("a script", "the onload attribute of <svg>", "a link to javascript:"), each once; or
 * the sentence that refuses it: nothing left to draw, or a file that cannot be made into a clean one.
 */
export function cleanSvg(
  fileName: string,
  text: string,
  purify: Purifier,
  window: SvgWindow,
): CleanedSvg {
  const refused = `"${fileName}" could not be cleaned into a plain drawing: export it again as a plain SVG`;
  const removedNodes: Node[] = [];
  const removed = new Set<string>();
  const note = (entries: Purifier['removed'], root: Node) => {
    for (const entry of entries) {
      const phrase =
        'element' in entry
          ? entry.element === root
            ? undefined
            : elementPhrase(entry.element)
          : attributePhrase(entry.attribute, entry.from);
      if (phrase) removed.add(phrase);
    }
  };

  // What comes before the drawing (a declaration, a DOCTYPE, comments) is not kept: a style sheet
  // linked there is said to be gone.
  const prolog = text.slice(0, Math.max(0, text.search(/<svg[\s>/]/i)));
  if (/<\?xml-stylesheet/i.test(prolog)) removed.add(elementWords.style!);

  const body = withRule(
    purify,
    () => purify.sanitize(text, { ...svgCleaning, RETURN_DOM: true }) as HTMLElement,
  );
  note(purify.removed, body);
  const root = [...body.children].find(isSvgRoot);
  if (!root) return { problem: refused };
  removeReachingStyles(root, removedNodes);
  for (const node of removedNodes) removed.add(elementPhrase(node)!);
  // Another drawing or text after this one (comments aside): left out of the file.
  const after = [...body.childNodes].filter(
    (node) =>
      node !== root &&
      (node.nodeType === 1 || (node.nodeType === 3 && (node.textContent ?? '').trim() !== '')),
  );
  if (after.length > 0) removed.add('content outside the drawing');

  if (!draws(root))
    return {
      problem:
        removed.size > 0
          ? `"${fileName}" has nothing left to draw once ${listed([...removed])} ${removed.size > 1 ? 'are' : 'is'} taken out: export it again as a plain drawing`
          : `"${fileName}" draws nothing: export it again with its shapes`,
    };

  const svg = new window.XMLSerializer().serializeToString(root);

  // Read back as the browser will read the file, and cleaned again: nothing may be left to take out.
  const reread = new window.DOMParser().parseFromString(svg, 'image/svg+xml');
  const rereadRoot = reread.documentElement;
  if (!isSvgRoot(rereadRoot) || reread.getElementsByTagNameNS('*', 'parsererror').length > 0)
    return { problem: refused };
  let again: number;
  try {
    again = withRule(purify, () => {
      purify.sanitize(rereadRoot, { ...svgCleaning, IN_PLACE: true });
      return purify.removed.length;
    });
  } catch {
    return { problem: refused }; // DOMPurify refuses to clean a root in place it would remove
  }
  const stylesAgain: Node[] = [];
  removeReachingStyles(rereadRoot, stylesAgain);
  if (again > 0 || stylesAgain.length > 0) return { problem: refused };

  return { svg: `${svg}\n`, removed: [...removed] };
}
