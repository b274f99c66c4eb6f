/**
 * The editor's pending uploads (src/editor/dev-server/pending.ts): an upload no Save named goes
 * once it is older than the time kept; a newer one stays; a file not named as an upload is ignored.
 */
import { utimes } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PENDING_DAYS,
  dropPending,
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
