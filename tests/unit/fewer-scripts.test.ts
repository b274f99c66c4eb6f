/** A prerendered page's inline scripts, fewer (src/integrations/fewer-scripts.ts). */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { fewerScripts } from '../../src/integrations/fewer-scripts';

const scripts = (html: string) =>
  [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, code]) => ({
    attributes: attributes!.trim(),
    code: code!,
  }));

/** Runs code as the browser would, and what it logged and what it threw later (setTimeout). */
function run(code: string) {
  const log: string[] = [];
  const thrown: unknown[] = [];
  runInNewContext(code, {
    log: (line: string) => log.push(line),
    setTimeout: (callback: () => void) => {
      try {
        callback();
      } catch (error) {
        thrown.push(error);
      }
    },
  });
  return { log, thrown };
}

describe('fewerScripts', () => {
  it('runs the module scripts from one, in their order, where the last stood, each with its own names', () => {
    const page =
      '<head><script type="module">var e=1;log(`a${e}`);globalThis.a=()=>log(`a again ${e}`)</script></head>' +
      '<body><p>text</p><script type="module">var e=2;log(`b${e}`)</script><footer></footer>' +
      '<script type="module">let e=3;log(`c${e}`);a()</script></body>';
    const out = fewerScripts(page);
    const left = scripts(out);
    expect(left).toHaveLength(1);
    expect(left[0]!.attributes).toBe('type="module"');
    expect(
      out.startsWith('<head></head><body><p>text</p><footer></footer><script type="module">'),
    ).toBe(true);
    // Each script's `e` stays its own, as it was in a module of its own.
    expect(run(left[0]!.code).log).toEqual(['a1', 'b2', 'c3', 'a again 1']);
  });

  it('keeps an error in one module script from stopping the next, and still reports it', () => {
    const page =
      '<script type="module">log("a");null.x</script><script type="module">log("b")</script>';
    const { log, thrown } = run(scripts(fewerScripts(page))[0]!.code);
    expect(log).toEqual(['a', 'b']);
    expect(thrown).toHaveLength(1);
    expect(String(thrown[0])).toContain('TypeError');
  });

  it('leaves a module script that imports, exports or awaits at its top where it is, apart', () => {
    for (const own of [
      'import x from "/x.js";x()',
      'export const a=1',
      'await fetch("/a")',
      'await(fetch("/a"))',
    ]) {
      const page = `<script type="module">log("1")</script><script type="module">${own}</script><script type="module">log("2")</script>`;
      const left = scripts(fewerScripts(page));
      expect(left, own).toHaveLength(2);
      expect(left[0]!.code, own).toBe(own);
      expect(run(left[1]!.code).log).toEqual(['1', '2']);
    }
    // An await inside a function, a dynamic import and import.meta run in a function as well.
    const page =
      '<script type="module">const f=async()=>{await import("/a.js")};log(typeof f)</script><script type="module">log(2)</script>';
    expect(scripts(fewerScripts(page))).toHaveLength(1);
  });

  it('leaves the module scripts apart on a page that runs a module or deferred file among them', () => {
    for (const file of [
      '<script type="module" src="/a.js"></script>',
      '<script defer src="/a.js"></script>',
    ]) {
      const page = `<script type="module">log(1)</script>${file}<script type="module">log(2)</script>`;
      expect(fewerScripts(page)).toBe(page);
    }
  });

  it('joins inline classic scripts with nothing between them, each an arrow function called at once', () => {
    const page =
      '<p>a</p><script>(()=>{log("one")})()</script>\n<script>(()=>{log("two");null.x})();</script>' +
      '<script>(()=>{log("three")})()</script><p>b</p><script>(()=>{log("four")})()</script>';
    const out = fewerScripts(page);
    const left = scripts(out);
    expect(left).toHaveLength(2);
    expect(out.startsWith('<p>a</p><script>')).toBe(true);
    const { log, thrown } = run(left[0]!.code);
    expect(log).toEqual(['one', 'two', 'three']);
    expect(thrown).toHaveLength(1);
    expect(left[1]!.code).toBe('(()=>{log("four")})()');
  });

  it("joins Astro's later directives' scripts to the first classic run: each only defines its directive", () => {
    // As Astro writes them: the runtime and a directive before the first island, another before the
    // first island that uses it.
    const directive = (name: string) =>
      `(()=>{var a=(l,o,e)=>{};(self.Astro||(self.Astro={})).${name}=a;window.dispatchEvent(new Event("astro:${name}"));})();`;
    const page =
      `<script>(()=>{log("runtime")})();</script><script>${directive('load')}</script><astro-island></astro-island>` +
      `<p>a</p><script>${directive('visible')}</script><astro-island></astro-island>` +
      `<script>(()=>{log("beside its markup")})()</script>`;
    const out = fewerScripts(page);
    const left = scripts(out);
    expect(left).toHaveLength(2);
    expect(out.startsWith('<script>')).toBe(true);
    expect(out).toContain(
      '<astro-island></astro-island><p>a</p><astro-island></astro-island><script>',
    );
    const defined: string[] = [];
    runInNewContext(left[0]!.code, {
      log: () => {},
      self: {},
      Event: class {
        type: string;
        constructor(type: string) {
          this.type = type;
        }
      },
      window: { dispatchEvent: (event: { type: string }) => defined.push(event.type) },
      setTimeout: () => {},
    });
    expect(defined).toEqual(['astro:load', 'astro:visible']);
    // A classic script that is not a directive's stays beside its markup.
    expect(left[1]!.code).toBe('(()=>{log("beside its markup")})()');
  });

  it('leaves data blocks, scripts with attributes, and classic code that is not a called arrow as they are', () => {
    const page =
      '<script type="application/ld+json">{"a":1}</script><script type="application/ld+json">{"b":2}</script>' +
      '<script>var a=1</script><script>var b=2</script>' +
      '<script async>(()=>{})()</script><script>(()=>{})()</script>' +
      '<script type="module">log(1)</script>';
    expect(fewerScripts(page)).toBe(page);
  });
});
