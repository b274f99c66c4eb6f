/**
 * The editor's History pages (src/editor/dev-server/history/pages/), rendered as the dev server
 * renders them (Astro's container): whatever a content file or a version holds is shown as text, as
 * it is, never as markup; the forms post back exactly the values shown; a diff reads as the text now
 * (−) and the text that comes back (+), near its line.
 */
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { JSDOM } from 'jsdom';
import { beforeAll, describe, expect, it } from 'vitest';
import DeletedEntry from '../../src/editor/dev-server/history/pages/DeletedEntry.astro';
import EntryVersion from '../../src/editor/dev-server/history/pages/EntryVersion.astro';
import Overview from '../../src/editor/dev-server/history/pages/Overview.astro';

let container: AstroContainer;
beforeAll(async () => {
  container = await AstroContainer.create();
});

/** A page as the browser reads it. */
async function render(component: unknown, props: Record<string, unknown>) {
  const html = await container.renderToString(component as never, { props, partial: false });
  return { html, document: new JSDOM(html).window.document };
}

const hostile = `</pre><script>alert(1)</script><img src=x onerror="alert(2)">'"&amp;`;
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
        versions: [{ commit: 'b'.repeat(40), savedAt: 0, note: hostile, file: 'x' }],
      },
      text: `title: ${hostile}\n  indented\n`,
      service: true,
      name: 'ipad',
      redirects: [{ from: '/ipad', was: '/android' }],
      links: [{ file: 'src/content/data/technologies.yaml', label: hostile, links: 2 }],
    });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(document.querySelectorAll('script, img, b')).toHaveLength(0);
    expect(document.querySelector('pre')?.textContent).toBe(`title: ${hostile}\n  indented\n`);
    expect(document.querySelector('h1')?.textContent).toBe(`Bring back ${hostile}`);
    expect(document.title).toBe(`Bring back ${hostile} · Site content`);
    expect(document.body.textContent).toContain('Its address /ipad now sends visitors to /android');
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
        versions: [],
      },
      text: 'slug: zend\n',
      service: true,
      name: 'php',
      problem: 'Another page is at /php now: choose another address',
      takenBy: { label: 'Service pages → zend', title: 'Yii Framework', address: '/zend' },
      redirects: [],
      links: [],
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

  it('show what restoring a version would change, line by line, as text', async () => {
    const changes = [
      '@@ -3,3 +3,3 @@',
      ' slug: ipad',
      `-title: ${hostile}`,
      '+title: iPad',
      '\\ No newline at end of file',
      ' ',
      '',
    ].join('\n');
    const { document } = await render(EntryVersion, {
      entry,
      commit: 'b'.repeat(40),
      savedAt: Date.UTC(2026, 10, 1, 12),
      changes,
    });
    expect(document.querySelectorAll('script, img, b')).toHaveLength(0);
    const lines = [...document.querySelectorAll('.diff p')].map((p) => p.textContent);
    expect(lines).toEqual([
      'Near line 3',
      '  slug: ipad',
      `Now: − title: ${hostile}`,
      'Restored: + title: iPad',
      '   ',
    ]);
    expect(document.querySelector('del')?.textContent).toBe(`Now: − title: ${hostile}`);
    expect(document.querySelector('ins')?.textContent).toBe('Restored: + title: iPad');
    const form = document.querySelector('form')!;
    expect(Object.fromEntries(new document.defaultView!.FormData(form))).toEqual({
      version: 'b'.repeat(40),
    });
    expect(form.querySelector('a')?.getAttribute('href')).toBe(entry.historyUrl);
  });

  it('say there is nothing to restore for a version that is the text now', async () => {
    const { document } = await render(EntryVersion, {
      entry,
      commit: 'b'.repeat(40),
      savedAt: Date.UTC(2026, 10, 1, 12),
      changes: '',
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
});
