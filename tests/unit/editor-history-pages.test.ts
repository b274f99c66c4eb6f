/**
 * The editor's History pages (src/editor/dev-server/history/pages/), rendered as the dev server
 * renders them (Astro's container): whatever a content file or a version holds is shown as text, as
 * it is, never as markup; the forms post back exactly the values shown; what a restore would change
 * reads field by field, the text now struck and the text that comes back; versions say who saved
 * them and when, in the reader's time zone, never as an ISO stamp.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { JSDOM } from 'jsdom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ContentHistory } from '../../src/editor/dev-server/history/content-history.ts';
import { deletedEntries, deletedPage } from '../../src/editor/dev-server/history/deleted-pages.ts';
import DeletedEntry from '../../src/editor/dev-server/history/pages/DeletedEntry.astro';
import EntryHistory from '../../src/editor/dev-server/history/pages/EntryHistory.astro';
import EntryVersion from '../../src/editor/dev-server/history/pages/EntryVersion.astro';
import Overview from '../../src/editor/dev-server/history/pages/Overview.astro';

let container: AstroContainer;
beforeAll(async () => {
  container = await AstroContainer.create();
});

const projects: string[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) rmSync(project, { recursive: true, force: true });
});

/** A page as the browser reads it. */
async function render(component: unknown, props: Record<string, unknown>) {
  const html = await container.renderToString(component as never, { props, partial: false });
  return { html, document: new JSDOM(html).window.document };
}

const hostile = `</pre><script>alert(1)</script><img src=x onerror="alert(2)">'"&amp;`;
/** The reader's clock: 13:00 in Berlin on 1 November 2026. */
const clock = { timeZone: 'Europe/Berlin', now: Date.UTC(2026, 10, 1, 12) };
const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
const entry = {
  label: `Service pages → <b>ipad</b>`,
  editorUrl: '/keystatic/collection/services/item/ipad',
  historyUrl: '/keystatic/history/collection/services/item/ipad',
  stem: 'src/content/services/ipad',
};

describe("the editor's History pages", () => {
  it('show a deleted entry’s text as it is, and post back its file, commit and the name it comes back under', async () => {
    const { html, document } = await render(DeletedEntry, {
      deleted: {
        file: 'src/content/services/ipad.mdx',
        commit: 'a'.repeat(40),
        label: entry.label,
        title: hostile,
        address: '/ipad',
        deletedAt: Date.UTC(2026, 10, 1, 12),
        deletion: 'deleted by you',
        versions: [
          {
            commit: 'b'.repeat(40),
            savedAt: 0,
            note: hostile,
            file: 'x',
            by: { name: 'Visual editor', email: 'editor@localhost' },
            editor: true,
          },
        ],
      },
      text: `title: ${hostile}\n  indented\n`,
      service: true,
      name: 'ipad',
      redirects: [{ from: '/ipad', was: '/android' }],
      links: [{ file: 'src/content/data/technologies.yaml', label: hostile, links: 2 }],
      clock,
    });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(document.querySelectorAll('script, img, b')).toHaveLength(0);
    expect(document.querySelector('pre')?.textContent).toBe(`title: ${hostile}\n  indented\n`);
    expect(document.querySelector('h1')?.textContent).toBe(`Bring back ${hostile}`);
    expect(document.title).toBe(`Bring back ${hostile} · Site content`);
    expect(document.body.textContent).toContain('Its address /ipad now sends visitors to /android');
    expect(document.body.textContent).toContain('Deleted by you today 13:00.');
    expect(document.body.textContent).toContain(`${hostile} (2 links)`);
    const form = document.querySelector('form')!;
    expect(form.method).toBe('post');
    expect(Object.fromEntries(new document.defaultView!.FormData(form))).toEqual({
      file: 'src/content/services/ipad.mdx',
      commit: 'a'.repeat(40),
      name: 'ipad',
    });
    const versions = document.querySelector('ol[aria-labelledby="versions"]')!;
    expect(versions.textContent).toContain(hostile);
  });

  it('say why a deleted entry cannot come back under the name asked, at its field', async () => {
    const { document } = await render(DeletedEntry, {
      deleted: {
        file: 'src/content/services/zend.mdx',
        commit: 'a'.repeat(40),
        label: 'Service pages → zend',
        title: 'Zend Framework',
        address: '/zend',
        deletedAt: Date.UTC(2026, 10, 1, 12),
        deletion: 'deleted by you',
        versions: [],
      },
      text: 'slug: zend\n',
      service: true,
      name: 'php',
      problem: 'Another page is at /php now: choose another address',
      takenBy: { label: 'Service pages → zend', title: 'Yii Framework', address: '/zend' },
      redirects: [],
      links: [],
      clock,
    });
    expect(document.querySelector('.problem')?.textContent).toMatch(
      /\/zend is now the address of another page: Yii Framework/,
    );
    const input = document.querySelector<HTMLInputElement>('input[name="name"]')!;
    expect(input.value).toBe('php');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = input.getAttribute('aria-describedby')!.split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent?.trim())).toContain(
      'Another page is at /php now: choose another address',
    );
    expect(document.querySelector(`label[for="${input.id}"]`)?.textContent).toBe('Page address');
  });

  it('show what restoring a version would change, field by field, as text', async () => {
    const { document } = await render(EntryVersion, {
      entry,
      clock,
      commit: 'b'.repeat(40),
      savedAt: Date.UTC(2026, 10, 1, 11, 5, 9),
      action: 'saved by you',
      apart: { seconds: true },
      changes: [
        { place: ['Service name'], kind: 'changed', before: hostile, after: 'iPad' },
        { place: ['Tiles', 'Pencil'], kind: 'added', before: '', after: 'Title: Pencil' },
      ],
    });
    expect(document.querySelectorAll('script, img, b')).toHaveLength(0);
    expect(document.querySelector('h1')?.textContent).toBe(
      `${entry.label}: the version of today 12:05:09`,
    );
    expect(document.body.textContent).toContain('Who and how: saved by you.');
    const fields = [...document.querySelectorAll('.change')];
    expect(fields.map((f) => f.querySelector('h2')?.textContent)).toEqual([
      'Service name',
      'Tiles → Pencil',
    ]);
    // The text now struck, the text that comes back shown; no YAML, no line numbers.
    expect(fields[0]!.querySelector('del')?.textContent).toBe(`Now: ${hostile}`);
    expect(fields[0]!.querySelector('ins')?.textContent).toBe('Comes back: iPad');
    expect(fields[1]!.querySelector('del')).toBeNull();
    expect(fields[1]!.textContent).toContain('not there');
    expect(fields[1]!.querySelector('ins')?.textContent).toBe('Comes back: Title: Pencil');
    expect(document.body.textContent).not.toMatch(/Near line|title:/);
    const form = document.querySelector('form')!;
    expect(Object.fromEntries(new document.defaultView!.FormData(form))).toEqual({
      version: 'b'.repeat(40),
    });
    expect(form.querySelector('a')?.getAttribute('href')).toBe(entry.historyUrl);
  });

  it('list versions by who saved them, when, and the fields they changed', async () => {
    const base = { apart: { seconds: false }, fields: '' };
    const { document } = await render(EntryHistory, {
      entry,
      clock,
      versions: [
        {
          ...base,
          commit: 'c'.repeat(40),
          savedAt: Date.UTC(2026, 10, 1, 11, 5, 9),
          apart: { seconds: true },
          action: 'saved by you',
          fields: 'Service name, Hero → Hero text',
          current: 'Current version',
        },
        {
          ...base,
          commit: 'd'.repeat(40),
          savedAt: Date.UTC(2026, 10, 1, 11, 5, 2),
          apart: { seconds: true },
          action: 'saved by you',
          fields: 'Service name',
        },
        {
          ...base,
          commit: 'e'.repeat(40),
          savedAt: Date.UTC(2026, 9, 31, 16, 2),
          action: 'changed by a developer',
          detail: `js-yaml: 80 columns ${hostile}`,
          first: 'oldest',
        },
      ],
    });
    expect(document.querySelectorAll('script, img, b')).toHaveLength(0);
    const items = [...document.querySelectorAll('ol.versions > li')];
    expect(items.map((li) => li.querySelector('time')?.textContent)).toEqual([
      'today 12:05:09',
      'today 12:05:02',
      'yesterday 17:02',
    ]);
    expect(items[0]!.querySelector('p')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'today 12:05:09, saved by you',
    );
    expect(items[0]!.textContent).toContain('Changed: Service name, Hero → Hero text');
    expect(items[0]!.querySelector('.tag')?.textContent).toBe('Current version');
    expect(items[1]!.querySelector('a')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'See the changes and restore the version of today 12:05:02',
    );
    // A developer's commit: its subject folded away, as text.
    expect(items[2]!.querySelector('p')?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'yesterday 17:02, changed by a developer',
    );
    expect(items[2]!.querySelector('details summary')?.textContent).toBe("The developer's note");
    expect(items[2]!.querySelector('details p')?.textContent).toBe(
      `js-yaml: 80 columns ${hostile}`,
    );
    expect(document.body.textContent).not.toMatch(iso);
    expect(document.documentElement.dataset.timeZone).toBe('Europe/Berlin');
  });

  it('say there is nothing to restore for a version that is the text now', async () => {
    const { document } = await render(EntryVersion, {
      entry,
      clock,
      commit: 'b'.repeat(40),
      savedAt: Date.UTC(2026, 10, 1, 12),
      action: 'saved by you',
      apart: { seconds: false },
      changes: [],
    });
    expect(document.querySelector('form')).toBeNull();
    expect(document.body.textContent).toContain('there is nothing to restore');
  });

  it('list deleted entries and old links with the names and addresses as text', async () => {
    const file = `src/content/services/a&b<i>.mdx`;
    const { document } = await render(Overview, {
      moved: { from: '/old"x', to: '/new' },
      deleted: [
        {
          file,
          label: hostile,
          deletedAt: Date.UTC(2026, 10, 1),
          deletion: 'deleted by you',
          commit: 'c'.repeat(40),
          versions: [],
        },
      ],
      stale: [
        {
          from: '/old"x',
          to: '/new',
          files: [{ file: 'src/content/data/technologies.yaml', label: 'Technologies', links: 1 }],
        },
      ],
      recent: [],
      clock,
    });
    expect(document.querySelectorAll('script, img, i')).toHaveLength(0);
    expect(document.querySelector('[role="status"]')?.textContent).toBe(
      'The links to /old"x now lead to /new.',
    );
    const deleted = document.querySelector('ul[aria-labelledby="deleted"] li')!;
    expect(deleted.querySelector('strong')?.textContent).toBe(hostile);
    expect(
      new URL(deleted.querySelector('a')!.href, 'http://dev.invalid').searchParams.get('file'),
    ).toBe(file);
    const form = document.querySelector('form')!;
    expect(form.getAttribute('action')).toBe('/keystatic/history/links');
    expect(Object.fromEntries(new document.defaultView!.FormData(form))).toEqual({
      from: '/old"x',
      to: '/new',
    });
    expect(document.querySelector('#recent')).toBeNull();
  });

  it('name who deleted each entry, as History names the author of a save', async () => {
    const root = mkdtempSync(join(tmpdir(), 'history-pages-'));
    projects.push(root);
    const services = 'src/content/services';
    for (const [slug, title] of [
      ['ipad', 'iPad Apps'],
      ['zend', 'Zend Framework'],
    ]) {
      mkdirSync(join(root, services), { recursive: true });
      writeFileSync(
        join(root, `${services}/${slug}.mdx`),
        `---\nslug: ${slug}\ntitle: ${title}\n---\n`,
      );
    }
    const history = new ContentHistory(root);
    await history.record('As found');
    // One deleted by a member signed in on the live site, one in `npm run edit` (no sign-in).
    await history.record('Saved in the editor', {
      by: { name: 'Erin Editor', email: 'erin@example.com' },
      write: async () => rmSync(join(root, `${services}/ipad.mdx`)),
    });
    await history.record('Saved in the editor', {
      write: async () => rmSync(join(root, `${services}/zend.mdx`)),
    });

    const deleted = await deletedEntries(history);
    // The reader's clock at the last deletion: "today", whatever the time the test runs.
    const now = { timeZone: 'Europe/Berlin', now: deleted[0]!.deletedAt };
    const { document } = await render(Overview, { deleted, stale: [], recent: [], clock: now });
    const rows = [...document.querySelectorAll('ul[aria-labelledby="deleted"] li')].map((li) =>
      li.querySelector('.quiet')?.textContent?.replace(/\s+/g, ' ').trim(),
    );
    expect(rows).toEqual([
      expect.stringMatching(
        /^Service pages → zend, was at \/zend, deleted by you today \d\d:\d\d$/,
      ),
      expect.stringMatching(
        /^Service pages → ipad, was at \/ipad, deleted by Erin Editor today \d\d:\d\d$/,
      ),
    ]);

    const ipad = deleted.find((d) => d.file === `${services}/ipad.mdx`)!;
    const one = await deletedPage(history, ipad.file, ipad.commit, now);
    const page = new JSDOM(await one.text()).window.document;
    expect(page.querySelector('h1 + p')?.textContent?.replace(/\s+/g, ' ')).toMatch(
      /\. Deleted by Erin Editor today \d\d:\d\d\. /,
    );
  });
});
