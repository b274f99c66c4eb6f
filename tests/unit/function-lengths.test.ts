/**
 * The length check of `npm run check:architecture` (scripts/function-lengths.mjs): what it counts
 * as a function's length, how it names one, and what it reports of a tree.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { functionLengths, lengthProblems } from '../../scripts/function-lengths.mjs';

/** `count` lines of statements. */
const statements = (count: number) =>
  Array.from({ length: count }, (_, i) => `  step(${i});`).join('\n');

/** A function whose body spans `lines` lines, its braces' included. */
const functionOf = (name: string, lines: number) =>
  `export function ${name}() {\n${statements(lines - 2)}\n}\n`;

describe('a function’s length', () => {
  it('is its body’s lines, from its opening brace to its closing one', () => {
    const text = `/**\n * Its comment is not counted.\n */\n${functionOf('short', 80)}`;
    expect(functionLengths('a.ts', text)).toEqual([{ name: 'short', line: 4, lines: 80 }]);
  });

  it('counts the functions written inside it, and names each as a reader finds it', () => {
    const text = [
      'export const outer = (items: number[]) => {',
      '  const inner = () => {',
      statements(3),
      '  };',
      '  return items.map((item) => {',
      statements(2),
      '  });',
      '};',
      'class Keeper {',
      '  #tx() {',
      statements(1),
      '  }',
      '}',
      'const methods = { async read() {',
      statements(1),
      '} };',
    ].join('\n');
    expect(functionLengths('b.ts', text)).toEqual([
      { name: 'outer', line: 1, lines: 11 },
      { name: 'inner', line: 2, lines: 5 },
      { name: 'a function in outer', line: 7, lines: 4 },
      { name: '#tx', line: 13, lines: 3 },
      { name: 'read', line: 17, lines: 3 },
    ]);
  });
});

describe('the check of a tree', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });
  const tree = (files: Record<string, string>) => {
    root = mkdtempSync(join(tmpdir(), 'function-lengths-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };

  it('names each function over 80 lines of src/server and src/lib, where it is and how long', () => {
    const at = tree({
      'src/server/http/server.ts': functionOf('createSiteServer', 81) + functionOf('fine', 80),
      'src/lib/content.mjs': `\n${functionOf('load', 200)}`,
      'src/islands/Form.tsx': functionOf('Form', 200),
    });
    expect(lengthProblems(at, { exceptions: new Map() })).toEqual([
      'src/server/http/server.ts:1 createSiteServer: 81 lines, over 80: split it by what it decides',
      'src/lib/content.mjs:2 load: 200 lines, over 80: split it by what it decides',
    ]);
  });

  it('leaves out an exception while it is over, and says so once it is not', () => {
    const exceptions = new Map([['src/server/booking/change.ts changeCall', 'being split']]);
    const over = tree({ 'src/server/booking/change.ts': functionOf('changeCall', 90) });
    expect(lengthProblems(over, { exceptions })).toEqual([]);
    rmSync(over, { recursive: true });
    const split = tree({ 'src/server/booking/change.ts': functionOf('changeCall', 40) });
    expect(lengthProblems(split, { exceptions })).toEqual([
      'src/server/booking/change.ts changeCall is 80 lines or fewer now: take it off EXCEPTIONS in scripts/function-lengths.mjs',
    ]);
  });
});
