/**
 * The content's history (src/editor/dev-server/history/content-history.ts) and the links that
 * follow a page (src/editor/dev-server/content-links.ts), with real git in temporary
 * projects: what the editor's History pages show and restore, and that a developer's branch,
 * staging area and files are never touched.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ContentHistory,
  EDITOR_AUTHOR,
  HISTORY_REF,
  checkContentPath,
} from '../../src/editor/dev-server/history/content-history.ts';
import { beingWritten } from '../../src/editor/dev-server/keystatic-writes.ts';
import { filesLinkingTo, moveLinks } from '../../src/editor/dev-server/content-links.ts';
import type { PageMove } from '../../src/editor/events.ts';
import { EDITOR_SAVE_NOTE } from '../../src/editor/dev-server/history/lineages.ts';
import {
  REDIRECTS_FILE,
  historyRecorder,
  readRedirects,
} from '../../src/editor/dev-server/history/recorder.ts';

const projects: string[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) rmSync(project, { recursive: true, force: true });
});

function project(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'content-history-'));
  projects.push(root);
  for (const [path, text] of Object.entries(files)) write(root, path, text);
  return root;
}

function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const git = (root: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    },
  });

const page = 'src/content/services/ipad.mdx';

describe('the content history', () => {
  it('keeps each save, newest first, and restores one as a new save', async () => {
    const root = project({ [page]: '---\nslug: ipad\ntitle: iPad\n---\n' });
    const history = new ContentHistory(root);
    expect(await history.record('As found')).toBeTruthy();
    // Nothing changed: nothing recorded.
    expect(await history.record('Saved')).toBeUndefined();
    write(root, page, '---\nslug: ipad\ntitle: iPad Pro\n---\n');
    await history.record('Saved in the editor');

    const versions = await history.versions(page);
    expect(versions.map((v) => v.note)).toEqual(['Saved in the editor', 'As found']);
    expect(await history.currentBlob(page)).toBe(versions[0]!.blob);
    const older = versions[1]!;
    expect(await history.changesTo(older.commit, page)).toMatch(
      /^@@ .*\n ---\n slug: ipad\n-title: iPad Pro\n\+title: iPad\n/,
    );

    await history.restore(older.commit, page);
    expect(readFileSync(join(root, page), 'utf8')).toBe('---\nslug: ipad\ntitle: iPad\n---\n');
    await history.record('Restored');
    expect((await history.versions(page)).map((v) => v.note)).toEqual([
      'Restored',
      'Saved in the editor',
      'As found',
    ]);
  });

  it('lists a deleted entry until it is back, and not one renamed', async () => {
    const root = project({
      [page]: '---\nslug: ipad\ntitle: iPad\n---\n'.repeat(5),
      'src/content/services/php.mdx': '---\nslug: php\ntitle: PHP\n---\n'.repeat(5),
    });
    const history = new ContentHistory(root);
    await history.record('As found');
    rmSync(join(root, page));
    // A rename: the same text under another name.
    const renamed = 'src/content/services/php-apps.mdx';
    write(root, renamed, readFileSync(join(root, 'src/content/services/php.mdx'), 'utf8'));
    rmSync(join(root, 'src/content/services/php.mdx'));
    await history.record('Saved');

    const deleted = await history.deleted('src/content/services');
    expect(deleted.map((d) => d.file)).toEqual([page]);
    expect(await history.textAt(`${deleted[0]!.commit}^`, page)).toContain('title: iPad');
    // Its history follows the renamed page back to its old name.
    expect((await history.versions(renamed)).map((v) => v.file)).toEqual([
      renamed,
      'src/content/services/php.mdx',
    ]);

    await history.restore(`${deleted[0]!.commit}^`, page);
    await history.record('Restored');
    expect(await history.deleted('src/content/services')).toEqual([]);
  });

  it("runs on in the project's own git, and never touches its branch, index or other files", async () => {
    const root = project({ [page]: 'slug: ipad\n', 'README.md': 'readme\n' });
    git(root, 'init', '--quiet');
    git(root, 'add', '.');
    git(root, 'commit', '--quiet', '-m', 'First page');
    write(root, 'README.md', 'readme, edited\n');
    git(root, 'add', 'README.md');
    const head = git(root, 'rev-parse', 'HEAD');

    const history = new ContentHistory(root);
    write(root, page, 'slug: ipad\ntitle: x\n');
    await history.record('Saved in the editor');

    const versions = await history.versions(page);
    expect(versions.map((v) => v.note)).toEqual(['Saved in the editor', 'First page']);
    // Who: the editor's own save, and the developer's commit (History says "a developer").
    expect(versions.map(({ by, editor }) => ({ by, editor }))).toEqual([
      { by: EDITOR_AUTHOR, editor: true },
      { by: { name: 'Dev', email: 'dev@example.com' }, editor: false },
    ]);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(head);
    // The staged README is still staged; the page is still an unstaged change.
    expect(git(root, 'diff', '--cached', '--name-only')).toBe('README.md\n');
    expect(git(root, 'diff', '--name-only')).toBe(`${page}\n`);
  });

  it("leaves out a Save's file that was never renamed into place (a process stopped mid-Save)", async () => {
    // The project's own .gitignore, as the editor's dev server and the live draft have it.
    const root = project({
      [page]: 'slug: ipad\n',
      '.gitignore': readFileSync('.gitignore', 'utf8'),
    });
    git(root, 'init', '--quiet');
    git(root, 'add', '.');
    git(root, 'commit', '--quiet', '-m', 'First page');
    const left = `src/content/services/.ipad.mdx.4242-k3x9ab.saving`;
    expect(beingWritten(left)).toBe(true);
    write(root, left, 'slug: ipad\ntitle: half');
    write(root, page, 'slug: ipad\ntitle: x\n');
    const history = new ContentHistory(root);
    await history.record('Saved in the editor');

    const recorded = git(root, 'ls-tree', '-r', '--name-only', HISTORY_REF);
    expect(recorded).toContain(page);
    expect(recorded).not.toContain('.saving');
    expect(git(root, 'status', '--porcelain', '--untracked-files=all')).toBe(` M ${page}\n`);
  });

  it('records who made a save, once the editor knows: its author', async () => {
    const root = project({ [page]: 'slug: ipad\n' });
    const history = new ContentHistory(root);
    await history.record('As found');
    write(root, page, 'slug: ipad\ntitle: x\n');
    await history.record('Saved in the editor', {
      by: { name: 'Anna Reid', email: 'anna@agency.example' },
    });
    const [saved, found] = await history.versions(page);
    expect(saved).toMatchObject({
      by: { name: 'Anna Reid', email: 'anna@agency.example' },
      editor: true,
    });
    expect(found).toMatchObject({ by: EDITOR_AUTHOR, editor: true });
  });

  // Keystatic writes a page's move as two steps, the new file then the old one gone. A record asked
  // for in between kept the first step alone, and the next save the second: the move, seen as
  // neither, left no redirect (conflicts.spec.ts's merged rename, once, on a loaded machine).
  it('records a Save whole: a record asked for while a Save writes a move waits for its end', async () => {
    const root = project({ [page]: '---\nslug: ipad\ntitle: iPad\n---\n' });
    const history = new ContentHistory(root);
    await history.record('As found');
    let halfWritten!: () => void;
    const half = new Promise<void>((done) => (halfWritten = done));
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    const save = history.savedWhole(async () => {
      write(root, 'src/content/services/ipad-apps.mdx', '---\nslug: ipad-apps\ntitle: iPad\n---\n');
      halfWritten();
      await released;
      rmSync(join(root, page));
    });
    await half;
    const recorded = history.record('Saved in the editor');
    // The Save goes on once the record has ended (as it would, unheld, with the move half-written),
    // or after a second: a record that waits for the Save never ends before it.
    const waited = setTimeout(release, 1_000);
    void recorded.finally(release);
    await save;
    clearTimeout(waited);
    const commit = await recorded;
    const changes = await history.changesIn(commit!, 'src/content');
    expect(changes.map(({ status, before, file }) => ({ status, before, file }))).toEqual([
      { status: 'R', before: page, file: 'src/content/services/ipad-apps.mdx' },
    ]);
    // Nothing of the Save left for a record after it.
    expect(await history.record('Saved')).toBeUndefined();
  });

  // Under load (a stress run), a record the watcher asked for after one Save waited its turn behind
  // slow git; the next Save began and answered meanwhile, and that record then took the new Save's
  // files as a change outside the editor (History said so, and a rename so recorded left no redirect).
  it("leaves a Save's files to the Save when the Save answered while a record by hand waited its turn", async () => {
    const root = project({ [page]: '---\nslug: ipad\ntitle: iPad\n---\n' });
    const recorder = historyRecorder(root, { tell: () => {}, warn: (text) => expect.fail(text) });
    const { history } = recorder;
    await history.record('As found');
    // The records wait behind one that has not ended (git, slow on a loaded machine).
    let go!: () => void;
    const held = history.record('Held', { write: () => new Promise<void>((done) => (go = done)) });
    // The Save begins, writes and answers as its turn comes, before the record by hand's.
    let saveRecorded: Promise<void> | undefined;
    void history.record('Not recorded', {
      unless: () => {
        const answered = recorder.saveBegins(new Headers());
        write(root, page, '---\nslug: ipad\ntitle: iPad Apps\n---\n');
        saveRecorded = answered(true);
        return true;
      },
    });
    // A file the watcher heard of, long after any Save: a record by hand, once it has settled.
    recorder.changed(join(root, page));
    await new Promise((done) => setTimeout(done, 600));
    go();
    await held;
    // The Save's own record, asked for as it answered, after the record by hand's turn.
    await expect
      .poll(async () => (await history.versions(page)).map((version) => version.note))
      .toEqual([EDITOR_SAVE_NOTE, 'As found when the editor started']);
    // All of it (its moves followed, with git) before the test's folder goes: a git still to run
    // there once failed as the next test ran.
    await saveRecorded;
  });

  // Under load (a stress run of 45d635a), a Save began and wrote its file while a record by hand,
  // its turn come with no Save under way, read the files: that record took the Save's change as a
  // change outside the editor ("Changed: Hero → Hero text", not "saved by you").
  it("leaves a Save's files to the Save when the Save began while a record by hand read the files", async () => {
    const root = project({ [page]: '---\nslug: ipad\ntitle: iPad\n---\n' });
    const history = new ContentHistory(root);
    await history.record('As found');
    let asked = 0;
    const byHand = history.record('Saved', {
      unless: () => {
        asked++;
        // As its turn comes: no Save under way. Then the Save begins and writes.
        if (asked === 1) write(root, page, '---\nslug: ipad\ntitle: iPad Apps\n---\n');
        return asked > 1;
      },
    });
    expect(await byHand).toBeUndefined();
    expect(await history.record(EDITOR_SAVE_NOTE)).toBeDefined();
    expect((await history.versions(page)).map((version) => version.note)).toEqual([
      EDITOR_SAVE_NOTE,
      'As found',
    ]);
  });

  it("writes a rename's redirect and a restore asked for meanwhile, each in turn", async () => {
    // A restore (the History's post) holds the editor's writes and records inside them; the
    // redirect of a page the editor renamed is a record that writes. Each once waited for the other.
    const root = project({
      [page]: '---\nslug: ipad\ntitle: iPad\n---\n',
      [REDIRECTS_FILE]: 'entries: []\n',
    });
    let told!: (move: PageMove) => void;
    const moved = new Promise<PageMove>((done) => (told = done));
    const recorder = historyRecorder(root, { tell: told, warn: (text) => expect.fail(text) });
    const { history } = recorder;
    await history.record('As found');
    // The restore takes the lock, then waits until the rename's redirect has asked for its turn.
    let askedBack!: () => void;
    const back = new Promise<void>((done) => (askedBack = done));
    const restore = history.exclusive(async () => {
      await back;
      write(
        root,
        'src/content/services/ipad-apps.mdx',
        '---\nslug: ipad-apps\ntitle: iPad Apps\n---\n',
      );
      return history.record('Restored');
    });
    // The redirect asks as the rename's record ends (for the lock or for a record, whichever first).
    const { record, exclusive } = {
      record: history.record.bind(history),
      exclusive: history.exclusive.bind(history),
    };
    history.record = (note, options) => (options?.trailers && askedBack(), record(note, options));
    history.exclusive = (step) => (askedBack(), exclusive(step));
    const answered = recorder.saveBegins(new Headers());
    write(root, 'src/content/services/ipad-apps.mdx', '---\nslug: ipad-apps\ntitle: iPad\n---\n');
    rmSync(join(root, page));
    const saveRecorded = answered(true);
    let stuck: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([restore, moved]),
      new Promise((_, fail) => {
        stuck = setTimeout(
          () => fail(new Error('still waiting after 30 s: each waits for the other')),
          30_000,
        );
      }),
    ]).finally(() => clearTimeout(stuck));
    await saveRecorded;
    expect(await readRedirects(root)).toEqual([{ from: '/ipad', to: '/ipad-apps' }]);
    expect(
      (await history.versions('src/content/services/ipad-apps.mdx')).map((v) => v.note),
    ).toContain('Restored');
  });

  it('reads and writes nothing outside the content', () => {
    for (const path of [
      '../etc/passwd',
      'src/content/../../.git/config',
      '/etc/passwd',
      'src/content/x\0y',
      'src\\content\\x',
      'package.json',
      'src/contentx/a',
    ])
      expect(() => checkContentPath(path), path).toThrow(/Not a content file/);
    expect(() => checkContentPath('src/content/pages/home.yaml')).not.toThrow();
  });
});

describe("the links that follow a page's address", () => {
  const files = {
    'src/content/data/technologies.yaml':
      'entries:\n  - href: /ipad\n  - href: "/ipad#top"\n  - href: /ipadx\n',
    'src/content/services/php.mdx':
      '---\nhero:\n  href: \'/ipad/?from=php\'\n---\nSee [our iPad work](/ipad) or <a href="/ipad">this</a>, not /ipad in text.\n',
    'src/content/pages/home.yaml': 'sections:\n  - href: /iphone\n',
  };

  it('finds each link to the address, and no other', async () => {
    const root = project(files);
    expect(await filesLinkingTo(root, '/ipad')).toEqual([
      { file: 'src/content/data/technologies.yaml', links: 2 },
      { file: 'src/content/services/php.mdx', links: 3 },
    ]);
  });

  it('moves them, keeping their query, fragment and every other byte', async () => {
    const root = project(files);
    await moveLinks(root, '/ipad', '/ipad-apps');
    expect(readFileSync(join(root, 'src/content/data/technologies.yaml'), 'utf8')).toBe(
      'entries:\n  - href: /ipad-apps\n  - href: "/ipad-apps#top"\n  - href: /ipadx\n',
    );
    expect(readFileSync(join(root, 'src/content/services/php.mdx'), 'utf8')).toBe(
      '---\nhero:\n  href: \'/ipad-apps/?from=php\'\n---\nSee [our iPad work](/ipad-apps) or <a href="/ipad-apps">this</a>, not /ipad in text.\n',
    );
    expect(await filesLinkingTo(root, '/ipad')).toEqual([]);
  });
});

/**
 * Which file is which entry (src/editor/dev-server/history/lineages.ts): an entry is followed
 * through its renames, stays deleted whatever takes its path later, and is the same entry when it
 * comes back.
 */
describe('entries through the history', () => {
  const services = 'src/content/services';
  const file = (name: string) => `${services}/${name}.mdx`;
  /** A service page's text: long enough that git tells a rename from a new file. */
  const text = (slug: string, title: string) =>
    `---\nslug: ${slug}\ntitle: ${title}\n---\n${`${title} is what we build with.\n`.repeat(8)}`;
  const setUp = () => {
    const root = project({
      [file('zend')]: text('zend', 'Zend Framework'),
      [file('yii')]: text('yii', 'Yii Framework'),
      [file('php')]: text('php', 'PHP'),
    });
    return { root, history: new ContentHistory(root) };
  };
  /** A rename as the editor saves it: the new file written, the old one removed. */
  const rename = (root: string, from: string, to: string) => {
    const before = readFileSync(join(root, file(from)), 'utf8');
    rmSync(join(root, file(from)));
    write(root, file(to), before.replace(`slug: ${from}`, `slug: ${to}`));
  };
  const titles = async (history: ContentHistory, path: string) =>
    Promise.all(
      (await history.versions(path)).map(
        async (v) => /title: (.+)/.exec((await history.textAt(v.commit, v.file))!)?.[1],
      ),
    );

  it('keeps a deleted page listed once another page takes its address, and each History its own', async () => {
    const { root, history } = setUp();
    await history.record('As found');
    write(root, file('zend'), text('zend', 'Zend Framework 2'));
    await history.record('Saved in the editor');
    rmSync(join(root, file('zend')));
    await history.record('Saved in the editor');
    rename(root, 'yii', 'zend');
    await history.record('Saved in the editor');

    const deleted = await history.deleted(services);
    expect(deleted.map((d) => d.file)).toEqual([file('zend')]);
    expect(await history.textAt(`${deleted[0]!.commit}^`, file('zend'))).toContain(
      'Zend Framework 2',
    );
    // Its own versions, newest first: not Yii's.
    expect(deleted[0]!.versions.map((v) => v.note)).toEqual(['Saved in the editor', 'As found']);
    // The History of zend is Yii's, back to when it was yii.mdx.
    expect(await titles(history, file('zend'))).toEqual(['Yii Framework', 'Yii Framework']);
    expect((await history.versions(file('zend'))).map((v) => v.file)).toEqual([
      file('zend'),
      file('yii'),
    ]);

    // Yii moves away again: Zend is still deleted, once, and Yii's History follows Yii.
    rename(root, 'zend', 'yii-framework');
    await history.record('Saved in the editor');
    expect((await history.deleted(services)).map((d) => d.commit)).toEqual([deleted[0]!.commit]);
    expect(await titles(history, file('yii-framework'))).toEqual(Array(3).fill('Yii Framework'));
    // The History of the empty path is the deleted page's again.
    expect(await titles(history, file('zend'))).toEqual(['Zend Framework 2', 'Zend Framework']);
  });

  it('takes a file put back with the very text it had for the same entry, and another text for a new one', async () => {
    const { root, history } = setUp();
    await history.record('As found');
    const zend = readFileSync(join(root, file('zend')), 'utf8');
    rmSync(join(root, file('zend')));
    rmSync(join(root, file('php')));
    await history.record('Saved');
    // A developer's checkout of zend; a new page where php was.
    write(root, file('zend'), zend);
    write(root, file('php'), text('php', 'Hypertext Preprocessor'));
    await history.record('Saved');

    expect((await history.deleted(services)).map((d) => d.file)).toEqual([file('php')]);
    expect((await history.versions(file('zend'))).map((v) => v.note)).toEqual([
      'Saved',
      'As found',
    ]);
    expect(await titles(history, file('php'))).toEqual(['Hypertext Preprocessor']);
  });

  it('follows an entry brought back under another name, and reads a move the editor saved as one', async () => {
    const { root, history } = setUp();
    await history.record('As found');
    rmSync(join(root, file('zend')));
    const deletion = await history.record('Saved in the editor');
    // Brought back as zend-2: the save names the entry it brings back.
    write(root, file('zend-2'), text('zend-2', 'Zend Framework'));
    await history.record('Brought back Zend Framework at /zend-2', {
      trailers: [{ key: 'Brought-back', value: `${deletion} ${file('zend')} ${file('zend-2')}` }],
    });
    expect(await history.deleted(services)).toEqual([]);
    expect((await history.versions(file('zend-2'))).map((v) => v.file)).toEqual([
      file('zend-2'),
      file('zend'),
    ]);

    // An editor's Save that moved a page and rewrote it (git sees no rename): the same entry.
    rmSync(join(root, file('yii')));
    write(root, file('yii-apps'), text('yii-apps', 'Something else entirely, rewritten'));
    await history.record('Saved in the editor');
    expect(await history.deleted(services)).toEqual([]);
    expect((await history.versions(file('yii-apps'))).map((v) => v.file)).toEqual([
      file('yii-apps'),
      file('yii'),
    ]);
    // The same change made outside the editor: one page deleted, another added.
    rmSync(join(root, file('php')));
    write(root, file('php-apps'), text('php-apps', 'Rewritten by a developer'));
    await history.record('Saved');
    expect((await history.deleted(services)).map((d) => d.file)).toEqual([file('php')]);
  });
});
