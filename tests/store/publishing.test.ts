/**
 * Publishing from the browser, on both engines, with a stand-in for `astro build` (a few files
 * made from the checkout's content, in milliseconds; tests/integration/live-editor.test.ts runs the real
 * one): a draft's change is one release however many presses, a commit by the member naming it,
 * live by the `current` link; a failed build changes nothing live and says why; a roll back is a
 * release of its own, at once; another machine, sharing only the store, follows the live release.
 * A publish of exactly what the draft's preview built uses that build (one build in all); of
 * anything else (a save after the preview, other code), it builds anew. After a roll back, the
 * preview shows what a publish makes now (the draft's changes on what is live), or says that a
 * publish would be refused.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EditingConfig } from '../../src/server/config';
import {
  PUBLISHED_MEANWHILE,
  Publishing,
  type PublishPayload,
} from '../../src/server/releases/publishing';
import { publishHandler } from '../../src/server/releases/publish-job';
import { BuildFailed, failureWords, type Builder } from '../../src/server/releases/build';
import { currentFolder, releaseDir } from '../../src/server/releases/folders';
import {
  backupEditing,
  editingBackupProblem,
  restoreEditing,
} from '../../src/server/releases/backup';
import { buildPreview, previewEntry, previewFile } from '../../src/server/staff/preview';
import { advancePublished, inDraftTurn, publishedRef } from '../../src/server/releases/draft';
import { ContentHistory } from '../../src/editor/dev-server/history/content-history';
import type { EnquiryStore, Job } from '../../src/server/store/types';
import { ahead, call, plus } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

/**
 * What runs just before git next writes the draft's files from its index (`checkout-index`, the
 * last step of a publish carried across): an editor's Save arriving at that moment.
 */
const beforeCheckout: (() => Promise<void>)[] = [];
/** What runs just before git next moves a branch (`update-ref`): a roll back landing at that moment. */
const beforeBranchMove: (() => Promise<void>)[] = [];
/** The git commands run (their first word), for a test that counts them. */
const gitRuns: string[] = [];
vi.mock('../../src/server/releases/git', async (original) => {
  const real = await original<typeof import('../../src/server/releases/git')>();
  return {
    ...real,
    git: async (args: readonly string[], options: Parameters<typeof real.git>[1]) => {
      gitRuns.push(args[0]!);
      if (args[0] === 'checkout-index')
        for (const arrive of beforeCheckout.splice(0)) await arrive();
      if (args[0] === 'update-ref') for (const arrive of beforeBranchMove.splice(0)) await arrive();
      return real.git(args, options);
    },
  };
});

const SERVICE = 'src/content/services/android.mdx';
const service = (title: string) => `---\nslug: android\ntitle: ${title}\n---\n\nProse.\n`;
const AVAILABILITY = 'src/content/data/availability.yaml';
/** availability.yaml's hosts, as `entries` of its `calls` entry. */
const hosts = (...names: string[]) =>
  `entries:\n  - id: calls\n    hosts:\n${names
    .map((name) => `      - id: ${name.split(' ')[0]!.toLowerCase()}\n        name: ${name}\n`)
    .join('')}`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }).trim();

/** A site's repository: its content, and a node_modules the checkouts link to. */
function siteRepo(root: string) {
  const repo = join(root, 'site');
  // Made once a run, then copied for each test: the same start without three git processes each.
  template ??= makeSiteRepo(mkdtempSync(join(tmpdir(), 'publishing-template-')));
  cpSync(template, repo, { recursive: true, preserveTimestamps: true });
  return repo;
}
let template: string | undefined;
afterAll(() => template && rmSync(dirname(template), { recursive: true, force: true }));

function makeSiteRepo(root: string) {
  const repo = join(root, 'site');
  mkdirSync(join(repo, 'src/content/services'), { recursive: true });
  mkdirSync(join(repo, 'src/content/data'), { recursive: true });
  mkdirSync(join(repo, 'node_modules'));
  writeFileSync(join(repo, SERVICE), service('Android App'));
  writeFileSync(join(repo, 'src/content/data/redirects.yaml'), 'entries: []\n');
  writeFileSync(join(repo, AVAILABILITY), hosts('Anna Reid', 'Ben Okafor'));
  writeFileSync(join(repo, '.gitignore'), 'node_modules\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, '-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', 'commit', '-qm', 'The site');
  return repo;
}

/** The folders the stand-in build was run in, in order. */
const built: string[] = [];

/** The stand-in build: the service page's title into a page and a handler; "BREAK" fails it. */
const fakeBuild: Builder = async ({ dir, onLine }) => {
  built.push(dir);
  const title = /^title: (.*)$/m.exec(readFileSync(join(dir, SERVICE), 'utf8'))![1]!;
  if (title.includes('BREAK'))
    throw new BuildFailed(
      failureWords([
        '[InvalidContentEntryDataError] services → android data does not match collection schema: title is too long.',
      ]),
    );
  mkdirSync(join(dir, 'dist/client/android'), { recursive: true });
  mkdirSync(join(dir, 'dist/server'), { recursive: true });
  writeFileSync(join(dir, 'dist/client/android/index.html'), `<h1>${title}</h1>`);
  onLine?.('  ├─ /android/index.html (+3ms)');
  writeFileSync(
    join(dir, 'dist/server/entry.mjs'),
    `export const handler = (req, res) => res.end(${JSON.stringify(title)});\n`,
  );
};

const editing = (root: string, repo: string, name = 'editing'): EditingConfig => ({
  enabled: true,
  editingDir: join(root, name),
  draftDir: join(root, name, 'draft'),
  repoDir: repo,
  releasesKept: 10,
  pollMs: 5000,
  buildCommand: undefined,
  buildPriority: 'low',
  buildMinutes: 30,
});

const editor = { name: 'Erin Editor', email: 'erin@example.com' };

describe.each(Object.keys(backends) as (keyof typeof backends)[])('publishing on %s', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  let root: string;
  let repo: string;
  let publishing: Publishing;
  const clock = { now: Date.parse('2027-01-05T09:00:00Z') };

  beforeEach(async () => {
    backend = await backends[kind]();
    store = backend.store;
    root = mkdtempSync(join(tmpdir(), 'publishing-'));
    built.length = 0;
    logs.length = 0;
    repo = siteRepo(root);
    publishing = new Publishing({
      config: editing(root, repo),
      store,
      builder: fakeBuild,
      now: () => clock.now,
      jobKind: 'publish-test',
    });
  });
  afterEach(async () => {
    await backend.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  const draftFile = () => join(publishing.options.config.draftDir, SERVICE);
  /** The lines the publish jobs gave the log. */
  const logs: string[] = [];
  /** Runs the publish jobs due, as the queue would. */
  const runJobs = async () => {
    clock.now += 1000;
    const due = (await store.claimDue(clock.now, 10, 60_000)) as Job<PublishPayload>[];
    for (const job of due) logs.push((await publishHandler(publishing)(job)).log ?? '');
    return due.length;
  };
  const livePage = async () => {
    const folder = await currentFolder(publishing.paths);
    return readFileSync(
      join(releaseDir(publishing.paths, folder!), 'client/android/index.html'),
      'utf8',
    );
  };
  const publish = async (title: string) => {
    await publishing.view();
    writeFileSync(draftFile(), service(title));
    await publishing.start(editor);
    await runJobs();
  };

  it('publishes a draft’s change once, however many presses, as a commit by the member', async () => {
    expect((await publishing.view()).changes).toEqual([]);
    writeFileSync(draftFile(), service('Android Apps That Last'));
    expect((await publishing.view()).changes).toEqual([
      { kind: 'changed', what: 'Android Apps That Last', address: '/android' },
    ]);
    const presses = await Promise.all([publishing.start(editor), publishing.start(editor)]);
    expect(presses.filter((p) => p.started)).toHaveLength(1);
    expect(presses[0]!.publish.id).toBe(presses[1]!.publish.id);
    expect(await runJobs()).toBe(1);

    const latest = await store.releases.latestPublish();
    expect(latest).toMatchObject({ state: 'live', progress: 100, step: 'Live' });
    expect(await livePage()).toBe('<h1>Android Apps That Last</h1>');
    expect(git(repo, 'log', '-1', '--format=%an <%ae>|%s', 'published')).toBe(
      'Erin Editor <erin@example.com>|Publish: Changed Android Apps That Last (/android)',
    );
    // The draft goes on from what is live: nothing left to publish, nothing behind.
    expect(await publishing.view()).toMatchObject({ changes: [], behindLive: false });
  });

  it('says which host the draft removes has calls ahead, and how many, before it is published', async () => {
    const booked = (host: string, at: string) => {
      const start = ahead(at);
      return backend.bookings.commit(
        call(start, {
          // Each from a prospect and a network of its own (the booking caps have their tests).
          email: `${host}.${start.slice(0, 13)}@example.com`,
          clientIp: `192.0.${start.slice(8, 10)}.${start.slice(11, 13)}`,
          call: { start, end: plus(start, 30), hosts: [host] },
        }),
        true,
      );
    };
    await booked('ben', '2027-01-06T10:00:00Z');
    await booked('ben', '2027-01-07T10:00:00Z');
    await booked('anna', '2027-01-06T11:00:00Z');
    await publishing.view();
    const draftHosts = join(publishing.options.config.draftDir, AVAILABILITY);
    // Anna removed too: she has a call ahead as well.
    writeFileSync(draftHosts, hosts('Cara Diaz'));
    const view = await publishing.view();
    expect(view.changes.map((change) => `${change.kind} ${change.what}`)).toEqual([
      'changed the hosts and their hours',
      'removed the host Anna Reid',
      'removed the host Ben Okafor',
      'added the host Cara Diaz',
    ]);
    expect(view.hostsLeaving).toEqual([
      { id: 'anna', name: 'Anna Reid', calls: 1 },
      { id: 'ben', name: 'Ben Okafor', calls: 2 },
    ]);
    // Ben kept: only Anna is said.
    writeFileSync(draftHosts, hosts('Ben Okafor'));
    expect((await publishing.view()).hostsLeaving).toEqual([
      { id: 'anna', name: 'Anna Reid', calls: 1 },
    ]);
  });

  it('reads the page’s state again without git, changed by whatever changes what the page shows', async () => {
    const shown = await publishing.view();
    const stateNow = async () => {
      gitRuns.length = 0;
      const state = await publishing.state();
      expect(gitRuns).toEqual([]);
      return state;
    };
    expect(shown.state).toBeTruthy();
    expect(await stateNow()).toBe(shown.state);
    // A Save: the draft's file.
    writeFileSync(draftFile(), service('Android, Saved'));
    expect(await stateNow()).not.toBe(shown.state);
    const saved = await publishing.view();
    expect(await stateNow()).toBe(saved.state);
    // Start again, then its dropped draft brought back.
    expect(await publishing.restartDraft(editor, saved.draft)).toBe(true);
    expect(await stateNow()).not.toBe(saved.state);
    const dropped = await publishing.view();
    expect(await publishing.bringBack(dropped.dropped[0]!.id)).toBe(true);
    expect(await stateNow()).not.toBe(dropped.state);
    const back = await publishing.view();
    // A publish started (the store's), then its steps.
    await publishing.start(editor);
    expect(await stateNow()).not.toBe(back.state);
    const started = await publishing.view();
    await runJobs();
    expect(await stateNow()).not.toBe(started.state);
  });

  it('shows a publish that went live while git read the draft as live, in its progress and its list alike', async () => {
    await publish('Android Apps');
    writeFileSync(draftFile(), service('Android, Going Live'));
    await publishing.start(editor);
    const describe = publishing.describe.bind(publishing);
    let meanwhile = true;
    // The publish's job runs, and goes live, as the page's view reads the draft in words.
    publishing.describe = async (...args) => {
      if (meanwhile) {
        meanwhile = false;
        expect(await runJobs()).toBe(1);
      }
      return describe(...args);
    };
    const view = await publishing.view();
    expect(view.latest).toMatchObject({ state: 'live', progress: 100 });
    expect(view.live?.id).toBe(view.latest?.releaseId);
    expect(view.releases[0]?.id).toBe(view.live?.id);
    // The draft read against what is live now: nothing left to publish.
    expect(view).toMatchObject({ changes: [], behindLive: false });
  });

  it('changes nothing live when the build fails, and says why in words', async () => {
    await publish('Android Apps');
    const before = git(repo, 'rev-parse', 'published');
    await publish('BREAK the page');
    const latest = await store.releases.latestPublish();
    expect(latest?.state).toBe('failed');
    expect(latest?.reason).toMatch(
      /could not be built, so nothing changed on the live site.*title is too long/,
    );
    expect(await livePage()).toBe('<h1>Android Apps</h1>');
    expect(git(repo, 'rev-parse', 'published')).toBe(before);
    // Another press may start once it has failed.
    expect((await publishing.start(editor)).started).toBe(true);
  });

  it('rolls back at once, as a release of its own that can be rolled back, the draft following it', async () => {
    await publish('First words');
    await publish('Second words');
    const [second, first] = await store.releases.recent(10);
    const rolled = await publishing.rollBack(editor, first!.id);
    expect(rolled).toMatchObject({ kind: 'rollback', folder: first!.id, actorName: 'Erin Editor' });
    expect(await livePage()).toBe('<h1>First words</h1>');
    expect(git(repo, 'log', '-1', '--format=%an|%s', 'published')).toBe(
      `Erin Editor|Roll back to release ${first!.id} (Erin Editor, 2027-01-05 09:00 UTC)`,
    );
    expect(git(repo, 'show', `published:${SERVICE}`)).toBe(service('First words').trim());
    // The draft had no change of its own: it shows what is live, nothing asked, nothing to drop.
    expect(readFileSync(draftFile(), 'utf8')).toBe(service('First words'));
    expect(await publishing.view()).toMatchObject({
      behindLive: false,
      changes: [],
      clash: undefined,
    });

    await publishing.rollBack(editor, second!.id);
    expect(await livePage()).toBe('<h1>Second words</h1>');
    // An edit of the entry rolled back is made on what is live, and publishes.
    await publish('Third words');
    expect(await livePage()).toBe('<h1>Third words</h1>');
  });

  it('after a roll back of text the draft changed, says which changes cannot be added to what is live, before any press', async () => {
    await publish('First words');
    await publish('Second words');
    const [, first] = await store.releases.recent(10);
    await publishing.view();
    writeFileSync(draftFile(), service('Third words'));
    writeFileSync(
      join(publishing.options.config.draftDir, AVAILABILITY),
      hosts('Anna Reid', 'Ben Okafor', 'Cara Diaz'),
    );
    await publishing.rollBack(editor, first!.id);
    // The roll back took back the very title the draft changes: the draft stays as it was.
    expect(readFileSync(draftFile(), 'utf8')).toBe(service('Third words'));
    const view = await publishing.view();
    expect(view.behindLive).toBe(true);
    // Only the title clashes; the hosts would be added to what is live.
    expect(view.clash).toEqual({
      reason: expect.stringMatching(/live site changed in the same text/),
      changes: [{ kind: 'changed', what: 'Third words', address: '/android' }],
    });
    // Asked once for that draft and that live release: another visit runs no merge.
    gitRuns.length = 0;
    expect((await publishing.view()).clash).toEqual(view.clash);
    expect(gitRuns).not.toContain('merge-tree');
    // The title put back as live has it: nothing clashes, and a publish adds the hosts.
    writeFileSync(draftFile(), service('First words'));
    expect(await publishing.view()).toMatchObject({ behindLive: true, clash: undefined });
  });

  it('starts again only from the draft shown, names who saved each change, and keeps what it drops to bring back', async () => {
    await publish('First words');
    const { draftDir } = publishing.options.config;
    // Saves as the editor's History records them, each by the member who made it.
    const history = new ContentHistory(draftDir);
    const anna = { name: 'Anna Reid', email: 'anna@example.com' };
    const marc = { name: 'Marc Weber', email: 'marc@example.com' };
    const save = (by: typeof anna, path: string, text: string) =>
      history.record('Saved in the editor', {
        by,
        write: async () => writeFileSync(join(draftDir, path), text),
      });
    await save(anna, SERVICE, service('Anna’s words'));
    await save(marc, AVAILABILITY, hosts('Anna Reid', 'Ben Okafor', 'Cara Diaz'));
    await save(marc, SERVICE, service('Anna’s words, and Marc’s'));
    const shown = await publishing.view();
    expect(shown.changes).toEqual([
      { kind: 'changed', what: 'the hosts and their hours', savedBy: ['Marc Weber'] },
      {
        kind: 'added',
        what: 'the host Cara Diaz',
        host: { id: 'cara', name: 'Cara Diaz' },
        savedBy: ['Marc Weber'],
      },
      {
        kind: 'changed',
        what: 'Anna’s words, and Marc’s',
        address: '/android',
        savedBy: ['Anna Reid', 'Marc Weber'],
      },
    ]);
    // A colleague saves after the list was shown: the press drops nothing.
    await save(anna, SERVICE, service('Saved after the list'));
    expect(await publishing.restartDraft(editor, shown.draft)).toBe(false);
    expect(readFileSync(draftFile(), 'utf8')).toBe(service('Saved after the list'));
    expect(await publishing.restartDraft(editor, (await publishing.view()).draft)).toBe(true);
    expect(readFileSync(draftFile(), 'utf8')).toBe(service('First words'));
    const after = await publishing.view();
    expect(after.changes).toEqual([]);
    expect(after.dropped).toEqual([
      {
        id: `${clock.now}-${after.dropped[0]?.id.slice(-6)}`,
        by: 'Erin Editor',
        at: clock.now,
        summary: expect.stringContaining(
          '- Changed Saved after the list (/android), saved by Anna Reid and Marc Weber',
        ),
      },
    ]);
    // Brought back from Publishing: the draft's again, no longer listed as dropped.
    expect(await publishing.bringBack('../../heads/published')).toBeUndefined();
    expect(await publishing.bringBack(after.dropped[0]!.id)).toBe(true);
    expect(readFileSync(draftFile(), 'utf8')).toBe(service('Saved after the list'));
    expect(readFileSync(join(draftDir, AVAILABILITY), 'utf8')).toContain('Cara Diaz');
    expect((await publishing.view()).dropped).toEqual([]);
    expect(await publishing.bringBack(after.dropped[0]!.id)).toBeUndefined();
    // Published by Erin: the commit names who saved each change.
    await save(marc, SERVICE, service('Marc’s last words'));
    await publishing.start(editor);
    await runJobs();
    expect(git(repo, 'log', '-1', '--format=%an|%B', 'published')).toContain(
      'Erin Editor|Publish: Changed the hosts and their hours; Added the host Cara Diaz; Changed Marc’s last words (/android)\n\n- Changed the hosts and their hours, saved by Marc Weber\n- Added the host Cara Diaz, saved by Marc Weber\n- Changed Marc’s last words (/android), saved by Anna Reid and Marc Weber',
    );
  });

  it('after a roll back, the draft carries its changes onto the live site, and a publish keeps the edits made during its build', async () => {
    await publish('First words');
    await publish('Second words');
    const [, first] = await store.releases.recent(10);
    // The member changed another line before the roll back: git's merge carries it onto the roll
    // back's title, in the draft at once.
    const reworded = (title: string) => service(title).replace('Prose.', 'Better prose.');
    await publishing.view();
    writeFileSync(draftFile(), reworded('Second words'));
    await publishing.rollBack(editor, first!.id);
    expect(readFileSync(draftFile(), 'utf8')).toBe(reworded('First words'));
    expect(await publishing.view()).toMatchObject({ behindLive: false, clash: undefined });
    await publishing.start(editor);
    const redirects = join(publishing.options.config.draftDir, 'src/content/data/redirects.yaml');
    const during = new Publishing({
      ...publishing.options,
      builder: async (run) => {
        writeFileSync(redirects, 'entries:\n  - from: /droid\n    to: /android\n');
        await fakeBuild(run);
      },
    });
    clock.now += 1000;
    const [job] = (await store.claimDue(clock.now, 10, 60_000)) as Job<PublishPayload>[];
    await publishHandler(during)(job!);
    expect(git(repo, 'show', `published:${SERVICE}`)).toBe(reworded('First words').trim());
    // The draft goes on from what is live, as the live site has it: only the edit made during
    // the build is left to publish.
    expect(await publishing.view()).toMatchObject({
      behindLive: false,
      changes: [{ kind: 'redirected', what: '/droid now leads to /android', address: '/droid' }],
    });
    expect(readFileSync(draftFile(), 'utf8')).toBe(reworded('First words'));
    expect(readFileSync(redirects, 'utf8')).toContain('/droid');
  });

  it('keeps a Save made while a publish carries the draft across: the Save waits its turn', async () => {
    await publish('First words');
    await publish('Second words');
    const [, first] = await store.releases.recent(10);
    await publishing.view();
    const { draftDir } = publishing.options.config;
    const began = git(draftDir, 'rev-parse', 'HEAD');
    await publishing.rollBack(editor, first!.id);
    // A draft left behind the live site (as one made before drafts followed a roll back): the
    // publish carries it across.
    git(draftDir, 'reset', '-q', began);
    writeFileSync(draftFile(), service('Second words').replace('Prose.', 'Better prose.'));
    expect(await publishing.view()).toMatchObject({ behindLive: true, clash: undefined });
    await publishing.start(editor);
    // As the publish writes the merged files into the draft, an editor's Save of the same file
    // comes in, as ../../src/server/staff/editing.ts sends one: in the draft's turn.
    let saved: Promise<void> | undefined;
    beforeCheckout.push(async () => {
      saved = inDraftTurn(async () => writeFileSync(draftFile(), service('Saved meanwhile')));
      // Its chance to run: without the turn it was written here, then written over.
      await new Promise((ran) => setTimeout(ran, 50));
    });
    expect(await runJobs()).toBe(1);
    expect(saved).toBeDefined();
    await saved;
    expect(readFileSync(draftFile(), 'utf8')).toBe(service('Saved meanwhile'));
  });

  it('brings the live release to another machine that shares only the store', async () => {
    const other = new Publishing({
      config: editing(root, repo, 'other-machine'),
      store: await backend.open(),
      builder: fakeBuild,
      jobKind: 'publish-test',
    });
    expect(await other.follow()).toBe(false);
    await publish('Words for every machine');
    expect(await other.follow()).toBe(true);
    const folder = await currentFolder(other.paths);
    expect(
      readFileSync(join(releaseDir(other.paths, folder!), 'client/android/index.html'), 'utf8'),
    ).toBe('<h1>Words for every machine</h1>');
    expect(existsSync(join(releaseDir(other.paths, folder!), 'node_modules'))).toBe(true);
    expect(await other.follow()).toBe(false);
  });

  it('backs up the draft and the published commits beside the store’s backup, and restores them', async () => {
    await publish('Published words');
    writeFileSync(draftFile(), service('Words in the draft'));
    const published = git(repo, 'rev-parse', 'published');
    const made = await backupEditing(publishing.options.config, join(root, 'backup.sqlite'));
    expect(made).toBe(join(root, 'backup.sqlite.editing.tar.gz'));
    expect(statSync(made!).mode & 0o777).toBe(0o600);

    // The machine lost: the editing folder and the branch gone.
    rmSync(publishing.options.config.editingDir, { recursive: true, force: true });
    git(repo, 'worktree', 'prune');
    git(repo, 'branch', '-D', 'published');
    await restoreEditing(publishing.options.config, join(root, 'backup.sqlite'));
    expect(git(repo, 'rev-parse', 'published')).toBe(published);
    expect(readFileSync(draftFile(), 'utf8')).toBe(service('Words in the draft'));
    expect((await publishing.view()).changes).toEqual([
      { kind: 'changed', what: 'Words in the draft', address: '/android' },
    ]);
  });

  it('writes its editing backup under its own name only, and restores only one no one else could leave', async () => {
    await publish('Published words');
    const { config } = publishing.options;
    // A link left at the backup's name (in a folder others write): refused, never written through.
    const theirs = join(root, 'theirs.txt');
    writeFileSync(theirs, 'kept');
    symlinkSync(theirs, join(root, 'taken.sqlite.editing.tar.gz'));
    await expect(backupEditing(config, join(root, 'taken.sqlite'))).rejects.toThrow(
      'exists already',
    );
    expect(readFileSync(theirs, 'utf8')).toBe('kept');

    const backup = join(root, 'backup.sqlite');
    writeFileSync(backup, '');
    const made = (await backupEditing(config, backup))!;
    // One that others may write: its branch would be what the next deploy builds.
    chmodSync(made, 0o666);
    expect(editingBackupProblem(backup)).toMatch(/is not the backup's own/);
    await expect(restoreEditing(config, backup)).rejects.toThrow(/is not the backup's own/);
    chmodSync(made, 0o600);
    expect(editingBackupProblem(backup)).toBeUndefined();

    // A draft holding a link (to a key file, which the editor would then show): not put back.
    const unpacked = mkdtempSync(join(root, 'unpacked-'));
    execFileSync('tar', ['-xzf', made, '-C', unpacked]);
    symlinkSync('/etc/hostname', join(unpacked, 'draft/src/content/leak.md'));
    rmSync(made);
    execFileSync('tar', ['-czf', made, '-C', unpacked, '.']);
    chmodSync(made, 0o600);
    await expect(restoreEditing(config, backup)).rejects.toThrow(
      'holds draft/src/content/leak.md, neither a file nor a folder',
    );
    expect(existsSync(join(config.draftDir, 'src/content/leak.md'))).toBe(false);
  });

  it('builds a publish stopped mid-build again when its job is run again, from the same commit', async () => {
    await publishing.view();
    writeFileSync(draftFile(), service('Words after a restart'));
    await publishing.start(editor);
    clock.now += 1000;
    const [job] = (await store.claimDue(clock.now, 10, 60_000)) as Job<PublishPayload>[];
    const stopping = new AbortController();
    const stopped = new Publishing({
      ...publishing.options,
      builder: ({ signal }) =>
        new Promise((_, reject) => {
          signal?.addEventListener('abort', () => reject(new Error('stopped')));
          stopping.abort();
        }),
    });
    await expect(publishHandler(stopped, stopping.signal)(job!)).rejects.toThrow('stopped');
    const halfway = await store.releases.latestPublish();
    expect(halfway).toMatchObject({ state: 'building', step: 'Building the pages' });
    expect(await currentFolder(publishing.paths)).toBeUndefined();

    expect(await publishHandler(publishing)(job!)).toMatchObject({ done: true });
    expect(await store.releases.latestPublish()).toMatchObject({
      state: 'live',
      commit: halfway!.commit,
    });
    expect(await livePage()).toBe('<h1>Words after a restart</h1>');
    expect(git(repo, 'rev-parse', 'published')).toBe(halfway!.commit);
  });

  it('leaves publishes to their own queue, and a machine’s to its own processes', async () => {
    await publishing.start(editor);
    await store.transaction((tx) => tx.queue([{ kind: 'staff-sign-in', dueAt: clock.now }]));
    clock.now += 1000;
    const claim = (kinds: Parameters<EnquiryStore['claimDue']>[3]) =>
      store.claimDue(clock.now, 10, 60_000, kinds).then((jobs) => jobs.map((job) => job.kind));
    expect(await claim({ exceptPrefix: 'publish-' })).toEqual(['staff-sign-in']);
    expect(await claim({ only: 'publish-another-machine' })).toEqual([]);
    expect(await claim({ only: 'publish-test' })).toEqual(['publish-test']);
  });

  it('keeps a roll back made during a build on the branch, under the publish that goes live after it', async () => {
    await publish('One');
    const [one] = await store.releases.recent(1);
    await publishing.view();
    writeFileSync(draftFile(), service('Two'));
    await publishing.start(editor);
    const during = new Publishing({
      ...publishing.options,
      builder: async (run) => {
        await publishing.rollBack({ name: 'Ben', email: 'ben@example.com' }, one!.id);
        await fakeBuild(run);
      },
    });
    clock.now += 1000;
    const [job] = (await store.claimDue(clock.now, 10, 60_000)) as Job<PublishPayload>[];
    await publishHandler(during)(job!);
    expect(await livePage()).toBe('<h1>Two</h1>');
    expect(git(repo, 'log', '-3', '--format=%an|%s', 'published').split('\n')).toEqual([
      'Erin Editor|Publish: Changed Two (/android)',
      `Ben|Roll back to release ${one!.id} (Erin Editor, 2027-01-05 09:00 UTC)`,
      'Erin Editor|Publish: Changed One (/android)',
    ]);
    expect((await store.releases.live())?.commit).toBe(git(repo, 'rev-parse', 'published'));
  });

  it('puts nothing live of a publish whose branch a roll back moved as it went live, and tries it again', async () => {
    await publish('One');
    const [one] = await store.releases.recent(1);
    await publishing.view();
    writeFileSync(draftFile(), service('Two'));
    await publishing.start(editor);
    // The roll back moves the branch between the publish's reading of it and its own move.
    beforeBranchMove.push(async () => {
      await publishing.rollBack({ name: 'Ben', email: 'ben@example.com' }, one!.id);
    });
    await runJobs();
    const rolledBack = await store.releases.live();
    expect(rolledBack).toMatchObject({ kind: 'rollback', actor: 'ben@example.com' });
    // No release of the refused try: the store's newest, which every process follows, is the roll back.
    expect((await store.releases.recent(10)).map((release) => release.kind)).toEqual([
      'rollback',
      'publish',
    ]);
    expect(await livePage()).toBe('<h1>One</h1>');
    expect(logs.at(-1)).toMatch(/^Publish \d+ met an error/);

    clock.now += 60_000;
    await runJobs();
    expect(await livePage()).toBe('<h1>Two</h1>');
    expect(git(repo, 'log', '-2', '--format=%an|%s', 'published').split('\n')).toEqual([
      'Erin Editor|Publish: Changed Two (/android)',
      `Ben|Roll back to release ${one!.id} (Erin Editor, 2027-01-05 09:00 UTC)`,
    ]);
    expect((await store.releases.live())?.commit).toBe(git(repo, 'rev-parse', 'published'));
  });

  it('refuses a roll back whose branch a publish moved as it went live, adding no release', async () => {
    await publish('One');
    const [one] = await store.releases.recent(1);
    await publish('Two');
    const two = await publishedRef(publishing.options.config);
    // The other's move: the branch back one commit, as a publish's would take it elsewhere.
    beforeBranchMove.push(async () => {
      git(repo, 'update-ref', 'refs/heads/published', `${two}~1`);
    });
    await expect(publishing.rollBack(editor, one!.id)).rejects.toMatchObject({
      meanwhile: true,
      message: PUBLISHED_MEANWHILE,
    });
    expect((await store.releases.recent(10)).map((release) => release.kind)).toEqual([
      'publish',
      'publish',
    ]);
    expect(await livePage()).toBe('<h1>Two</h1>');
    // Not kept is refused too, but not as "meanwhile": the page says which.
    await expect(publishing.rollBack(editor, 999)).rejects.toMatchObject({ meanwhile: false });
  });

  it('moves the published branch only from where a commit was made on it', async () => {
    // A roll back and a publish put live at one moment: each made its commit on the branch as it
    // was, and the second to move it would have dropped the first's.
    await publish('One');
    const { config } = publishing.options;
    const one = await publishedRef(config);
    await publish('Two');
    const two = await publishedRef(config);
    expect(two).not.toBe(one);
    await expect(advancePublished(config, one, one)).rejects.toThrow();
    expect(await publishedRef(config)).toBe(two);
    await advancePublished(config, one, two);
    expect(await publishedRef(config)).toBe(one);
  });

  it('keeps the draft’s changes across a deploy of new code, and publishes onto that code', async () => {
    await publish('Published before the deploy');
    writeFileSync(draftFile(), service('Not yet published'));
    // The deploy: a new clone of the code, with the publishes merged in, and a change of code.
    const site2 = join(root, 'site2');
    git(root, 'clone', '-q', repo, site2);
    mkdirSync(join(site2, 'node_modules'));
    git(site2, 'branch', 'published', 'origin/published');
    git(site2, 'merge', '-q', 'published');
    writeFileSync(join(site2, 'code.ts'), 'export const shipped = true;\n');
    git(site2, 'add', 'code.ts');
    git(
      site2,
      '-c',
      'user.name=Dev',
      '-c',
      'user.email=dev@example.com',
      'commit',
      '-qm',
      'New code',
    );
    const deployed = new Publishing({
      ...publishing.options,
      config: { ...publishing.options.config, repoDir: site2 },
    });
    expect((await deployed.view()).changes).toEqual([
      { kind: 'changed', what: 'Not yet published', address: '/android' },
    ]);
    await deployed.start(editor);
    clock.now += 1000;
    for (const job of (await store.claimDue(clock.now, 10, 60_000)) as Job<PublishPayload>[])
      await publishHandler(deployed)(job);
    expect(await livePage()).toBe('<h1>Not yet published</h1>');
    expect(git(site2, 'show', 'published:code.ts')).toBe('export const shipped = true;');
    expect(git(site2, 'show', `published:${SERVICE}`)).toBe(service('Not yet published').trim());
  });

  it('tries a publish that meets an error of the server again, then fails it in words', async () => {
    await publishing.view();
    writeFileSync(draftFile(), service('Never built'));
    await publishing.start(editor);
    clock.now += 1000;
    const [job] = (await store.claimDue(clock.now, 10, 60_000)) as Job<PublishPayload>[];
    const broken = new Publishing({
      ...publishing.options,
      builder: async () => {
        throw new Error('ENOSPC: no space left on device');
      },
    });
    const run = (attempts: number) => publishHandler(broken)({ ...job!, attempts });
    expect(await run(0)).toMatchObject({ retry: expect.stringContaining('ENOSPC') });
    expect(await run(1)).toMatchObject({ retry: expect.stringContaining('ENOSPC') });
    expect(await run(2)).toMatchObject({ failed: expect.stringContaining('ENOSPC') });
    expect(await store.releases.latestPublish()).toMatchObject({
      state: 'failed',
      reason: expect.stringMatching(
        /^Publishing stopped on an error of the server, so nothing changed/,
      ),
    });
    expect((await publishing.start(editor)).started).toBe(true);
  });

  it('keeps the last releases only, on the disk and in the store', async () => {
    publishing = new Publishing({
      ...publishing.options,
      config: { ...publishing.options.config, releasesKept: 2 },
    });
    for (const words of ['First', 'Second', 'Third']) await publish(words);
    const [third, second, first] = await store.releases.recent(3);
    expect([first!.kept, second!.kept, third!.kept]).toEqual([false, true, true]);
    expect(await store.releases.files(first!.id)).toBeUndefined();
    expect(existsSync(releaseDir(publishing.paths, first!.id))).toBe(false);
    expect(existsSync(releaseDir(publishing.paths, second!.id))).toBe(true);
    await expect(publishing.rollBack(editor, first!.id)).rejects.toThrow('no longer kept');
    await publishing.rollBack(editor, second!.id);
    expect(await livePage()).toBe('<h1>Second</h1>');
  });

  describe('after a preview of the draft', () => {
    const options = (siteRoot = repo) => ({
      config: { editing: publishing.options.config },
      siteRoot,
      draft: publishing.options.config.draftDir,
      builder: fakeBuild,
    });
    /** The draft's preview, as /keystatic/preview builds it, of the project in `siteRoot`. */
    const preview = (siteRoot = repo) => buildPreview(options(siteRoot));
    const press = async () => {
      await publishing.start(editor);
      expect(await runJobs()).toBe(1);
    };

    it('publishes the preview’s build of the same content: one build in all', async () => {
      await publishing.view();
      writeFileSync(draftFile(), service('Previewed words'));
      await preview();
      expect(built).toHaveLength(1);
      await press();
      expect(built).toHaveLength(1);
      expect(logs).toEqual([expect.stringMatching(/, with the preview’s build\)$/)]);
      expect(await store.releases.latestPublish()).toMatchObject({ state: 'live', progress: 100 });
      expect(await livePage()).toBe('<h1>Previewed words</h1>');
      expect(git(repo, 'show', `published:${SERVICE}`)).toBe(service('Previewed words').trim());
      // The release is whole in the store too: another machine serves the same page.
      const other = new Publishing({ ...publishing.options, config: editing(root, repo, 'other') });
      expect(await other.follow()).toBe(true);
      const folder = await currentFolder(other.paths);
      expect(
        readFileSync(join(releaseDir(other.paths, folder!), 'client/android/index.html'), 'utf8'),
      ).toBe('<h1>Previewed words</h1>');
    });

    it('builds anew when the draft was saved after the preview, and publishes the newer words', async () => {
      await publishing.view();
      writeFileSync(draftFile(), service('Previewed words'));
      await preview();
      writeFileSync(draftFile(), service('Saved after the preview'));
      await press();
      expect(built).toHaveLength(2);
      expect(built[1]).toContain('publish-');
      expect(logs).toEqual([expect.stringMatching(/, built anew\)$/)]);
      expect(await livePage()).toBe('<h1>Saved after the preview</h1>');
    });

    it('builds anew when the preview was built with code the publish’s commit lacks', async () => {
      await publishing.view();
      writeFileSync(draftFile(), service('Previewed words'));
      // The server's project with a file of code not committed: the commit would build without it.
      writeFileSync(join(repo, 'src/code.ts'), 'export const local = true;\n');
      await preview();
      await press();
      expect(built).toHaveLength(2);
      expect(logs).toEqual([expect.stringMatching(/, built anew\)$/)]);
      expect(await livePage()).toBe('<h1>Previewed words</h1>');
    });

    /**
     * What /keystatic/preview answers now: 303 to the page once the draft's build is ready, else its
     * page (202 building, 500 failed, 409 refused) and what that page shows.
     */
    const entry = async () => {
      const shown = await previewEntry(
        new URL('http://site.test/keystatic/preview?page=/android'),
        options(),
      );
      return shown.type === 'page' ? shown : { status: shown.response.status, wait: undefined };
    };
    /** The preview's page, as an editor in preview mode is shown it. */
    const previewed = async () => (await previewFile(new URL('http://site.test/android/')))!.text();
    /** The draft, made on release "Second words", after a roll back to "First words". */
    const rolledBack = async () => {
      await publish('First words');
      await publish('Second words');
      const [, first] = await store.releases.recent(10);
      await publishing.view();
      return () => publishing.rollBack({ name: 'Ben', email: 'ben@example.com' }, first!.id);
    };
    const reworded = (title: string) => service(title).replace('Prose.', 'Better prose.');

    it('after a roll back, previews what a publish makes now: the draft’s changes on the live site', async () => {
      const rollBack = await rolledBack();
      // Another line changed, the title the draft began with kept: a preview before the roll back
      // shows that title, as a publish then would.
      writeFileSync(draftFile(), reworded('Second words'));
      await preview();
      expect((await entry()).status).toBe(303);
      expect(await previewed()).toContain('<h1>Second words</h1>');
      await rollBack();
      // The live site changed, the draft did not: that preview is out of date, built again.
      expect((await entry()).status).toBe(202);
      await preview();
      expect((await entry()).status).toBe(303);
      expect(await previewed()).toContain('<h1>First words</h1>');
      const builds = built.length;
      await press();
      // What was previewed is what went live, from the preview's own build.
      expect(await livePage()).toBe('<h1>First words</h1>');
      expect(built).toHaveLength(builds);
      expect(logs.at(-1)).toMatch(/, with the preview’s build\)$/);
      expect(git(repo, 'show', `published:${SERVICE}`)).toBe(reworded('First words').trim());
      // Live now, the same content: the preview goes on from the new release with no build.
      expect((await entry()).status).toBe(202);
      await preview();
      expect((await entry()).status).toBe(303);
      expect(await previewed()).toContain('<h1>First words</h1>');
      expect(built).toHaveLength(builds);
    });

    it('after a roll back of the very line the draft changed, says the preview cannot be made, as a publish would', async () => {
      const rollBack = await rolledBack();
      writeFileSync(draftFile(), service('Third words'));
      await rollBack();
      await preview();
      const page = await entry();
      expect(page.status).toBe(409);
      expect(page.wait).toEqual({
        state: 'refused',
        reason: expect.stringMatching(/live site changed in the same text since your draft began/),
      });
      expect(JSON.stringify(page.wait)).not.toContain('Third words');
      const builds = built.length;
      await press();
      expect(built).toHaveLength(builds);
      expect(await store.releases.latestPublish()).toMatchObject({
        state: 'failed',
        reason: expect.stringMatching(/live site changed in the same text/),
      });
      expect(await livePage()).toBe('<h1>First words</h1>');
    });

    it('says why the preview could not be built, and a publish then builds and fails alike', async () => {
      await publishing.view();
      writeFileSync(draftFile(), service('BREAK the page'));
      await preview();
      const page = await entry();
      expect(page.status).toBe(500);
      expect(page.wait).toEqual({
        state: 'failed',
        lines: expect.stringMatching(/title is too long/),
      });
      await press();
      expect(built).toHaveLength(2);
      expect(await store.releases.latestPublish()).toMatchObject({
        state: 'failed',
        reason: expect.stringContaining('title is too long'),
      });
    });
  });
});
