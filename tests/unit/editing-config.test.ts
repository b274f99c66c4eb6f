/** EDITING's settings as the environment gives them (off unless `on`, the folders beside the store), and a publish's progress. */
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { commandBuilder } from '../../src/server/releases/build';
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
