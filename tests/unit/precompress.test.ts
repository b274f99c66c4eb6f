/** Precompressing a build: what the worker threads write is what the quality rules give, byte for byte. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../src/integrations/precompress';
import { compressFile } from '../../src/integrations/precompress-worker';

let dir: string;
const files: Record<string, Buffer> = {};

/** Markup of about `size` random bytes' worth of words among repeated tags. */
function page(size: number) {
  const words = randomBytes(size)
    .toString('base64')
    .match(/.{1,12}/g)!;
  return Buffer.from(
    `<!doctype html><html><body>${words.map((word) => `<p class="copy">${word}</p>`).join('\n')}</body></html>`,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'precompress-'));
  mkdirSync(join(dir, 'laravel'));
  mkdirSync(join(dir, '_astro'));
  // A small page (quality 9 fits), one over the 14 KB line (the higher qualities are tried), a
  // script, a file under 512 bytes and one of a kind that is not compressed.
  files['index.html'] = page(4_000);
  files['laravel/index.html'] = page(14_000);
  files['_astro/island.js'] = Buffer.from(
    `export const list = ${JSON.stringify(randomBytes(4_000))};`,
  );
  files['tiny.css'] = Buffer.from('body{margin:0}');
  files['photo.png'] = randomBytes(2_000);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  await precompressDir(dir);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('precompressDir', () => {
  it('writes, from its worker threads, the bytes the quality rules give', () => {
    for (const name of ['index.html', 'laravel/index.html', '_astro/island.js']) {
      const expected = compressFile(name.endsWith('.html'), files[name]!);
      const br = readFileSync(join(dir, `${name}.br`));
      const gz = readFileSync(join(dir, `${name}.gz`));
      expect(br.equals(Buffer.from(expected.br)), name).toBe(true);
      expect(gz.equals(Buffer.from(expected.gz)), name).toBe(true);
      expect(brotliDecompressSync(br).equals(files[name]!), name).toBe(true);
      expect(gunzipSync(gz).equals(files[name]!), name).toBe(true);
    }
  });

  it('leaves alone files under 512 bytes and kinds that are not compressed', () => {
    expect(existsSync(join(dir, 'tiny.css.br'))).toBe(false);
    expect(existsSync(join(dir, 'photo.png.br'))).toBe(false);
  });
});
