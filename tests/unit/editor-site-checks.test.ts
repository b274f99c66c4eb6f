/**
 * The build's checks across files, run by the editor's dev server before a Save or a restore
 * writes anything (src/editor/dev-server/site-checks.ts, save-checks.ts): what the build would
 * refuse is refused, in the build's words and at the editor's place of the field, each list item by
 * its name; a rename is not refused for the links its redirect keeps; a restore says which pages it
 * would break and which old addresses it would leave unanswered. On a copy of the project's
 * content, which each test changes as it needs.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRequest, saveProblems } from '../../src/editor/dev-server/save-checks';
import {
  fixedRoutes,
  linksTo,
  pagesOf,
  readContent,
  restoreConsequences,
} from '../../src/editor/dev-server/site-checks';
import { siteJson } from '../../src/editor/dev-server/site';

let root: string;
const file = (path: string) => join(root, path);
const read = (path: string) => readFileSync(file(path), 'utf8');
const technologies = 'src/content/data/technologies.yaml';
const redirects = 'src/content/data/redirects.yaml';
const home = 'src/content/pages/home.yaml';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'site-checks-'));
  for (const folder of ['src/content', 'src/pages'])
    cpSync(folder, file(folder), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const save = (additions: Record<string, string>, deletions: string[] = []) =>
  saveProblems(root, new Map(Object.entries(additions)), deletions);

describe('a Save the build would refuse', () => {
  it('a link to no page: said at its place, the item by its name, in the build words', async () => {
    const text = read(technologies).replace('href: /ipad\n', 'href: /nope\n');
    expect(await save({ [technologies]: text })).toEqual([
      'Technologies → iPad → Link: "/nope" is not a page of the site (a service page renamed or removed?)',
    ]);
    // The file as it is: nothing to refuse.
    expect(await save({ [technologies]: read(technologies) })).toEqual([]);
  });

  it("the site's own pages are its page files, not its folders: /php saves", async () => {
    const php = 'src/content/services/php.mdx';
    // src/pages/php/ holds /php/email.php, the old site's form address: no page /php.
    expect(await fixedRoutes(root)).toContain('/php/email.php');
    expect(await fixedRoutes(root)).not.toContain('/php');
    expect(
      await save({ [php]: read(php).replace(/^title: .*$/m, 'title: PHP, done well') }),
    ).toEqual([]);
  });

  it("code in a page's text, which the build would run: said at the page text", async () => {
    const yii = 'src/content/services/yii.mdx';
    const text = `${read(yii)}\nexport const leak = (await import('node:fs')).readFileSync('keys/staff.key');\n`;
    const [said, ...more] = await save({ [yii]: text });
    expect(more).toEqual([]);
    expect(said).toMatch(
      /^Service pages → yii → Page text \(below the blocks\): the page text holds an import or export \(line \d+\): page text is words only, never code$/,
    );
    expect(await save({ [yii]: `${read(yii)}\nSome **words**.\n` })).toEqual([]);
    // The front matter closed by `--- ` (a space after): Astro ends it there, so the export below
    // would be the page's code, where a check that ended it at the last `---` read front matter.
    const sly = `${read(yii).replace(/\n---\n/, '\n--- \n')}export const leak = 1;\n---\n`;
    const [front, ...others] = await save({ [yii]: sly });
    expect(others).toEqual([]);
    expect(front).toMatch(/the front matter must begin with a line of three dashes alone/);
  });

  it('a file named as the editor never names one, or a Save at another spelling of its address', async () => {
    const page = Buffer.from(read('src/content/services/android.mdx')).toString('base64');
    /** The middleware's answer to a Save as Keystatic's API takes it; 'written' if it lets it by. */
    const post = async (body: unknown, path = '/api/keystatic/update') => {
      const request = new Request(`http://127.0.0.1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'no-cors': '1' },
        body: JSON.stringify(body),
      });
      const context = { request, url: new URL(request.url) } as Parameters<typeof onRequest>[0];
      const response = (await onRequest(context, async () => new Response('written'))) as Response;
      return `${response.status} ${await response.text()}`;
    };
    const saving = (...paths: string[]) => ({
      additions: paths.map((path) => ({ path, contents: page })),
      deletions: [],
    });
    for (const path of [
      'src/content/services/bad.x.mdx',
      'src/content/services/a b.mdx',
      'src/content/services/x.MDX',
      // A repository of its own in the draft: git would run its settings at the next publish.
      'src/content/services/zz/.git/config',
      'src/content/services/zz/HEAD',
    ])
      expect(await post(saving(path))).toBe(
        `422 Not saved: ${path}: not a name the editor gives a file (letters, digits and hyphens, then .mdx or .yaml)`,
      );
    expect(
      await post({ additions: [], deletions: [{ path: 'src/content/services/zz/.git/HEAD' }] }),
    ).toMatch(/^422 Not saved: src\/content\/services\/zz\/\.git\/HEAD: not a name/);
    for (const body of [
      { additions: {}, deletions: [] },
      { additions: [null], deletions: [] },
      null,
    ])
      expect(await post(body)).toBe('422 Not saved: this is not a Save of the editor’s pages');
    for (const path of [
      '/api/keystatic//update',
      '/api/keystatic/update/',
      '/api/keystatic/updat%65',
    ])
      expect(await post(saving('src/content/services/zz/.git/config'), path)).toBe(
        '404 Not found.',
      );
    // A picture of a page's text, kept beside it, is no content file to check.
    expect(await post(saving('src/content/services/android/photo.png'))).toBe('200 written');
  });

  it('a redirect to itself, from a live page, and one old address twice', async () => {
    const list = (entries: [string, string][]) =>
      `entries:\n${entries.map(([from, to]) => `  - from: ${from}\n    to: ${to}\n`).join('')}`;
    expect(await save({ [redirects]: list([['/spring-offer', '/spring-offer']]) })).toEqual([
      'Redirects (old addresses) → “/spring-offer → /spring-offer” → To (new address): /spring-offer leads to itself: a loop',
    ]);
    expect(await save({ [redirects]: list([['/laravel', '/php']]) })).toEqual([
      'Redirects (old addresses) → “/laravel → /php” → From (old address): /laravel is a page of the site: a redirect would hide it',
    ]);
    expect(
      await save({
        [redirects]: list([
          ['/old', '/php'],
          ['/old', '/laravel'],
        ]),
      }),
    ).toEqual([
      'Redirects (old addresses) → “/old → /php” → From (old address): /old is redirected more than once (to /php, to /laravel): keep one',
      'Redirects (old addresses) → “/old → /laravel” → From (old address): /old is redirected more than once (to /php, to /laravel): keep one',
    ]);
  });

  it("a Save that removes a redirect another page's link needs: that page's link is named", async () => {
    writeFileSync(file(redirects), 'entries:\n  - from: /old-php\n    to: /php\n');
    writeFileSync(file(home), read(home).replace('href: /php\n', 'href: /old-php\n'));
    try {
      const [problem, ...more] = await save({ [redirects]: 'entries: []\n' });
      expect(more).toEqual([]);
      expect(problem).toMatch(
        /^Page copy → home → Sections → .+ → Link: "\/old-php" is not a page of the site/,
      );
    } finally {
      cpSync('src/content', file('src/content'), { recursive: true });
    }
  });

  it("a page renamed is not refused for its links: its old address is sent on; a delete is the Delete dialog's", async () => {
    const laravel = 'src/content/services/laravel.mdx';
    const renamed = read(laravel).replace(/^slug: laravel$/m, 'slug: laravel-php');
    expect(await save({ 'src/content/services/laravel-php.mdx': renamed }, [laravel])).toEqual([]);
    expect(await save({}, [laravel])).toEqual([]);
  });
});

describe('a restore, before it is written', () => {
  it('names the pages it would break and the old addresses it would leave unanswered', async () => {
    writeFileSync(
      file(redirects),
      'entries:\n  - from: /old-php\n    to: /php\n  - from: /gone\n    to: /\n',
    );
    writeFileSync(file(home), read(home).replace('href: /php\n', 'href: /old-php\n'));
    try {
      const { broken, unanswered } = await restoreConsequences(root, redirects, 'entries: []\n');
      expect(broken).toEqual([
        {
          shownOn: 'Home (/)',
          problem: expect.stringMatching(/"\/old-php" is not a page of the site/),
        },
      ]);
      expect(unanswered).toEqual([
        { from: '/old-php', to: '/php' },
        { from: '/gone', to: '/' },
      ]);
      // Restoring what is there already breaks nothing.
      expect(await restoreConsequences(root, redirects, read(redirects))).toEqual({
        broken: [],
        unanswered: [],
      });
    } finally {
      cpSync('src/content', file('src/content'), { recursive: true });
    }
  });
});

describe("the site's pages, as the editor's fields name them", () => {
  it('the own pages by their titles, the service pages by their names', async () => {
    const pages = pagesOf(await readContent(root), await fixedRoutes(root));
    const byAddress = new Map(pages.map(({ address, name }) => [address, name]));
    expect(byAddress.get('/')).toBe('Home');
    expect(byAddress.get('/about')).toBe('About Us');
    expect(byAddress.get('/laravel')).toBe('Laravel');
    expect(byAddress.has('/schedule/booked')).toBe(true);
  });
});

describe('the links to a page, where they are on the site', () => {
  it('by the place a marketer knows, not the file: the footer, a list by its item, a page by its name', async () => {
    const places = async (address: string) =>
      [...(await linksTo(root, address)).found.values()].flat();
    expect(await places('/laravel')).toEqual([
      "the footer's Popular services: Laravel",
      "the About page's technologies: Laravel",
    ]);
    // In the order of their files' paths (src/content/data/, pages/, services/), whatever the disk's.
    expect(await places('/php')).toEqual([
      "the About page's technologies: PHP",
      'Home (/): Sections → One team for the whole product → Items → Web Development → Links → PHP → Link',
    ]);
    expect(await places('/contact')).toEqual(['iPhone App (/iphone): Hero → Button']);
    expect((await linksTo(root, '/laravel')).names.get('/laravel')).toBe('Laravel');
  });
});

describe('the content as the editor reads it', () => {
  it('is the same files whether the folder is given with a trailing slash or without', async () => {
    // The dev server's folder is a URL made a path ('…/project/'): its files were once cut short.
    const files = [...(await readContent(root)).keys()];
    expect(files).toContain('src/content/data/technologies.yaml');
    expect([...(await readContent(`${root}/`)).keys()]).toEqual(files);
  });
});

describe("the site's pages for the editor's fields", () => {
  it('follow every change of the content, even one of the same length the next moment', async () => {
    const pages = async () =>
      (JSON.parse(await siteJson(root, root)) as { pages: { address: string; name?: string }[] })
        .pages;
    const laravel = 'src/content/services/laravel.mdx';
    const before = read(laravel);
    const named = async () => (await pages()).find((page) => page.address === '/laravel')?.name;
    expect(await named()).toBe(/^title: (.*)$/m.exec(before)![1]);
    try {
      // Same length, written at once after a read: the answer is the file's, not the last one.
      writeFileSync(file(laravel), before.replace(/^title: .*$/m, 'title: Laravel Apps X'));
      expect(await named()).toBe('Laravel Apps X');
      writeFileSync(file(laravel), before.replace(/^title: .*$/m, 'title: Laravel Apps Y'));
      expect(await named()).toBe('Laravel Apps Y');
      const again = await siteJson(root, root);
      expect(await siteJson(root, root)).toBe(again);
    } finally {
      writeFileSync(file(laravel), before);
    }
    expect(await named()).toBe(/^title: (.*)$/m.exec(before)![1]);
  });
});
