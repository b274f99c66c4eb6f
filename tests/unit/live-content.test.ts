/**
 * The server's words of the agency follow the live release (src/server/live-content.ts): a build
 * that goes live has them read again by its first request, into the object every part holds; the
 * requests of a build no longer live, and a preview's, change nothing; a roll back to a build the
 * process served before brings its words back.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it, onTestFinished } from 'vitest';
import { liveContent, markLiveBuild, provideContent } from '../../src/server/live-content';

it('reads the words of each build that goes live, in place, and of no other', async () => {
  const root = mkdtempSync(join(tmpdir(), 'live-content-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const [one, two, preview] = ['releases/1', 'releases/2', 'preview/build-x'].map((dir) => {
    mkdirSync(join(root, dir), { recursive: true });
    return join(root, dir);
  });
  // The deploy's own folder may be a link: modules are addressed by their real path.
  symlinkSync(one!, join(root, 'current'));
  /** A build's reader, and where its middleware is. */
  const build = (dir: string, brand: string) => ({
    read: async () => ({ brand, hosts: [{ id: 'anna', name: `Anna of ${brand}` }] }),
    from: pathToFileURL(join(dir, 'server/virtual_astro_middleware.mjs')).href,
  });
  const first = build(one!, 'One');
  const second = build(two!, 'Two');
  const previewed = build(preview!, 'Preview');
  const provide = (b: typeof first) => provideContent(b.read, b.from);

  markLiveBuild(join(root, 'current'));
  await provide(first);
  const held = await liveContent<{ brand: string; hosts: { name: string }[] }>();
  expect(held.brand).toBe('One');
  // A preview's requests, and the live build's own again, change nothing.
  await provide(previewed);
  await provide(first);
  expect(held.brand).toBe('One');
  // A publish: the new build's first request waits for its words.
  markLiveBuild(two!);
  await provide(first); // a request the build before began
  expect(held.brand).toBe('One');
  await provide(second);
  expect(held).toEqual({ brand: 'Two', hosts: [{ id: 'anna', name: 'Anna of Two' }] });
  expect(await liveContent()).toBe(held);
  await provide(first);
  expect(held.brand).toBe('Two');
  // A roll back to the build served before: its words again.
  markLiveBuild(one!);
  await provide(first);
  expect(held.hosts[0]!.name).toBe('Anna of One');
});
