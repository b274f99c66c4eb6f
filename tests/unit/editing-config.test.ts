/**
 * EDITING's settings as the environment gives them (off unless `on`, the folders beside the store),
 * a publish's progress, and its build's priority and image cache.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { BuildFailed, commandBuilder } from '../../src/server/releases/build';
import { buildProgress } from '../../src/server/releases/publish-job';

it('keeps editing off unless EDITING=on, its folder beside the SQLite store’s by default', () => {
  const off = readConfig({ ENQUIRY_DB: '/var/lib/site/enquiries.sqlite' });
  expect(off.editing).toMatchObject({
    enabled: false,
    editingDir: '/var/lib/site/editing',
    draftDir: '/var/lib/site/editing/draft',
    repoDir: resolve('.'),
    releasesKept: 12,
    pollMs: 5000,
    buildCommand: undefined,
    buildPriority: 'low',
    buildMinutes: 30,
  });
  expect(off.staffEditors).toEqual([]);
  const on = readConfig({
    EDITING: 'on',
    EDITING_DIR: 'drafts',
    STAFF_EDITORS: 'erin@a.example, ben@a.example',
    EDITING_RELEASES_KEPT: '3',
    SITE_REPO_DIR: '/srv/site',
    PUBLISH_BUILD_COMMAND: ' node build.mjs ',
    PUBLISH_BUILD_PRIORITY: 'normal',
    PUBLISH_BUILD_MINUTES: '45',
  });
  expect(on.editing).toMatchObject({
    enabled: true,
    editingDir: resolve('drafts'),
    draftDir: join(resolve('drafts'), 'draft'),
    repoDir: '/srv/site',
    // Ten at least: the page offers that many to roll back to.
    releasesKept: 10,
    buildCommand: ['node', 'build.mjs'],
    buildPriority: 'normal',
    buildMinutes: 45,
  });
  expect(on.staffEditors).toEqual(['erin@a.example', 'ben@a.example']);
});

it('moves a publish’s progress bar forward with the build’s phases, pages and images', () => {
  const progressOf = buildProgress(2);
  const seen = [
    '[build] Building server entrypoints...',
    '  ├─ /about/index.html (+45ms)',
    '  └─ /contact/index.html (+55ms)',
    '  ▶ /_astro/a.avif (reused cache entry) (+0ms) (1/2)',
    '  ▶ /_astro/b.avif (+8ms) (2/2)',
    '[build] Server built in 21.72s',
    '[content] Synced content',
  ].map(progressOf);
  expect(seen).toEqual([26, 53, 68, 78, 87, 91, undefined]);
});

it('builds at the lowest CPU priority unless PUBLISH_BUILD_PRIORITY=normal', async () => {
  // `nice` alone prints the niceness it runs at.
  const niceness = async (priority?: 'low' | 'normal') => {
    const lines: string[] = [];
    await commandBuilder({
      dir: tmpdir(),
      command: ['nice'],
      priority,
      onLine: (l) => lines.push(l),
    });
    return Number(lines[0]);
  };
  const own = os.getPriority();
  expect(await niceness()).toBe(19);
  expect(await niceness('low')).toBe(19);
  expect(await niceness('normal')).toBe(own);
});

it('stops a build that runs past its time limit, and says so in words, nothing else left running', async () => {
  const root = mkdtempSync(join(tmpdir(), 'build-limit-'));
  try {
    // A build that never ends (a loop in a content file, say), its process id written first.
    const pidFile = join(root, 'pid');
    const started = Date.now();
    const failed = await commandBuilder({
      dir: root,
      command: [
        process.execPath,
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`,
      ],
      priority: 'normal',
      timeLimitMs: 300,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(BuildFailed);
    expect((failed as BuildFailed).message).toMatch(
      /^The build did not finish within a second, so it was stopped \(PUBLISH_BUILD_MINUTES\)\. Nothing on the site changed/,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    // Its process is gone (if it began at all before it was stopped).
    if (existsSync(pidFile))
      expect(() => process.kill(Number(readFileSync(pidFile, 'utf8')), 0)).toThrow();
    // One that ends in time is not stopped.
    await commandBuilder({ dir: root, command: ['true'], priority: 'normal', timeLimitMs: 60_000 });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

it("starts a build's image cache from the one beside its packages, once, and leaves a cache it has alone", async () => {
  const root = mkdtempSync(join(tmpdir(), 'image-cache-'));
  try {
    // The site's packages, with the images its own `npm run build` made; a build's project links them.
    const made = join(root, 'site/node_modules/.astro/assets');
    mkdirSync(join(root, 'site/node_modules/astro'), { recursive: true });
    mkdirSync(made, { recursive: true });
    writeFileSync(join(made, 'photo_1a2b.webp'), 'drawn');
    mkdirSync(join(root, 'project/node_modules'), { recursive: true });
    symlinkSync(join(root, 'site/node_modules/astro'), join(root, 'project/node_modules/astro'));
    const cacheDir = join(root, 'project/cache');
    const build = () =>
      commandBuilder({
        dir: join(root, 'project'),
        cacheDir,
        command: ['true'],
        priority: 'normal',
      });

    await build();
    expect(readFileSync(join(cacheDir, 'assets/photo_1a2b.webp'), 'utf8')).toBe('drawn');
    expect(readdirSync(cacheDir)).toEqual(['assets']);
    // Its own from then on: what the builds add stays, and nothing is copied over it again.
    writeFileSync(join(cacheDir, 'assets/photo_1a2b.webp'), 'drawn by the preview');
    writeFileSync(join(made, 'logo_3c4d.webp'), 'new');
    await build();
    expect(readdirSync(join(cacheDir, 'assets'))).toEqual(['photo_1a2b.webp']);
    expect(readFileSync(join(cacheDir, 'assets/photo_1a2b.webp'), 'utf8')).toBe(
      'drawn by the preview',
    );
    // No images beside the packages (never built there), or no packages: the build makes its own.
    const bare = join(root, 'bare-cache');
    const buildIn = (dir: string) =>
      commandBuilder({ dir, cacheDir: bare, command: ['true'], priority: 'normal' });
    rmSync(made, { recursive: true });
    await buildIn(join(root, 'project'));
    mkdirSync(join(root, 'no-packages'));
    await buildIn(join(root, 'no-packages'));
    expect(existsSync(bare)).toBe(false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
