/**
 * The rewrites of Keystatic's browser code (src/editor/dev-server/keystatic-rewrites.ts) all apply
 * to the Keystatic installed: an update of Keystatic that changes the code they rewrite fails here,
 * before the editor's browser tests show it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  keystaticRewrites,
  rewriteKeystatic,
} from '../../src/editor/dev-server/keystatic-rewrites';
import { saveRewrites } from '../../src/editor/dev-server/keystatic-saves';

/** The browser builds of Keystatic and Keystar UI, as Vite pre-bundles them. */
const browserFiles = ['node_modules/@keystatic/core/dist', 'node_modules/@keystar/ui/dist'].flatMap(
  (folder) =>
    readdirSync(folder)
      .filter((file) => file.endsWith('.js') && !/\.(node|worker|react-server)\./.test(file))
      .map((file) => join(folder, file)),
);

describe("Keystatic's code as the editor rewrites it", () => {
  afterEach(() => vi.restoreAllMocks());

  it('every rewrite finds its text', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let rewritten = '';
    for (const path of browserFiles) {
      const code = readFileSync(path, 'utf8');
      if (!keystaticRewrites.some(({ module }) => code.includes(module))) continue;
      rewritten += rewriteKeystatic(code, path) ?? '';
    }
    expect(warn).not.toHaveBeenCalled();
    for (const { to } of keystaticRewrites) expect(rewritten).toContain(to);
    expect(rewritten).not.toContain('buttonLabelBehavior: "hide"');
  });

  it('the rewrites for Saves on the version opened find their text, each once, after the others', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let rewritten = '';
    for (const path of browserFiles) {
      const code = readFileSync(path, 'utf8');
      const concerned = saveRewrites.filter(({ module }) => code.includes(module));
      if (!concerned.length) continue;
      // Each text once in its file, so that the rewrite lands in the function it names.
      for (const { from } of concerned) expect(code.split(from).length - 1, from).toBe(1);
      rewritten += rewriteKeystatic(rewriteKeystatic(code, path) ?? code, path, saveRewrites) ?? '';
    }
    expect(warn).not.toHaveBeenCalled();
    for (const { to } of saveRewrites) expect(rewritten).toContain(to);
  });

  it("leaves other packages' code alone", () => {
    expect(
      rewriteKeystatic(
        'const SlugFieldContext = /*#__PURE__*/createContext(undefined);',
        '/x/react/index.js',
      ),
    ).toBeNull();
  });
});
