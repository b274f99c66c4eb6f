/**
 * The hand-over names (src/domain/hand-over.ts) are the one spelling of the data attributes (and the
 * events) that first moves, islands, components and stylesheets share. Code imports them; stylesheets cannot, so
 * this reads them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as handOver from '../../src/domain/hand-over';

const names = new Set<string>(Object.values(handOver));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
const source = files('src').filter((file) => /\.(ts|tsx|astro|css)$/.test(file));
const dataNames = (text: string) => text.match(/\bdata-[a-z][a-z-]*/g) ?? [];
/** An .astro file without its <style> blocks (CSS, which cannot import). */
const withoutStyles = (text: string) => text.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');

describe('hand-over names', () => {
  it('are all data attributes or first-move events, each named once', () => {
    expect([...names].every((name) => /^(data-|first-move:)[a-z][a-z-]*$/.test(name))).toBe(true);
    expect(names.size).toBe(Object.keys(handOver).length);
  });

  it('are spelled out by no script, island or component: they import them', () => {
    const spelled = source
      .filter((file) => !file.endsWith('.css') && !file.endsWith('hand-over.ts'))
      .flatMap((file) =>
        dataNames(withoutStyles(readFileSync(file, 'utf8')))
          .filter((name) => names.has(name))
          .map((name) => `${file}: ${name}`),
      );
    expect(spelled).toEqual([]);
  });

  it('are the only data attributes the shared stylesheets select', () => {
    const css = source.filter((file) => file.startsWith(join('src', 'styles')));
    const selected = css.flatMap((file) =>
      dataNames(readFileSync(file, 'utf8')).map((name) => ({ file, name })),
    );
    expect(selected.length).toBeGreaterThan(0);
    expect(selected.filter(({ name }) => !names.has(name))).toEqual([]);
  });
});
