/**
 * When History says a version was saved, and by whom (src/editor/time-words.ts,
 * src/editor/dev-server/history/save-words.ts): relative and in the reader's own time zone, saves
 * of one minute told apart, never an ISO stamp; "you", "the editor", a staff member's name, or "a
 * developer" with the commit's subject.
 */
import { describe, expect, it } from 'vitest';
import { apart, knownTimeZone, timeWords } from '../../src/editor/time-words.ts';
import {
  changedBy,
  saveKind,
  saveNote,
  saveWords,
} from '../../src/editor/dev-server/history/save-words.ts';
import { EDITOR_AUTHOR } from '../../src/editor/dev-server/history/content-history.ts';

// 2026-03-10 08:23:41 UTC: 09:23 in Berlin, 21:23 in Auckland.
const at = Date.UTC(2026, 2, 10, 8, 23, 41);
const hours = (n: number) => n * 3_600_000;

describe('timeWords', () => {
  it('says today, yesterday, or the date, in the time zone given', () => {
    const berlin = { timeZone: 'Europe/Berlin' };
    expect(timeWords(at, { ...berlin, now: at + hours(2) })).toBe('today 09:23');
    expect(timeWords(at, { ...berlin, now: at + hours(20) })).toBe('yesterday 09:23');
    expect(timeWords(at, { ...berlin, now: at + hours(24 * 3) })).toBe('10 March, 09:23');
    expect(timeWords(at, { ...berlin, now: Date.UTC(2027, 0, 2) })).toBe('10 March 2026, 09:23');
    // A moment ahead of the clock (another machine's) is still today.
    expect(timeWords(at + 5_000, { ...berlin, now: at })).toBe('today 09:23');
  });

  it('counts the days in the reader’s zone, not the server’s', () => {
    // 21:23 on the 10th in Auckland; its next morning is the 11th there, the 10th in London.
    const nextMorning = Date.UTC(2026, 2, 10, 20, 0);
    expect(timeWords(at, { timeZone: 'Pacific/Auckland', now: nextMorning })).toBe(
      'yesterday 21:23',
    );
    expect(timeWords(at, { timeZone: 'Europe/London', now: nextMorning })).toBe('today 08:23');
  });

  it('adds the seconds, and an order within a second, when asked', () => {
    const zone = { timeZone: 'Europe/Berlin', now: at };
    expect(timeWords(at, { ...zone, seconds: true })).toBe('today 09:23:41');
    expect(timeWords(at, { ...zone, order: 2 })).toBe('today 09:23:41 (2nd save that second)');
  });

  it('is never an ISO stamp, and a zone it does not know is this machine’s', () => {
    expect(timeWords(at, { timeZone: 'Not/AZone', now: at })).toMatch(/^today \d\d:\d\d$/);
    expect(timeWords(at, { now: at })).not.toMatch(/\d{4}-\d\d-\d\dT|Z$/);
    expect(knownTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    for (const bad of ['', 'Not/AZone', '../etc', 'Europe/Berlin; x=1', undefined])
      expect(knownTimeZone(bad)).toBeUndefined();
  });
});

describe('apart', () => {
  it('adds the seconds only to saves that share a minute, and an order to those of one second', () => {
    const zone = 'Europe/Berlin';
    // Newest first, as History lists them.
    const times = [at + 10_000, at, at - 60_000];
    expect(apart(times, zone)).toEqual([{ seconds: true }, { seconds: true }, { seconds: false }]);
    const words = times.map((t, i) =>
      timeWords(t, { timeZone: zone, now: at, ...apart(times, zone)[i] }),
    );
    expect(words).toEqual(['today 09:23:51', 'today 09:23:41', 'today 09:22']);
    expect(new Set(words).size).toBe(3);
    // One save listed twice (a save of two entries) is not told apart from itself.
    expect(apart([at, at, at - 60_000], zone, ['a', 'a', 'b'])).toEqual([
      { seconds: false },
      { seconds: false },
      { seconds: false },
    ]);
    // A second apart, either side of a minute's turn (09:23:59 and 09:24:00): their minutes differ.
    expect(apart([at + 19_000, at + 18_000], zone)).toEqual([
      { seconds: false },
      { seconds: false },
    ]);
    // Two saves in the one second: the later (listed first) is the 2nd.
    expect(apart([at, at], zone)).toEqual([
      { seconds: true, order: 2 },
      { seconds: true, order: 1 },
    ]);
  });
});

describe('saveWords', () => {
  const editor = (note: string) => ({ note, by: { ...EDITOR_AUTHOR }, editor: true });

  it('says who saved a version and how, in the editor’s words', () => {
    expect(saveWords(editor('Saved in the editor'))).toEqual({
      kind: 'save',
      who: 'you',
      action: 'saved by you',
    });
    expect(saveWords(editor('Restored the version of 2026-03-10T08:23:41.000Z')).action).toBe(
      'restored by you',
    );
    expect(saveWords(editor('Visitors of /ipad are sent to /android')).action).toBe(
      'redirect added by the editor',
    );
    expect(saveWords(editor('Saved')).action).toBe('changed outside the editor');
    expect(saveKind(editor('Links to /ipad now lead to /ipad-apps'))).toBe('links');
  });

  it('names the staff member a save records, once editors sign in', () => {
    const signedIn = {
      note: 'Saved in the editor',
      by: { name: 'Anna Reid', email: 'anna@x' },
      editor: true,
    };
    expect(saveWords(signedIn)).toMatchObject({ who: 'Anna Reid', action: 'saved by Anna Reid' });
  });

  it("says a developer's commit as such, with its subject as the detail", () => {
    const commit = {
      note: 'js-yaml: 80 columns for the front matter (issue 47, part 2)',
      by: { name: 'Dana', email: 'dana@agency.example' },
      editor: false,
    };
    expect(saveWords(commit)).toEqual({
      kind: 'developer',
      who: 'a developer',
      action: 'changed by a developer',
      detail: 'js-yaml: 80 columns for the front matter (issue 47, part 2)',
    });
    expect(
      changedBy({ ...commit, savedAt: at }, { timeZone: 'Europe/Berlin', now: at + hours(1) }),
    ).toBe(
      'changed by a developer today 09:23 (“js-yaml: 80 columns for the front matter (issue 47, part 2)”)',
    );
  });

  it('says a publish or a roll back of the live site as such, by the member who pressed it', () => {
    const by = { name: 'Erin Editor', email: 'erin@example.com' };
    for (const [note, action] of [
      ['Publish: Changed Android Apps (/android)', 'published by Erin Editor'],
      [
        'Bring the code deployed since into the published site\n\nPublish: Changed Android Apps',
        'published by Erin Editor',
      ],
      [
        'Roll back to release 3 (Ben, 2027-01-05 09:00 UTC)\n\nPublish: Changed Android Apps',
        'rolled back by Erin Editor to release 3 (Ben, 2027-01-05 09:00 UTC)',
      ],
    ])
      expect(saveWords({ note, by, editor: false })).toEqual({
        kind: expect.stringMatching(/^(publish|rollback)$/),
        who: 'Erin Editor',
        action,
      });
    // A developer's own commit that says "Publish" elsewhere is a developer's still.
    expect(saveKind({ note: 'Docs: Publish: how', by, editor: false })).toBe('developer');
  });

  it('says what a restore brought back, when, in the reader’s zone', () => {
    const clock = { timeZone: 'Europe/Berlin', now: at + hours(30) };
    expect(saveNote(editor(`Restored the version of ${new Date(at).toISOString()}`), clock)).toBe(
      'The version of yesterday 09:23 came back.',
    );
    expect(
      saveNote(
        editor(`Restored src/content/services/ipad.mdx, deleted ${new Date(at).toISOString()}`),
        clock,
      ),
    ).toBe('It had been deleted yesterday 09:23.');
    // A bring-back as ./bring-back.ts and ./deleted-pages.ts note it now.
    const brought = editor('Brought back Zend Framework at /zend-2');
    expect(saveWords(brought).action).toBe('brought back by you');
    expect(saveNote(brought, clock)).toBe('Brought back Zend Framework at /zend-2.');
    const linkedBack = editor('Links that led to /zend lead to /zend-2 again');
    expect(saveWords(linkedBack).action).toBe('links moved by you');
    expect(saveNote(linkedBack, clock)).toBe('The links that led to /zend lead to /zend-2 again.');
    const replaced = editor('/zend no longer sends visitors to /php: a new page is there now');
    expect(saveWords(replaced).action).toBe('redirect removed by the editor');
    expect(saveNote(editor('Saved in the editor'), clock)).toBeUndefined();
  });
});
