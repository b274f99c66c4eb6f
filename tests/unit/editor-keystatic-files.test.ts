/**
 * Keystatic's local API on the project's files, as the editor has it:
 * - its tree read (src/editor/dev-server/keystatic-reads.ts): a file that goes between Keystatic's
 *   listing of its folder and its read of it is left out of the tree, where the whole request
 *   failed. The race is made here: the read of one file finds it renamed just before;
 * - its Save (src/editor/dev-server/keystatic-writes.ts): each file written whole beside the old one
 *   and renamed into place, so that no reader finds it empty or half written.
 * Node loads Keystatic's API once a test file's worker has asked for it: both rewrites are put in
 * place before that, here.
 */
import fs from 'node:fs/promises';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import config from '../../src/editor/schema';
import {
  rewriteTreeRead,
  tolerateFilesGoneWhileRead,
  treeReadRewrites,
} from '../../src/editor/dev-server/keystatic-reads';
import {
  beingWritten,
  rewriteUpdate,
  writeRewrites,
  writeSavesWhole,
} from '../../src/editor/dev-server/keystatic-writes';

tolerateFilesGoneWhileRead();
writeSavesWhole();
const { makeGenericAPIRouteHandler } = await import('@keystatic/core/api/generic');

const folder = mkdtempSync(join(tmpdir(), 'keystatic-files-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const dist = 'node_modules/@keystatic/core/dist';
const readerFile = async () => {
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

describe("Keystatic's Save, each file written whole", () => {
  it('the rewrite finds its text in the Keystatic installed, and touches no other module', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const path = join(dist, 'keystatic-core-api-generic.node.js');
    const code = readFileSync(path, 'utf8');
    expect(rewriteUpdate(code, path)).toContain(writeRewrites[0]!.to);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(rewriteUpdate(code, path.replace('.node.js', '.worker.js'))).toBeNull();
  });

  const project = join(folder, 'saves');
  const data = join(project, 'src/content/data');
  const services = join(project, 'src/content/services');
  const handler = makeGenericAPIRouteHandler({
    config,
    localBaseDirectory: project,
  } as Parameters<typeof makeGenericAPIRouteHandler>[0]);
  const save = (additions: Record<string, string>) =>
    handler(
      new Request('http://127.0.0.1/api/keystatic/update', {
        method: 'POST',
        headers: { 'no-cors': '1', 'content-type': 'application/json' },
        body: JSON.stringify({
          additions: Object.entries(additions).map(([path, text]) => ({
            path,
            contents: Buffer.from(text).toString('base64url'),
          })),
          deletions: [],
        }),
      }),
    );
  const leftOver = () =>
    [data, services].flatMap((dir) => readdirSync(dir).filter((name) => name.startsWith('.')));

  it('replaces a file whole, keeping its mode, writes a new one, and leaves nothing beside them', async () => {
    mkdirSync(data, { recursive: true });
    mkdirSync(services, { recursive: true });
    const testimonials = join(data, 'testimonials.yaml');
    writeFileSync(testimonials, 'items: []\n');
    chmodSync(testimonials, 0o640);
    const before = statSync(testimonials);
    const rename = vi.spyOn(fs, 'rename');
    const answer = await save({
      'src/content/data/testimonials.yaml': 'items:\n  - company: Glitty\n',
      'src/content/services/kotlin.mdx': '---\ntitle: Kotlin\n---\n',
    });
    expect(answer.status).toBe(200);
    // The history and the tabs know a file being written, and wait for the one it becomes.
    const renamed = rename.mock.calls.map(([from, to]) => [String(from), String(to)]);
    rename.mockRestore();
    expect(renamed).toHaveLength(2);
    for (const [from, to] of renamed) {
      expect(beingWritten(from!), from).toBe(true);
      expect(beingWritten(to!), to).toBe(false);
    }
    const after = statSync(testimonials);
    expect(readFileSync(testimonials, 'utf8')).toBe('items:\n  - company: Glitty\n');
    // Another file took its place: what had it open still reads the old one, whole.
    expect(after.ino).not.toBe(before.ino);
    expect(after.mode & 0o777).toBe(0o640);
    expect(readFileSync(join(services, 'kotlin.mdx'), 'utf8')).toBe('---\ntitle: Kotlin\n---\n');
    expect(leftOver()).toEqual([]);
  });

  it('leaves the old file as it was, and nothing beside it, when the new one cannot take its place', async () => {
    const testimonials = join(data, 'testimonials.yaml');
    writeFileSync(testimonials, 'items: []\n');
    const rename = vi.spyOn(fs, 'rename').mockRejectedValueOnce(new Error('EIO: the disk failed'));
    await expect(save({ 'src/content/data/testimonials.yaml': 'items: [1]\n' })).rejects.toThrow(
      'EIO',
    );
    rename.mockRestore();
    expect(readFileSync(testimonials, 'utf8')).toBe('items: []\n');
    expect(leftOver()).toEqual([]);
  });
});
