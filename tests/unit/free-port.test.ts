import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/local.mjs';

describe('freePort', () => {
  // 200 draws from some 22,000 ports would repeat one nine times in ten if nothing were written down.
  it('never hands out one port twice while its server may still be starting', async () => {
    const ports = [];
    for (let i = 0; i < 200; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('leaves alone the ports another process was handed', async () => {
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { freePort } from './scripts/local.mjs';
         const ports = [];
         for (let i = 0; i < 200; i++) ports.push(await freePort());
         console.log(JSON.stringify(ports));`,
      ],
      { encoding: 'utf8' },
    );
    const theirs = new Set<number>(JSON.parse(child.stdout));
    const ours = [];
    for (let i = 0; i < 200; i++) ours.push(await freePort());
    expect(ours.filter((port) => theirs.has(port))).toEqual([]);
  });
});
