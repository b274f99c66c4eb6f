/**
 * A Save is written only on the version the editor opened (src/editor/dev-server/stale-files.ts,
 * which save-check.ts runs in front of Keystatic's local API): two tabs or two colleagues saving one
 * entry, a Save after a restore or a rename's link move, a draft begun before a change. With real
 * git in temporary projects, as the dev server keeps the content's history.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentHistory } from '../../src/editor/dev-server/history/content-history.ts';
import {
  blobSha,
  changeKind,
  checkedSave,
  readBase,
  readSave,
  staleFiles,
  type Save,
} from '../../src/editor/dev-server/stale-files.ts';

const projects: string[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) rmSync(project, { recursive: true, force: true });
});

function project(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'save-check-'));
  projects.push(root);
  for (const [path, text] of Object.entries(files)) write(root, path, text);
  return root;
}

function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const page = 'src/content/services/ipad.mdx';
const opened = '---\nslug: ipad\ntitle: iPad\n---\n';
const sha = (text: string) => blobSha(Buffer.from(text));
/** Keystatic's Save of one file, as its handler would write it. */
const saving = (path: string, text: string): Save => ({
  additions: [{ path, contents: Buffer.from(text) }],
  deletions: [],
});
const keystatic = (root: string, save: Save) => async () => {
  for (const { path, contents } of save.additions) write(root, path, contents.toString());
  for (const { path } of save.deletions) rmSync(join(root, path), { force: true });
  return 'written';
};

describe("a Save's base", () => {
  it('is read from the header Keystatic sends, paths of the content only', () => {
    expect(readBase(JSON.stringify({ [page]: sha(opened), 'src/content/x.yaml': null }))).toEqual({
      [page]: sha(opened),
      'src/content/x.yaml': null,
    });
    for (const header of [
      null,
      '',
      'not json',
      '[]',
      JSON.stringify({ '../package.json': null }),
      JSON.stringify({ 'src/content/../../package.json': null }),
      JSON.stringify({ [page]: 'abc' }),
      JSON.stringify({ [page]: 42 }),
    ])
      expect(readBase(header), String(header)).toBeUndefined();
  });

  it("Keystatic's body: its files in base64, none outside the content", () => {
    const save = readSave({
      additions: [{ path: page, contents: Buffer.from('é').toString('base64url') }],
      deletions: [{ path: 'src/content/services/old.mdx' }],
    });
    expect(save?.additions[0]?.contents.toString()).toBe('é');
    expect(save?.deletions).toEqual([{ path: 'src/content/services/old.mdx' }]);
    for (const body of [
      undefined,
      {},
      { additions: [{ path: '/etc/passwd', contents: '' }], deletions: [] },
      { additions: [], deletions: [{ path: 'src/content/../.env' }] },
      { additions: [{ path: page, contents: 1 }], deletions: [] },
    ])
      expect(readSave(body)).toBeUndefined();
  });
});

describe('the files a Save would overwrite though they changed since', () => {
  it('none while each file is the version opened', async () => {
    const root = project({ [page]: opened });
    const save = saving(page, opened.replace('iPad', 'iPad Pro'));
    expect(await staleFiles(root, save, { [page]: sha(opened) })).toEqual([]);
  });

  it('a file saved since it was opened', async () => {
    const root = project({ [page]: opened });
    const theirs = opened.replace('iPad\n', 'iPad Air\n');
    write(root, page, theirs);
    const save = saving(page, opened.replace('iPad\n', 'iPad Pro\n'));
    expect(await staleFiles(root, save, { [page]: sha(opened) })).toEqual([
      { path: page, expected: sha(opened), current: sha(theirs) },
    ]);
    // Unless it now holds what this Save writes.
    expect(await staleFiles(root, saving(page, theirs), { [page]: sha(opened) })).toEqual([]);
  });

  it('a file the entry did not have (a new entry, a rename) that is there now', async () => {
    const root = project({ [page]: opened, 'src/content/services/ipad-apps.mdx': 'taken' });
    const rename: Save = {
      additions: [{ path: 'src/content/services/ipad-apps.mdx', contents: Buffer.from('x') }],
      deletions: [{ path: page }],
    };
    expect(await staleFiles(root, rename, { [page]: sha(opened) })).toEqual([
      { path: 'src/content/services/ipad-apps.mdx', expected: null, current: sha('taken') },
    ]);
  });

  it('a deletion: stale if the file changed, not if it is gone already', async () => {
    const root = project({ [page]: opened });
    const deletion: Save = { additions: [], deletions: [{ path: page }] };
    write(root, page, `${opened}more`);
    expect(await staleFiles(root, deletion, { [page]: sha(opened) })).toHaveLength(1);
    rmSync(join(root, page));
    expect(await staleFiles(root, deletion, { [page]: sha(opened) })).toEqual([]);
  });

  it('a file written while the entry was open, though its base names none', async () => {
    const root = project({});
    write(root, page, opened);
    expect(await staleFiles(root, saving(page, 'mine'), {})).toEqual([
      { path: page, expected: null, current: sha(opened) },
    ]);
  });
});

describe('two Saves made on one version', () => {
  it('the first is written; the second is refused, with both texts and who changed it when', async () => {
    const root = project({ [page]: opened });
    const history = new ContentHistory(root);
    await history.record('As found when the editor started');
    const a = saving(page, opened.replace('iPad\n', 'iPad Air\n'));
    const b = saving(page, opened.replace('iPad\n', 'iPad Pro\n'));
    const base = { [page]: sha(opened) };
    // At once, as two tabs would: one check and write at a time.
    let recorded: Promise<unknown> = Promise.resolve();
    const [first, second] = await Promise.all([
      checkedSave(history, a, base, async () => {
        const written = await keystatic(root, a)();
        // Recorded as the recorder does once the Save has answered: after its write, which a
        // record waits for (ContentHistory.savedWhole).
        recorded = history.record('Saved in the editor');
        return written;
      }),
      checkedSave(history, b, base, keystatic(root, b)),
    ]);
    await recorded;
    expect(first).toEqual({ written: 'written' });
    expect(readFileSync(join(root, page), 'utf8')).toContain('iPad Air');
    expect('refused' in second && second.refused.stale).toEqual([
      {
        path: page,
        expected: sha(opened),
        current: sha(opened.replace('iPad\n', 'iPad Air\n')),
        base: opened,
        theirs: opened.replace('iPad\n', 'iPad Air\n'),
        change: { kind: 'editor', at: expect.any(Number), note: 'Saved in the editor' },
      },
    ]);
    // Saved again on the version now there, it is written.
    const now = { [page]: sha(opened.replace('iPad\n', 'iPad Air\n')) };
    expect(await checkedSave(history, b, now, keystatic(root, b))).toEqual({ written: 'written' });
  });

  it('says what changed the file: a restore, links moved, a change outside, a page gone', async () => {
    const root = project({ [page]: opened });
    const history = new ContentHistory(root);
    await history.record('As found when the editor started');
    const refusedBy = async (note: string | undefined, text: string | undefined) => {
      if (text === undefined) rmSync(join(root, page));
      else write(root, page, text);
      if (note) await history.record(note);
      const outcome = await checkedSave(
        history,
        saving(page, 'mine'),
        { [page]: sha(opened) },
        async () => 'x',
      );
      return 'refused' in outcome ? outcome.refused.stale[0]!.change : undefined;
    };
    expect(await refusedBy('Restored the version of 2026-11-28T09:00:00.000Z', 'a')).toMatchObject({
      kind: 'restore',
    });
    expect(await refusedBy('Links to /ipad now lead to /ipad-apps', 'b')).toMatchObject({
      kind: 'links',
      note: 'Links to /ipad now lead to /ipad-apps',
    });
    // Saved by hand a moment ago, not recorded yet: outside the editor, at the file's time.
    expect(await refusedBy(undefined, 'c')).toMatchObject({ kind: 'outside' });
    write(root, page, opened);
    await history.record('Saved');
    // Renamed in the editor: where it went is said.
    rmSync(join(root, page));
    write(root, 'src/content/services/ipad-apps.mdx', opened);
    await history.record('Saved in the editor');
    const outcome = await checkedSave(
      history,
      saving(page, 'mine'),
      { [page]: sha('c') },
      async () => 'x',
    );
    expect('refused' in outcome && outcome.refused.stale[0]).toMatchObject({
      current: null,
      change: { kind: 'editor', movedTo: 'src/content/services/ipad-apps.mdx' },
    });
  });

  it('what a note of the history says about who changed a file', () => {
    expect(changeKind('Saved in the editor')).toBe('editor');
    expect(changeKind('Saved')).toBe('outside');
    expect(changeKind('As found when the editor started')).toBe('outside');
    expect(changeKind('Restored the version of 2026-11-28T09:00:00.000Z')).toBe('restore');
    expect(changeKind('Restored src/content/services/zend.mdx, deleted 2026')).toBe('bring-back');
    expect(changeKind('Visitors of /a are sent to /b')).toBe('redirect');
    expect(changeKind('issue 47, part 2')).toBe('developer');
    // Every note History reads, read alike here (once told apart by a list of their own).
    expect(changeKind('Brought back src/content/services/zend.mdx')).toBe('bring-back');
    expect(changeKind('Links that led to /a lead to /b again')).toBe('links');
    expect(changeKind('/zend no longer sends visitors to /php')).toBe('redirect');
  });
});

describe('an older version a tab asks for', () => {
  it('is read from the history if it was once that file, and only then', async () => {
    const root = project({ [page]: opened });
    const history = new ContentHistory(root);
    await history.record('As found');
    write(root, page, 'newer');
    await history.record('Saved in the editor');
    expect(await history.wasVersionOf(sha(opened), page)).toBe(true);
    expect(await history.blobText(sha(opened))).toBe(opened);
    // Another file's version, or one never recorded: not this file's.
    expect(await history.wasVersionOf(sha(opened), 'src/content/services/other.mdx')).toBe(false);
    expect(await history.wasVersionOf(sha('never'), page)).toBe(false);
    await expect(history.wasVersionOf(sha(opened), '../package.json')).rejects.toThrow();
  });
});
