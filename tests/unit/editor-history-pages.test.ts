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
  it('show a deleted entry’s text as it is, and post back its file and commit', async () => {
    const { html, document } = await render(DeletedEntry, {
      file: 'src/content/services/ipad.mdx',
      commit: 'a'.repeat(40),
      label: entry.label,
      deletedAt: Date.UTC(2026, 10, 1, 12),
      text: `title: ${hostile}\n  indented\n`,
      redirect: { from: '/ipad', to: '/android' },
    });
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(document.querySelectorAll('script, img, b')).toHaveLength(0);
    expect(document.querySelector('pre')?.textContent).toBe(`title: ${hostile}\n  indented\n`);
    expect(document.querySelector('h1')?.textContent).toBe(`Bring back ${entry.label}`);
    expect(document.title).toBe(`Bring back ${entry.label} · Site content`);
    expect(document.body.textContent).toContain('Its address /ipad now sends visitors to /android');
    const form = document.querySelector('form')!;
    expect(form.method).toBe('post');
    expect(Object.fromEntries(new document.defaultView!.FormData(form))).toEqual({
      file: 'src/content/services/ipad.mdx',
      commit: 'a'.repeat(40),
    });
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
      deleted: [{ file, label: hostile, deletedAt: Date.UTC(2026, 10, 1), commit: 'c'.repeat(40) }],
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
