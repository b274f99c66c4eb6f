/**
 * The desk's queries (StaffQueries) on both engines, at a `now` the test holds: the four lists of
 * calls (upcoming, waiting for confirmation, past, cancelled) and held/no-show; search by name,
 * e-mail or reference, whatever the case, a `%` or `_` typed matched as itself; filters by host
 * and dates; pages in a stable order; notes; marks; bulk handled; the CSV's pages; who cancelled
 * a call and why; the CSV a page at a time, other requests served between its pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskQuery } from '../../src/server/store/types';
import type { EnquiryStore, NewEnquiry } from '../../src/server/store/types';
import { deskFilters, deskQuery } from '../../src/server/staff/desk-view';
import { csvStream } from '../../src/server/staff/enquiries-csv';
import { call, enquiry } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

const now = Date.parse('2027-01-10T12:00:00Z');
const hour = 3_600_000;
const ANNA = 'anna@agency.example';

describe.each(Object.keys(backends) as (keyof typeof backends)[])('the desk on %s', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  const ids: Record<string, string> = {};
  const list = async (query: Partial<DeskQuery>) =>
    (await store.desk.list({ list: 'all', offset: 0, limit: 100, now, ...query })).map(
      (e) => e.name,
    );
  /** A press of Held, No-show (`to`) or Unmark (null) on a page showing the mark `shown`. */
  const mark = (
    id: string,
    shown: 'held' | 'no-show' | null,
    to: 'held' | 'no-show' | null,
    by = ANNA,
    at = now,
  ) => store.desk.markOutcome(id, { shown, to }, by, at);

  /** Stores an enquiry as arrived at `at`, with its call's host; its id under `name`. */
  async function add(name: string, record: NewEnquiry, at: number, host: string | null = null) {
    const stored = await store.transaction((tx) => tx.insertEnquiry(record, host, at, []));
    ids[name] = stored!.id;
  }
  const booking = (name: string, start: string, confirmed: boolean) =>
    call(start, {
      name,
      email: `${name.toLowerCase()}@prospect.example`,
      call: { start, end: new Date(Date.parse(start) + 1_800_000).toISOString(), confirmed },
    });

  beforeAll(async () => {
    backend = await backends[kind]();
    store = backend.store;
    const early = now - 72 * hour;
    await add('Upcoming', booking('Upcoming', '2027-01-11T09:00:00Z', true), early, 'ana');
    await add('Waiting', booking('Waiting', '2027-01-12T09:00:00Z', false), early + 1, 'ben');
    await add('Pastone', booking('Pastone', '2027-01-08T09:00:00Z', true), early + 2, 'ana');
    await add('Noshow', booking('Noshow', '2027-01-09T09:00:00Z', true), early + 3, 'ben');
    await add('Gone', booking('Gone', '2027-01-13T09:00:00Z', true), early + 4, 'ana');
    await add('Zoë', enquiry({ name: 'Zoë 100%_Off', email: 'ZOE@Shop.example' }), early + 5);
    await add('Decoy', enquiry({ name: 'Zoe 1000 Off', email: 'decoy@shop.example' }), early + 6);
    await add(
      'Parts',
      enquiry({ name: 'Jean-Luc O’Brien Søren Straße', email: 'jl@parts.example' }),
      early + 7,
    );
    for (let i = 0; i < 30; i++)
      await add(
        `P${i}`,
        enquiry({ name: `Prospect ${i}`, email: `p${i}@x.example` }),
        early + 10 + i,
      );
    // Cancelled by a member, before it began, with a reason; another marked a no-show.
    const cancelled = await backend.bookings.cancelCall(ids.Gone!, {
      queueMail: false,
      now: now - hour,
      change: { by: 'staff', reason: 'The host is ill' },
      member: ANNA,
    });
    expect(cancelled.status).toBe('cancelled');
    expect(await mark(ids.Noshow!, null, 'no-show')).toBe(true);
  });
  afterAll(() => backend.cleanup());

  it('list the calls upcoming (confirmed or not), waiting for confirmation, past, held or no-show, and cancelled at `now`', async () => {
    expect(await list({ list: 'upcoming' })).toEqual(['Upcoming', 'Waiting']);
    expect(await list({ list: 'unconfirmed' })).toEqual(['Waiting']);
    expect(await list({ list: 'past' })).toEqual(['Noshow', 'Pastone']);
    expect(await list({ list: 'no-show' })).toEqual(['Noshow']);
    expect(await list({ list: 'held' })).toEqual([]);
    expect(await list({ list: 'cancelled' })).toEqual(['Gone']);
    // A day later the upcoming call is past too.
    expect(await list({ list: 'past', now: now + 24 * hour })).toEqual([
      'Upcoming',
      'Noshow',
      'Pastone',
    ]);
  });

  it('keep who cancelled a call and why, and who marked a no-show', async () => {
    const gone = await store.findById(ids.Gone!);
    expect(gone?.call).toMatchObject({ cancelledBy: ANNA, cancelReason: 'The host is ill' });
    // Cancelled with the prospect's link: by the prospect, no reason.
    await add('Linked', booking('Linked', '2027-01-20T09:00:00Z', true), now - hour);
    expect((await backend.bookings.cancelCall(ids.Linked!, { queueMail: false, now })).status).toBe(
      'cancelled',
    );
    const linked = (await store.findById(ids.Linked!))?.call;
    expect([linked?.cancelledBy, linked?.cancelReason]).toEqual(['prospect', undefined]);
    const noShow = await store.findById(ids.Noshow!);
    expect(noShow?.call?.outcome).toEqual({
      kind: 'no-show',
      by: ANNA,
      at: new Date(now).toISOString(),
    });
  });

  it('mark only a call that has begun and was not cancelled', async () => {
    expect(await mark(ids.Upcoming!, null, 'held')).toBe(false);
    expect(await mark(ids.Gone!, null, 'held')).toBe(false);
    expect(await mark(ids.P1!, null, 'held')).toBe(false);
    expect(await mark(ids.Pastone!, null, 'held')).toBe(true);
    expect(await list({ list: 'held' })).toEqual(['Pastone']);
    expect(await mark(ids.Pastone!, 'held', null, 'ben@agency.example', now + 1000)).toBe(true);
    expect(await list({ list: 'held' })).toEqual([]);
    const unmarked = (await store.findById(ids.Pastone!))?.call;
    expect(unmarked?.outcome).toBeUndefined();
    // Who took the mark off, and when: said to a colleague whose press comes after.
    expect(unmarked?.unmarked).toEqual({
      by: 'ben@agency.example',
      at: new Date(now + 1000).toISOString(),
    });
    expect(await mark(ids.Pastone!, null, 'held')).toBe(true);
    expect((await store.findById(ids.Pastone!))?.call?.unmarked).toBeUndefined();
    expect(await mark(ids.Pastone!, 'held', null)).toBe(true);
  });

  it('change a mark only if it is still the one the page showed: a colleague’s since is kept, and of two presses at once one wins', async () => {
    const BEN = 'ben@agency.example';
    const id = ids.Pastone!;
    const outcome = async () => (await store.findById(id))?.call?.outcome;
    const annas = { kind: 'held', by: ANNA, at: new Date(now).toISOString() };
    // Anna marks it held; Ben, his page from before (unmarked), presses No-show: Anna's stays.
    expect(await mark(id, null, 'held')).toBe(true);
    expect(await mark(id, null, 'no-show', BEN, now + 1000)).toBe(false);
    expect(await mark(id, null, null, BEN, now + 1000)).toBe(false);
    expect(await outcome()).toEqual(annas);
    // Held again (a double press, or from a page showing held): already so, who and when kept.
    expect(await mark(id, null, 'held', BEN, now + 1000)).toBe(false);
    expect(await mark(id, 'held', 'held', BEN, now + 1000)).toBe(false);
    expect(await outcome()).toEqual(annas);
    // From a page showing Anna's mark, Ben's No-show is made, with his name and time.
    expect(await mark(id, 'held', 'no-show', BEN, now + 2000)).toBe(true);
    expect(await outcome()).toEqual({
      kind: 'no-show',
      by: BEN,
      at: new Date(now + 2000).toISOString(),
    });
    // Two presses at the same moment from pages showing the no-show: one is made, not both.
    const both = await Promise.all([
      mark(id, 'no-show', 'held', ANNA, now + 3000),
      mark(id, 'no-show', null, BEN, now + 3000),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect((await outcome())?.kind).toBe(both[0] ? 'held' : undefined);
    // Unmarked again, as the other tests have it.
    if (both[0]) expect(await mark(id, 'held', null)).toBe(true);
  });

  it('find by the beginning of a word of the name, e-mail or reference, whatever the case or accents; `%` and `_` as typed', async () => {
    // Accents or none, typed or stored: Zoë and Zoe are both found by either.
    expect(await list({ text: 'zoë' })).toEqual(['Zoe 1000 Off', 'Zoë 100%_Off']);
    expect(await list({ text: 'ZOE 100%' })).toEqual(['Zoë 100%_Off']);
    expect(await list({ text: 'zoe@SHOP' })).toEqual(['Zoë 100%_Off']);
    // A name's parts at its hyphens and apostrophes, with or without them; letters that do not
    // come apart (ø, ß) as people type them without.
    for (const text of [
      'luc',
      'jean-luc',
      'jean-LÜC',
      'obrien',
      "o'brien",
      'brien',
      'soren',
      'strasse',
    ])
      expect(await list({ text }), text).toEqual(['Jean-Luc O’Brien Søren Straße']);
    // Each word typed begins a word of the name, the e-mail or the reference; `%` and `_` are
    // letters like any other (as wildcards, '100%' and '100_' would find 'Zoe 1000 Off' too).
    expect(await list({ text: '100%' })).toEqual(['Zoë 100%_Off']);
    expect(await list({ text: '100%_' })).toEqual(['Zoë 100%_Off']);
    expect(await list({ text: '100_' })).toEqual([]);
    expect(await list({ text: 'zo%' })).toEqual([]);
    expect(await list({ text: 'zo' })).toEqual(['Zoe 1000 Off', 'Zoë 100%_Off']);
    expect(await list({ text: 'zoë 100%' })).toEqual(['Zoë 100%_Off']);
    expect(await list({ text: 'zoë off' })).toEqual(['Zoe 1000 Off']);
    expect(await list({ text: 'shop.example' })).toEqual(['Zoe 1000 Off', 'Zoë 100%_Off']);
    expect(await list({ text: ids.Decoy!.slice(0, 8) })).toEqual(['Zoe 1000 Off']);
    expect(await list({ text: ids.Decoy!.toUpperCase() })).toEqual(['Zoe 1000 Off']);
    expect(await list({ text: 'nobody at all' })).toEqual([]);
    expect(await list({ list: 'past', text: 'noshow@' })).toEqual(['Noshow']);
  });

  it('narrow by host and dates: the call’s start for calls, the arrival for enquiries', async () => {
    expect(await list({ list: 'past', host: 'ana' })).toEqual(['Pastone']);
    expect(await list({ list: 'cancelled', host: 'ben' })).toEqual([]);
    expect(
      await list({ list: 'past', from: '2027-01-09T00:00:00Z', to: '2027-01-10T00:00:00Z' }),
    ).toEqual(['Noshow']);
    const arrived = now - 72 * hour + 10;
    expect(
      await list({
        text: 'x.example',
        from: new Date(arrived).toISOString(),
        to: new Date(arrived + 2).toISOString(),
      }),
    ).toEqual(['Prospect 1', 'Prospect 0']);
    // The desk's own query of its address, up to the last day a date field takes.
    const desk = async (search: string) =>
      (
        await store.desk.list(
          deskQuery(deskFilters(new URL(`https://x/staff?${search}`), new Set()), 'UTC', now),
        )
      ).map((e) => e.name);
    expect(await desk('state=past&to=9999-12-31')).toEqual(['Noshow', 'Pastone']);
    expect(await desk('state=past&from=2027-01-09&to=9999-12-30')).toEqual(['Noshow']);
    // Year 0, which PostgreSQL keeps no instant of (its query failed), is no date: left out.
    expect(await desk('state=past&from=0000-01-01')).toEqual(['Noshow', 'Pastone']);
  });

  it('find nothing by a value holding a NUL, which PostgreSQL cannot hold, where its query failed', async () => {
    expect(await store.findById('\u0000')).toBeUndefined();
    expect(await store.findById(`${ids.Upcoming!}\u0000`)).toBeUndefined();
    expect(await list({ text: 'Zo\u0000' })).toEqual([]);
  });

  it('page in a stable order, newest first: page 2 follows page 1, the last page is short', async () => {
    const page = (n: number) => list({ text: 'x.example', offset: (n - 1) * 12, limit: 12 });
    const [one, two, three] = [await page(1), await page(2), await page(3)];
    expect(one[0]).toBe('Prospect 29');
    expect(two[0]).toBe('Prospect 17');
    expect(new Set([...one, ...two, ...three]).size).toBe(30);
    expect(three).toHaveLength(6);
    expect(await page(1)).toEqual(one);
  });

  it('keep the hosts’ names as the live site renames them, and name those it no longer has who have calls', async () => {
    await store.desk.rememberHosts([
      { id: 'ana', name: 'Ana Silva' },
      { id: 'ben', name: 'Ben' },
      { id: 'cy', name: 'Cy Moss' },
    ]);
    // Renamed; an id given twice is kept once.
    await store.desk.rememberHosts([
      { id: 'ben', name: 'Ben Okafor' },
      { id: 'ben', name: 'Ben Okafor' },
    ]);
    await store.desk.rememberHosts([]);
    // Cy has no call: not a host to filter by.
    expect(await store.desk.formerHosts(['ana'])).toEqual([{ id: 'ben', name: 'Ben Okafor' }]);
    expect(await store.desk.formerHosts([])).toEqual([
      { id: 'ana', name: 'Ana Silva' },
      { id: 'ben', name: 'Ben Okafor' },
    ]);
    expect(await store.desk.formerHosts(['ana', 'ben', 'cy'])).toEqual([]);
  });

  it('keep notes by their author, oldest first, on an enquiry that exists only', async () => {
    const note = { enquiryId: ids.P2!, author: ANNA, body: 'Call back on Monday.\nBudget £40k.' };
    expect(await store.desk.addNote({ ...note, at: now })).toBe(true);
    expect(await store.desk.addNote({ ...note, at: now + 1, body: 'Sent the quote.' })).toBe(true);
    expect(await store.desk.addNote({ ...note, enquiryId: 'nope', at: now })).toBe(false);
    const notes = await store.desk.notesOf([ids.P2!, ids.P3!]);
    expect(notes.get(ids.P2!)?.map((n) => n.body)).toEqual([
      'Call back on Monday.\nBudget £40k.',
      'Sent the quote.',
    ]);
    expect(notes.get(ids.P3!)).toBeUndefined();
  });

  it('mark many handled at once, only those not handled yet', async () => {
    await store.staff.markHandled(ids.P5!, 'ben@agency.example', now - hour);
    const marked = await store.desk.markAllHandled([ids.P4!, ids.P5!, 'nope'], ANNA, now);
    expect(marked).toEqual([ids.P4!]);
    expect(await list({ list: 'handled' })).toEqual(['Prospect 5', 'Prospect 4']);
    expect((await list({ list: 'new' })).includes('Prospect 4')).toBe(false);
  });

  it('read every enquiry for the CSV in pages, in the order stored, each once', async () => {
    const seen: string[] = [];
    let cursor;
    for (;;) {
      const { rows, next } = await store.desk.exportPage(cursor, 7);
      seen.push(...rows.map((e) => e.id));
      if (rows.length < 7) break;
      cursor = next;
    }
    expect(seen).toEqual((await store.all()).map((e) => e.id));
  });
});

describe('the CSV of the desk', () => {
  it('lets the server answer other requests between its pages', async () => {
    // SQLite answers at once: a page read in a promise's continuation would hold the event loop,
    // and every visitor with it, until the last of a large store's enquiries was read.
    const backend = await backends.sqlite();
    try {
      await backend.store.transaction(async (tx) => {
        for (let i = 0; i < 1_001; i++)
          await tx.insertEnquiry(enquiry({ name: `Prospect ${i}` }), null, now + i, []);
      });
      let turns = 0;
      const other = () => {
        turns++;
        timer = setImmediate(other);
      };
      let timer = setImmediate(other);
      const turnsAtEachChunk: number[] = [];
      const reader = csvStream(backend.store, new Map()).getReader();
      try {
        while (!(await reader.read()).done) turnsAtEachChunk.push(turns);
      } finally {
        clearImmediate(timer);
      }
      // The byte-order mark and header, then three pages of enquiries (500, 500, 1).
      expect(turnsAtEachChunk).toHaveLength(4);
      for (let page = 2; page < 4; page++)
        expect(turnsAtEachChunk[page]).toBeGreaterThan(turnsAtEachChunk[page - 1]!);
    } finally {
      await backend.cleanup();
    }
  });
});

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'a search whose every word is common, on %s',
  (kind) => {
    // 1,100 enquiries: every name "Prospect", half the addresses at odd.example, half at even.
    let backend: Backend;
    const newestFirst: { name: string; odd: boolean }[] = [];
    const search = async (text: string, offset = 0, list: DeskQuery['list'] = 'all') =>
      (await backend.store.desk.list({ list, text, offset, limit: 26, now })).map((e) => e.name);
    beforeAll(async () => {
      backend = await backends[kind]();
      await backend.store.transaction(async (tx) => {
        for (let i = 0; i < 1_100; i++) {
          const odd = i % 2 === 1;
          const email = `p${i}@${odd ? 'odd' : 'even'}.example`;
          await tx.insertEnquiry(enquiry({ name: `Prospect ${i}`, email }), null, now + i, []);
          newestFirst.unshift({ name: `Prospect ${i}`, odd });
        }
      });
    });
    afterAll(() => backend.cleanup());

    it('finds a page where the words are often together, in the list’s order', async () => {
      const odd = newestFirst.filter((e) => e.odd).map((e) => e.name);
      expect(await search('prospect odd')).toEqual(odd.slice(0, 26));
      expect(await search('prospect odd', 25)).toEqual(odd.slice(25, 51));
      // A page beyond the list's first rows: its matches are read from a word's index.
      expect(await search('prospect odd', 525)).toEqual(odd.slice(525, 551));
      expect(await search('odd prospect', 540)).toEqual(odd.slice(540));
    });

    it('finds none where no enquiry has them all', async () => {
      expect(await search('odd even')).toEqual([]);
      expect(await search('prospect odd even')).toEqual([]);
      expect(await search('odd even', 0, 'past')).toEqual([]);
    });
  },
);
