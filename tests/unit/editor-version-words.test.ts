/**
 * What History lists of an entry's versions and of the recent saves
 * (src/editor/dev-server/history/version-words.ts), with real git in a temporary project: who and
 * how, the fields each changed, the times told apart, a save of many entries in one line, and what
 * a restore would change, field by field.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentHistory } from '../../src/editor/dev-server/history/content-history.ts';
import {
  clockOf,
  describeRecent,
  describeVersions,
  restoreChanges,
} from '../../src/editor/dev-server/history/version-words.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const page = 'src/content/services/ipad.mdx';
const service = (title: string) =>
  `---\nslug: ipad\ntitle: ${title}\ncategory: mobile-native\norder: 20\n---\n`;

describe("History's words for versions", () => {
  it('say who saved each version, what it changed, and what a restore brings back', async () => {
    const root = mkdtempSync(join(tmpdir(), 'version-words-'));
    roots.push(root);
    write(root, page, service('iPad App'));
    for (const name of ['a', 'b', 'c', 'd'])
      write(root, `src/content/services/${name}.mdx`, service(name.toUpperCase()));
    write(root, 'src/content/pages/service.yaml', 'sections:\n  - id: web\n    title: Web apps\n');
    const history = new ContentHistory(root);
    await history.record('As found when the editor started');
    write(root, page, service('iPad App Pro').replace('mobile-native', 'web'));
    await history.record('Saved in the editor');

    const clock = clockOf('Europe/Berlin');
    expect(clock.timeZone).toBe('Europe/Berlin');
    expect(clockOf('not a zone').timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);

    const versions = await history.versions(page);
    const shown = await describeVersions(history, versions, clock);
    expect(shown.map(({ action, fields, first }) => ({ action, fields, first }))).toEqual([
      // The group by its heading on the /service page, as the editor names it.
      {
        action: 'saved by you',
        fields: 'Service name, Group on the services page',
        first: undefined,
      },
      { action: 'kept as the editor first found it', fields: '', first: 'oldest' },
    ]);
    // Two saves in the same minute: their times are told apart by their seconds. (The same minute
    // of the clock, not within 60 s: two saves a second apart either side of a minute's turn are
    // told apart by their minutes; the test had expected seconds then, and failed at such a turn.)
    const minute = (at: number) => Math.floor(at / 60_000);
    expect(shown[0]!.apart.seconds).toBe(minute(shown[0]!.savedAt) === minute(shown[1]!.savedAt));

    const recent = await describeRecent(history, await history.recentSaves(), clock);
    expect(recent.map(({ action, file, entries }) => ({ action, file, entries }))).toEqual([
      { action: 'saved by you', file: page, entries: undefined },
      // The first record, of every entry: one line.
      { action: 'kept as the editor first found it', file: undefined, entries: 6 },
    ]);

    const changes = await restoreChanges(history, versions[1]!, page);
    expect(changes).toEqual([
      { place: ['Service name'], kind: 'changed', before: 'iPad App Pro', after: 'iPad App' },
      {
        place: ['Group on the services page'],
        kind: 'changed',
        before: 'Web apps',
        after: 'mobile-native',
      },
    ]);
  });
  it('say a deletion is one, by whom, not a save of every field the entry had', async () => {
    const root = mkdtempSync(join(tmpdir(), 'version-words-'));
    roots.push(root);
    write(root, page, service('iPad App'));
    const history = new ContentHistory(root);
    await history.record('As found when the editor started');
    const erin = { name: 'Erin Editor', email: 'erin@example.com' };
    rmSync(join(root, page));
    await history.record('Saved in the editor', { by: erin });

    const recent = await describeRecent(history, await history.recentSaves(), clockOf('UTC'));
    expect(recent[0]).toMatchObject({
      action: 'deleted by Erin Editor',
      fields: '',
      first: 'deleted',
      file: page,
    });
  });
});
