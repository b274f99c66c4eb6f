/**
 * Keystatic's tree read (src/editor/dev-server/keystatic-reads.ts): a file that goes between
 * Keystatic's listing of its folder and its read of it is left out of the tree, where the whole
 * request failed. The race is made here: the read of one file finds it renamed just before.
 */
import fs from 'node:fs/promises';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  rewriteTreeRead,
  tolerateFilesGoneWhileRead,
  treeReadRewrites,
} from '../../src/editor/dev-server/keystatic-reads';

const folder = mkdtempSync(join(tmpdir(), 'keystatic-reads-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const readerFile = async () => {
  const dist = 'node_modules/@keystatic/core/dist';
  const name = (await fs.readdir(dist)).find((file) => /^read-local-[\w-]+\.node\.js$/.test(file));
  return join(dist, name!);
};

describe("Keystatic's tree read while files move", () => {
  it('the rewrite finds its text in the Keystatic installed, and touches no other module', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const path = await readerFile();
    const code = readFileSync(path, 'utf8');
    expect(rewriteTreeRead(code, path)).toContain(treeReadRewrites[0]!.to);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(rewriteTreeRead(code, path.replace('read-local', 'reader'))).toBeNull();
  });

  it('answers the tree without a file renamed between the listing and its read, and with it at its new name next time', async () => {
    tolerateFilesGoneWhileRead();
    const { makeGenericAPIRouteHandler } = await import('@keystatic/core/api/generic');
    const services = join(folder, 'src/content/services');
    mkdirSync(services, { recursive: true });
    for (const slug of ['ipad', 'iphone', 'android'])
      writeFileSync(join(services, `${slug}.mdx`), `---\ntitle: ${slug}\n---\n`);
    const handler = makeGenericAPIRouteHandler({
      config: { storage: { kind: 'local' } },
      localBaseDirectory: folder,
    } as Parameters<typeof makeGenericAPIRouteHandler>[0]);
    const tree = async () => {
      const answer = await handler(
        new Request('http://127.0.0.1/api/keystatic/tree', { headers: { 'no-cors': '1' } }),
      );
      expect(answer.status).toBe(200);
      return (JSON.parse(String(answer.body)) as { path: string }[]).map(({ path }) => path);
    };
    // The rename lands as Keystatic reads the file it listed.
    const read = fs.readFile;
    const spy = vi.spyOn(fs, 'readFile').mockImplementation(async (path, options) => {
      if (String(path).endsWith('ipad.mdx')) {
        spy.mockRestore();
        renameSync(join(services, 'ipad.mdx'), join(services, 'ipad-apps.mdx'));
      }
      return read(path, options) as ReturnType<typeof fs.readFile>;
    });
    const during = await tree();
    expect(during).toEqual(
      expect.arrayContaining([
        'src/content/services/iphone.mdx',
        'src/content/services/android.mdx',
      ]),
    );
    expect(during).not.toContain('src/content/services/ipad.mdx');
    expect(await tree()).toContain('src/content/services/ipad-apps.mdx');
  });
});
