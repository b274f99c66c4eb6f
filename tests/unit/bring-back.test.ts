/**
 * Bringing a deleted page back undoes what its deletion did (src/editor/dev-server/history/
 * bring-back.ts), with real git in a temporary project, the saves made as the dev server makes
 * them: the deletion, the redirect it adds (recorder.ts's `redirectMoves`), the links pointed at
 * the page chosen for its visitors ("Point them at"). It comes back under its own address, or
 * another when a page has taken that one, its redirects taken back or sent on, and the links
 * offered back; a rename onto a redirect's old address removes only that redirect, and says so.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LINKS_MOVED,
  bringBack,
  broughtBack,
  freeName,
  movedLinks,
  nameProblem,
  redirectsBack,
} from '../../src/editor/dev-server/history/bring-back.ts';
import { ContentHistory } from '../../src/editor/dev-server/history/content-history.ts';
import { linksBack, moveLinks } from '../../src/editor/dev-server/content-links.ts';
import {
  readRedirects,
  redirectMoves,
  writeRedirects,
} from '../../src/editor/dev-server/history/recorder.ts';
import type { PageMove } from '../../src/editor/events.ts';

const projects: string[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) rmSync(project, { recursive: true, force: true });
});

const file = (name: string) => `src/content/services/${name}.mdx`;
const TECHNOLOGIES = 'src/content/data/technologies.yaml';
const page = (slug: string, title: string) =>
  `---\nslug: ${slug}\ntitle: ${title}\n---\n${`${title} is what we build with.\n`.repeat(8)}`;
const technologies = [
  'entries:',
  '  - id: php',
  '    name: PHP',
  '    href: /php',
  '  - id: zend',
  '    name: Zend',
  '    href: /zend',
  '  - id: yii',
  '    name: Yii',
  '    href: /yii',
  '',
].join('\n');

function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

/** A project with Zend, Yii and PHP, and an old address that leads to Zend, as found. */
async function project() {
  const root = mkdtempSync(join(tmpdir(), 'bring-back-'));
  projects.push(root);
  write(root, file('zend'), page('zend', 'Zend Framework'));
  write(root, file('yii'), page('yii', 'Yii Framework'));
  write(root, file('php'), page('php', 'PHP'));
  write(root, TECHNOLOGIES, technologies);
  await writeRedirects(root, [{ from: '/zend-framework', to: '/zend' }]);
  mkdirSync(join(root, 'src/pages'), { recursive: true });
  write(root, 'src/pages/about.astro', '');
  const history = new ContentHistory(root);
  await history.record('As found');
  return { root, history };
}

/** What the dev server does after a Save moved or deleted pages: their redirects, as one save. */
async function followMoves(history: ContentHistory, moves: PageMove[]) {
  const { redirects, note, trailers } = redirectMoves(await readRedirects(history.root), moves);
  await history.record(note, { trailers, write: () => writeRedirects(history.root, redirects) });
}

/** Zend deleted in the editor, its visitors sent to /php, and its links pointed at /php. */
async function deleteZend(history: ContentHistory, root: string) {
  rmSync(join(root, file('zend')));
  const commit = (await history.record('Saved in the editor'))!;
  await followMoves(history, [{ from: '/zend', to: '/php', kind: 'deleted' }]);
  await history.record('Links to /zend now lead to /php', {
    trailers: [{ key: LINKS_MOVED, value: '/zend /php' }],
    write: async () => void (await moveLinks(root, '/zend', '/php')),
  });
  expect(await readRedirects(root)).toEqual([
    { from: '/zend-framework', to: '/php' },
    { from: '/zend', to: '/php' },
  ]);
  expect(read(root, TECHNOLOGIES)).not.toContain('/zend');
  return { file: file('zend'), commit };
}

describe('bringing a deleted page back', () => {
  it('at its own address: its redirects are taken back, and its links offered back', async () => {
    const { root, history } = await project();
    const deleted = await deleteZend(history, root);

    expect(
      await nameProblem(root, deleted.file, 'zend', await readRedirects(root)),
    ).toBeUndefined();
    const save = (await bringBack(history, deleted, 'zend'))!;
    expect(read(root, file('zend'))).toBe(page('zend', 'Zend Framework'));
    expect(await readRedirects(root)).toEqual([{ from: '/zend-framework', to: '/zend' }]);
    expect(await history.deleted('src/content/services')).toEqual([]);
    // What it did, as the page after it says.
    const back = broughtBack((await history.save(save))!)!;
    expect(back.file).toBe(file('zend'));
    expect(back.redirects).toEqual(
      expect.arrayContaining([
        { from: '/zend', was: '/php' },
        { from: '/zend-framework', was: '/php', to: '/zend' },
      ]),
    );
    // Its History runs on from before it was deleted.
    expect((await history.versions(file('zend'))).map((v) => v.note)).toEqual([
      'Brought back Zend Framework at /zend',
      'As found',
    ]);

    // The Zend link that was pointed at /php, and only it, can point back.
    const links = await movedLinks(history, deleted, '/zend');
    expect(links.map(({ file, links }) => ({ file, links }))).toEqual([
      { file: TECHNOLOGIES, links: 1 },
    ]);
    expect(links[0]!.text).toBe(technologies);
  });

  it('under another address when a page has taken its own: said, its redirects sent there', async () => {
    const { root, history } = await project();
    const deleted = await deleteZend(history, root);
    // Yii renamed to zend: the redirect /zend → /php goes, and says so; no other redirect changes.
    rmSync(join(root, file('yii')));
    write(root, file('zend'), page('zend', 'Yii Framework'));
    await history.record('Saved in the editor');
    const move: PageMove = { from: '/yii', to: '/zend', kind: 'moved' };
    await followMoves(history, [move]);
    expect(move.replaced).toEqual({ from: '/zend', to: '/php' });
    expect(await readRedirects(root)).toEqual([
      { from: '/zend-framework', to: '/php' },
      { from: '/yii', to: '/zend' },
    ]);
    const [save] = await history.latestSaves(1);
    expect(save!.note).toBe(
      'Visitors of /yii are sent to /zend; /zend no longer sends visitors to /php: the page is there now',
    );

    // Zend is still deleted, and cannot take /zend back, nor a page's or a redirected address.
    expect((await history.deleted('src/content/services')).map((d) => d.commit)).toEqual([
      deleted.commit,
    ]);
    const redirects = await readRedirects(root);
    expect(await nameProblem(root, deleted.file, 'zend', redirects)).toBe(
      'Another page is at /zend now: choose another address',
    );
    expect(await nameProblem(root, deleted.file, 'about', redirects)).toMatch(/site's own pages/);
    expect(await nameProblem(root, deleted.file, 'yii', redirects)).toMatch(
      /^\/yii sends its visitors on to \/zend/,
    );
    expect(await nameProblem(root, deleted.file, 'Zend 2', redirects)).toMatch(/must be/);
    expect(await freeName(root, deleted.file, redirects)).toBe('zend-2');
    expect((await redirectsBack(history, deleted, '/zend', '/zend-2')).changes).toEqual([
      { from: '/zend-framework', was: '/php', to: '/zend-2' },
    ]);

    await bringBack(history, deleted, 'zend-2');
    expect(read(root, file('zend-2'))).toBe(
      page('zend', 'Zend Framework').replace('slug: zend', 'slug: zend-2'),
    );
    expect(read(root, file('zend'))).toBe(page('zend', 'Yii Framework'));
    expect(await readRedirects(root)).toEqual([
      { from: '/zend-framework', to: '/zend-2' },
      { from: '/yii', to: '/zend' },
    ]);
    expect(await history.deleted('src/content/services')).toEqual([]);
    // Each History its own.
    expect((await history.versions(file('zend-2'))).map((v) => v.file)).toEqual([
      file('zend-2'),
      file('zend'),
    ]);
    expect((await history.versions(file('zend'))).map((v) => v.file)).toEqual([
      file('zend'),
      file('yii'),
    ]);
    // The Zend link pointed at /php is offered to point at /zend-2; Yii's own stays.
    const [links] = await movedLinks(history, deleted, '/zend-2');
    expect(links!.text).toBe(technologies.replace('href: /zend', 'href: /zend-2'));
  });
});

describe('what a bring-back did, read back from its save', () => {
  const save = (value: string) => ({
    commit: 'c'.repeat(40),
    savedAt: 0,
    note: 'Brought back',
    by: { name: 'Visual editor', email: 'editor@localhost' },
    editor: true,
    trailers: [{ key: 'Brought-back', value }],
  });

  it('names only content files, whatever a commit says', () => {
    const commit = 'a'.repeat(40);
    expect(broughtBack(save(`${commit} ${file('zend')} ${file('zend-2')}`))?.file).toBe(
      file('zend-2'),
    );
    for (const value of [
      `${commit} ${file('zend')} ../../etc/passwd`,
      `${commit} /etc/passwd`,
      `${commit} src/content/services/../../../x.mdx`,
      `HEAD ${file('zend')}`,
      `--output=x ${file('zend')}`,
    ])
      expect(broughtBack(save(value)), value).toBeUndefined();
  });
});

describe('a redirect changes only when a move says so', () => {
  it('a move keeps the other redirects, a wrong one too', () => {
    const list = [
      { from: '/spring-offer', to: '/spring-offer' },
      { from: '/old', to: '/yii' },
    ];
    const { redirects, trailers } = redirectMoves(list, [
      { from: '/yii', to: '/yii-framework', kind: 'moved' },
    ]);
    expect(redirects).toEqual([
      { from: '/spring-offer', to: '/spring-offer' },
      { from: '/old', to: '/yii-framework' },
      { from: '/yii', to: '/yii-framework' },
    ]);
    expect(trailers).toEqual([{ key: 'Sends-on', value: '/yii /yii-framework' }]);
  });

  it('a new page at an old address takes its visitors, and says so; elsewhere it changes nothing', () => {
    const list = [{ from: '/zend', to: '/php' }];
    const created: PageMove = { from: '/zend', to: '/zend', kind: 'created' };
    expect(redirectMoves(list, [created])).toEqual({
      redirects: [],
      note: '/zend no longer sends visitors to /php: a new page is there now',
      trailers: [{ key: 'Replaced', value: '/zend /php' }],
    });
    expect(created.replaced).toEqual({ from: '/zend', to: '/php' });
    expect(redirectMoves(list, [{ from: '/laminas', to: '/laminas', kind: 'created' }])).toEqual({
      redirects: list,
      note: '',
      trailers: [],
    });
  });
});

describe('links pointed back', () => {
  const before = 'a\n  name: Zend\n  href: /zend\nb\n  name: PHP\n  href: /php\n';
  const after = before.replace('/zend', '/php');

  it('finds each moved line by its neighbours, in a file changed since', () => {
    const now = `new first line\n${after}  name: Symfony\n  href: /php\n`;
    expect(linksBack(before, after, now, '/zend', '/zend-2')).toEqual({
      text: `new first line\n${before.replace('/zend', '/zend-2')}  name: Symfony\n  href: /php\n`,
      links: 1,
    });
  });

  it('leaves a moved line changed since, and one it cannot tell from another', () => {
    const edited = after.replace('name: Zend\n  href: /php', 'name: Zend\n  href: /php#top');
    expect(linksBack(before, after, edited, '/zend', '/zend')).toEqual({ text: edited, links: 0 });
    // The file's lines twice over: the moved line is in two places, as likely one as the other.
    expect(linksBack(before, after, `x\n${after}${after}`, '/zend', '/zend').links).toBe(0);
  });
});
