/**
 * The editor's pending uploads (src/editor/dev-server/pending.ts): an upload no Save named goes
 * once it is older than the time kept; a newer one stays; a file not named as an upload is ignored;
 * one a browser's drafts still name stays however old, and goes a day after they no longer do.
 */
import { utimes } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PENDING_DAYS,
  dropPending,
  holdFor,
  keepPending,
  pendingIn,
  pendingPath,
  sweep,
} from '../../src/editor/dev-server/pending';

const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>\n');
const names = ['unit-test-old.svg', 'unit-test-new.svg', 'Unit Test Odd.svg'];

describe('pending uploads', () => {
  afterEach(async () => {
    for (const file of names) await dropPending('icons', file);
  });

  it('are swept once older than the time kept, and only then', async () => {
    for (const file of names) await keepPending('icons', file, svg);
    const old = (Date.now() - (PENDING_DAYS + 1) * 86_400_000) / 1000;
    await utimes(pendingPath('icons', 'unit-test-old.svg'), old, old);
    const before = await pendingIn('icons');
    expect(before.get('unit-test-old')).toBe('unit-test-old.svg');
    expect(before.get('unit-test-new')).toBe('unit-test-new.svg');
    // Not a name an upload gets: not one.
    expect([...before.values()]).not.toContain('Unit Test Odd.svg');
    await sweep();
    const after = await pendingIn('icons');
    expect(after.has('unit-test-old')).toBe(false);
    expect(after.has('unit-test-new')).toBe(true);
  });

  it('never replace one another', async () => {
    await keepPending('icons', 'unit-test-new.svg', svg);
    await expect(keepPending('icons', 'unit-test-new.svg', svg)).rejects.toMatchObject({
      code: 'EEXIST',
    });
  });
});

describe('pending uploads a draft names', () => {
  const browser = 'unit-test-browser-a';
  const other = 'unit-test-browser-b';
  const aged = async (file: string) => {
    const old = (Date.now() - (PENDING_DAYS + 1) * 86_400_000) / 1000;
    await utimes(pendingPath('icons', file), old, old);
  };
  afterEach(async () => {
    await holdFor(browser, []);
    await holdFor(other, []);
    for (const file of names) await dropPending('icons', file);
  });

  it('stay while the browser that sent them holds them, however old; let go, a day more', async () => {
    await keepPending('icons', 'unit-test-old.svg', svg, browser);
    await aged('unit-test-old.svg');
    await sweep();
    expect((await pendingIn('icons')).has('unit-test-old')).toBe(true);
    // Its drafts still name it: it stays.
    await holdFor(browser, [{ folder: 'icons', file: 'unit-test-old.svg' }]);
    await sweep();
    expect((await pendingIn('icons')).has('unit-test-old')).toBe(true);
    // No draft names it any more (the entry saved elsewhere, or reset): a day from now.
    await holdFor(browser, []);
    await sweep();
    expect((await pendingIn('icons')).has('unit-test-old')).toBe(true);
    await sweep(Date.now() + (PENDING_DAYS + 0.1) * 86_400_000);
    expect((await pendingIn('icons')).has('unit-test-old')).toBe(false);
  });

  it("one browser's drafts do not let go of what another's hold", async () => {
    await keepPending('icons', 'unit-test-old.svg', svg, browser);
    await holdFor(other, [{ folder: 'icons', file: 'unit-test-old.svg' }]);
    await holdFor(browser, []);
    await aged('unit-test-old.svg');
    await sweep();
    expect((await pendingIn('icons')).has('unit-test-old')).toBe(true);
    await holdFor(other, []);
    await sweep(Date.now() + (PENDING_DAYS + 0.1) * 86_400_000);
    expect((await pendingIn('icons')).has('unit-test-old')).toBe(false);
  });
});
