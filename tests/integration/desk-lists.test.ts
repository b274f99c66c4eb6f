/**
 * The desk's lists against the built server, read as a member reads the page (its HTML parsed):
 * calls upcoming, waiting for confirmation, past and cancelled (by whom, why), each by day; a
 * search by name that finds the one prospect among many; a page's own address; a note added and
 * a no-show marked, each back at the item; many marked handled with one post; the CSV's byte-order
 * mark and columns; a stranger's, a non-member's and another site's posts refused; who moved a
 * call and when, and who took a mark off; and hostile text in a note, a search and a mover's
 * address shown as text. One server, one store, seeded through the store.
 */
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/server/config';
import { deskTime } from '../../src/domain/staff';
import { storedHash } from '../../src/server/staff/access';
import { Bookings } from '../../src/server/booking/calls';
import { openStore } from '../../src/server/store/index';
import type { EnquiryStore, NewEnquiry } from '../../src/server/store/types';
import { call, enquiry, plus } from '../support/records';
import { freePort, startServer, type RunningServer } from '../support/server';
import { post } from './staff-sign-in';

const ANNA = 'anna@northgate-digital.example';
/** Anna's and Ben's zone, as availability.yaml has it: the desk's times are written in it. */
const LONDON = 'Europe/London';
const BEN = 'ben@northgate-digital.example';
const hour = 3_600_000;
const HOSTILE = "<script>alert(1)</script>\"\u202e=cmd|' /C calc'!A0";

let server: RunningServer;
let store: EnquiryStore;
const ids: Record<string, string> = {};
const cookies: Record<string, string> = {};

/** A session started in the store for `email`, as the sign-in does: its cookie. */
async function sessionOf(email: string) {
  const token = `${email.split('@')[0]}-${'y'.repeat(43)}`.slice(0, 43);
  await store.staff.startSession(storedHash(token), email, Date.now());
  return `staff=${token}`;
}

/** An enquiry stored as arrived `ago` ms before now, with its call's host. */
async function add(name: string, record: NewEnquiry, ago: number, host: string | null = null) {
  const stored = await store.transaction((tx) =>
    tx.insertEnquiry(record, host, Date.now() - ago, []),
  );
  ids[name] = stored!.id;
}

/** A booking of `name` starting `inHours` from now. */
const booking = (name: string, inHours: number, confirmed = true) => {
  const start = new Date(Math.round((Date.now() + inHours * hour) / 60_000) * 60_000);
  const iso = start.toISOString().replace('.000Z', 'Z');
  return call(iso, {
    name,
    email: `${name.split(' ')[0]!.toLowerCase()}@prospect.example`,
    call: { start: iso, end: new Date(start.getTime() + 1_800_000).toISOString(), confirmed },
  });
};

/** The desk at `path`, parsed; its cards by name. */
async function desk(path: string, cookie = cookies.anna!) {
  const answer = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
  expect(answer.status).toBe(200);
  const html = await answer.text();
  const document = new JSDOM(html).window.document;
  const cards = [...document.querySelectorAll('li.staff-card')];
  const nameOf = (card: Element) => card.querySelector('.staff-card__head bdi')?.textContent ?? '';
  return {
    html,
    document,
    cards,
    names: cards.map(nameOf),
    card: (name: string) => cards.find((c) => nameOf(c) === name),
  };
}

beforeAll(async () => {
  const port = await freePort();
  server = await startServer({
    PORT: String(port),
    SITE_URL: `http://127.0.0.1:${port}`,
    STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
    BOOKING_SECRET: 'test-secret-0123456789abcdef0123456789',
    STAFF_EMAILS: 'office@northgate-digital.example',
  });
  store = await openStore(readConfig({ ENQUIRY_DB: server.database }));
  await add('Ulla Upcoming', booking('Ulla Upcoming', 26), 3 * hour, 'anna');
  await add('Wim Waiting', booking('Wim Waiting', 50, false), 2 * hour, 'ben');
  await add('Pia Past', booking('Pia Past', -50), 80 * hour, 'anna');
  await add('Carl Cancelled', booking('Carl Cancelled', 74), 90 * hour, 'ben');
  await add('Quentin Blake', enquiry({ name: 'Quentin Blake', email: 'qb@example.com' }), 5 * hour);
  for (let i = 0; i < 60; i++)
    await add(
      `Prospect ${i}`,
      enquiry({ name: `Prospect ${i}`, email: `p${i}@x.example` }),
      4 * hour - i * 1000,
    );
  cookies.anna = await sessionOf(ANNA);
  cookies.eve = await sessionOf('eve@evil.example');
});
afterAll(async () => {
  await store?.close();
  await server?.stop();
});

describe('the desk’s lists', () => {
  it('show the calls upcoming, waiting, past and cancelled, each under its day; a cancel says who and why', async () => {
    expect((await desk('/staff')).names).toEqual([
      'Ulla Upcoming',
      'Wim Waiting',
      'Carl Cancelled',
    ]);
    expect((await desk('/staff?state=unconfirmed')).names).toEqual(['Wim Waiting']);
    const past = await desk('/staff?state=past');
    expect(past.names).toEqual(['Pia Past']);
    expect(past.document.querySelector('#list-title + p + h3')?.textContent).toMatch(
      /day \d+ [A-Z]/,
    );
    const id = ids['Carl Cancelled']!;
    const sequence = (await desk(`/staff?call=${id}&step=cancel`)).document
      .querySelector('section[aria-labelledby="cancel-title"] input[name="sequence"]')!
      .getAttribute('value')!;
    const cancelled = await post(
      `${server.url}/staff`,
      { id, sequence, action: 'cancel-confirmed', reason: 'The host is ill' },
      { Cookie: cookies.anna! },
    );
    expect(cancelled.status).toBe(303);
    const list = await desk('/staff?state=cancelled');
    expect(list.names).toEqual(['Carl Cancelled']);
    const said = list.card('Carl Cancelled')!.textContent!.replace(/\s+/g, ' ');
    const cancelledAt = (await store.findById(id))!.call!.cancelledAt!;
    expect(said).toContain(`Cancelled by Anna Reid on ${deskTime(cancelledAt, LONDON)}`);
    expect(said).toContain('The host is ill');
    // Gone from the calls ahead.
    expect((await desk('/staff')).names).not.toContain('Carl Cancelled');
  });

  it('find the one prospect by name among many, with a page of its own address; pages go on', async () => {
    const found = await desk('/staff?q=QUENTIN');
    expect(found.names).toEqual(['Quentin Blake']);
    expect(found.card('Quentin Blake')!.textContent).toContain(ids['Quentin Blake']!.slice(0, 8));
    const byRef = await desk(`/staff?q=${ids['Quentin Blake']!.slice(0, 8)}`);
    expect(byRef.names).toEqual(['Quentin Blake']);
    const first = await desk('/staff?state=all');
    expect(first.names).toHaveLength(25);
    const next = first.document.querySelector('a[rel=next]')!.getAttribute('href')!;
    expect(next).toMatch(/^\/staff\?state=all&page=2#list-title$/);
    const second = await desk(next.replace(/#.*/, ''));
    expect(second.names).toHaveLength(25);
    expect(second.names.some((name) => first.names.includes(name))).toBe(false);
    const last = await desk('/staff?state=all&page=3');
    expect(last.document.querySelector('a[rel=next]')).toBeNull();
    expect(last.document.querySelector('a[rel=prev]')).not.toBeNull();
    // The form that asks is a plain GET of the desk.
    const form = first.document.querySelector('search form')!;
    expect([form.getAttribute('method'), form.getAttribute('action')]).toEqual(['get', '/staff']);
    // It narrows the list the member is on (or All enquiries, chosen), searched or not.
    const chosen = async (path: string) =>
      (await desk(path)).document.querySelector<HTMLSelectElement>('#find-state')!.value;
    expect(await chosen('/staff?state=past')).toBe('past');
    expect(await chosen('/staff?state=past&host=anna')).toBe('past');
    expect(await chosen('/staff?state=upcoming')).toBe('upcoming');
    // The desk's first page names no list: a name typed there looks through every enquiry.
    expect(await chosen('/staff')).toBe('all');
    expect(await chosen('/staff?q=QUENTIN')).toBe('all');
    expect(
      [...form.querySelectorAll('#find-state option')].map((option) => option.textContent?.trim()),
    ).toContain('All enquiries');
  });

  it('take a note and a no-show on a past call, each back at the item with what was done said', async () => {
    const at = '/staff?state=past';
    const noted = await post(
      `${server.url}${at}`,
      { id: ids['Pia Past']!, action: 'note', note: `Budget £40k.\n${HOSTILE}` },
      { Cookie: cookies.anna! },
    );
    expect(noted.status).toBe(303);
    expect(noted.headers.get('location')).toBe(
      `/staff?state=past&done=noted&at=enquiry-${ids['Pia Past']}#enquiry-${ids['Pia Past']}`,
    );
    // The mark the card shows goes with the press: none yet.
    const shown = (await desk(at)).document
      .querySelector(`#card-${ids['Pia Past']} input[name="shown-outcome"]`)!
      .getAttribute('value')!;
    expect(shown).toBe('none');
    const marked = await post(
      `${server.url}${at}`,
      { id: ids['Pia Past']!, 'shown-outcome': shown, action: 'no-show' },
      { Cookie: cookies.anna! },
    );
    const back = await desk(marked.headers.get('location')!.replace(/#.*/, ''));
    expect(back.document.querySelector('.staff-done')?.textContent).toContain('no-show');
    const card = back.card('Pia Past')!;
    expect(card.querySelector('.staff-notes')!.textContent).toContain('Budget £40k.');
    // Hostile text is text: no element of it, and the note is the member's, named.
    expect(card.querySelector('.staff-notes script')).toBeNull();
    expect(card.querySelector('.staff-notes .staff-card__message')!.textContent).toContain(
      '<script>alert(1)</script>',
    );
    expect(back.html).not.toContain('\u202e');
    expect(card.textContent!.replace(/\s+/g, ' ')).toContain('Marked a no-show by Anna Reid');
    expect((await desk('/staff?state=no-show')).names).toEqual(['Pia Past']);
    // An upcoming call cannot be a no-show.
    const early = await post(
      `${server.url}/staff`,
      { id: ids['Ulla Upcoming']!, action: 'no-show' },
      { Cookie: cookies.anna! },
    );
    expect(early.headers.get('location')).toContain('done=not-begun');
  });

  it('shows a hostile search as text', async () => {
    const found = await desk(`/staff?q=${encodeURIComponent(HOSTILE)}`);
    expect(found.document.querySelector('#list-title script')).toBeNull();
    expect(found.document.querySelector('#list-title bdi')!.textContent).toContain('<script>');
    expect(found.document.querySelector<HTMLInputElement>('#find-q')!.value).toContain('<script>');
    expect(found.html).not.toContain('\u202e');
    expect(found.names).toEqual([]);
  });

  /** Anna's post of the New list's "Mark the chosen handled", with these enquiries ticked. */
  const bulkHandled = (chosen: string[]) =>
    fetch(`${server.url}/staff?state=new`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        Cookie: cookies.anna!,
        Origin: server.url,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams([['action', 'bulk-handled'], ...chosen.map((id) => ['ids', id])]),
    });

  it('mark the chosen enquiries handled with one post, in the audit log', async () => {
    const chosen = [ids['Prospect 1']!, ids['Prospect 2']!];
    const answer = await bulkHandled(chosen);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/staff?state=new&done=bulk&marked=2&of=2#done');
    const handled = await desk('/staff?state=handled');
    expect(handled.names.sort()).toEqual(['Prospect 1', 'Prospect 2']);
    expect(handled.card('Prospect 1')!.textContent).toContain('Handled by Anna Reid');
    const audit = handled.document.querySelector('.staff-audit')!.textContent!;
    for (const id of chosen) expect(audit).toContain(`marked handled ${id.slice(0, 8)}`);
    for (const id of chosen) expect(audit).not.toContain(id);
  });

  it('says a colleague handled it first, and logs nothing for whoever came second', async () => {
    cookies.ben ??= await sessionOf(BEN);
    const id = ids['Prospect 5']!;
    // Ben and Anna both had the New list open; Ben marks it handled first.
    const mark = (cookie: string) =>
      post(`${server.url}/staff?state=new`, { id, action: 'handled' }, { Cookie: cookie });
    expect((await mark(cookies.ben)).headers.get('location')).toContain('done=handled&');
    const anna = await mark(cookies.anna!);
    expect(anna.headers.get('location')).toBe(
      `/staff?state=new&done=already-handled&at=enquiry-${id}#enquiry-${id}`,
    );
    const page = await desk(anna.headers.get('location')!);
    expect(page.document.querySelector(`#enquiry-${id}[role="status"]`)?.textContent).toMatch(
      /^\s*Already handled by Ben Okafor at .+\d\d:\d\d: nothing changed\.\s*$/,
    );
    const audit = page.document.querySelector('.staff-audit')!.textContent!;
    expect(audit.split(`marked handled ${id.slice(0, 8)}`)).toHaveLength(2);
    expect(audit).toContain(
      `Ben Okafor (ben@northgate-digital.example) marked handled ${id.slice(0, 8)}`,
    );
    expect(server.output()).not.toContain(`Staff anna marked handled ${id.slice(0, 8)}`);
    // Chosen in bulk with one not handled yet: one marked, one said handled already.
    const bulk = await bulkHandled([id, ids['Prospect 6']!]);
    expect(bulk.headers.get('location')).toBe('/staff?state=new&done=bulk&marked=1&of=2#done');
    const said = (await desk(bulk.headers.get('location')!)).document.querySelector('#done');
    expect(said?.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '1 of the 2 chosen marked handled. 1 was handled already by a colleague: left as it was.',
    );
  });

  it('add a note typed on the card before any other of its buttons, without script', async () => {
    const page = await desk('/staff?state=all');
    // Each button of a card posts the one form that holds its note box.
    for (const card of page.cards) {
      const form = card.querySelector('textarea[name="note"]')!.closest('form')!;
      for (const button of card.querySelectorAll('button'))
        expect(button.closest('form') ?? button.getAttribute('form')).toBe(
          button.closest('form') ? form : form.id,
        );
    }
    const id = ids['Prospect 7']!;
    const handled = await post(
      `${server.url}/staff?state=new`,
      { id, action: 'handled', note: 'Called back: wants a quote.' },
      { Cookie: cookies.anna! },
    );
    expect(handled.headers.get('location')).toBe(
      `/staff?state=new&done=handled&note=added&at=enquiry-${id}#enquiry-${id}`,
    );
    const back = await desk(handled.headers.get('location')!.replace(/#.*/, ''));
    expect(back.document.querySelector('.staff-done')?.textContent?.trim()).toBe(
      'Marked handled. Your note is added.',
    );
    const audit = back.document.querySelector('.staff-audit')!.textContent!;
    expect(audit).toContain(`added a note ${id.slice(0, 8)}`);
    expect(audit).toContain(`marked handled ${id.slice(0, 8)}`);
    expect((await store.desk.notesOf([id])).get(id)?.map((note) => note.body)).toEqual([
      'Called back: wants a quote.',
    ]);
    // Move or cancel, with a note typed: added, and the call's times shown.
    const ulla = ids['Ulla Upcoming']!;
    const change = await post(
      `${server.url}/staff?state=upcoming`,
      { id: ulla, action: 'change', note: 'Asked to move it.' },
      { Cookie: cookies.anna! },
    );
    expect(change.headers.get('location')).toBe(
      `/staff?state=upcoming&call=${ulla}&note=added#change-title`,
    );
    expect((await store.desk.notesOf([ulla])).get(ulla)?.map((note) => note.body)).toEqual([
      'Asked to move it.',
    ]);
    // No note typed: nothing added.
    const plain = await post(
      `${server.url}/staff?state=upcoming`,
      { id: ulla, action: 'change', note: '' },
      { Cookie: cookies.anna! },
    );
    expect(plain.headers.get('location')).toBe(`/staff?state=upcoming&call=${ulla}#change-title`);
    expect((await store.desk.notesOf([ulla])).get(ulla)).toHaveLength(1);
  });

  it('move or cancel from a list and page goes back to that list and page', async () => {
    const ulla = ids['Ulla Upcoming']!;
    for (const list of ['/staff?state=all&page=2', '/staff?state=upcoming&q=ulla&host=anna']) {
      // The card's button posts to the list's address, and lands there with the call chosen.
      const from = await desk(list);
      expect(from.document.querySelector('form.staff-note')?.getAttribute('action')).toBe(list);
      const opened = await post(
        `${server.url}${list}`,
        { id: ulla, action: 'change' },
        { Cookie: cookies.anna! },
      );
      expect(opened.headers.get('location')).toBe(`${list}&call=${ulla}#change-title`);
      const move = (await desk(`${list}&call=${ulla}`)).document;
      const change = move.querySelector('section[aria-labelledby="change-title"]')!;
      expect(change.querySelector('form')!.getAttribute('action')).toBe(list);
      const links = [...change.querySelectorAll('a')].map((a) => a.getAttribute('href'));
      expect(links).toContain(`${list}#enquiry-${ulla}`);
      expect(links).toContain(`${list}&call=${ulla}&step=cancel#cancel-title`);
      for (const href of links) expect(href!.startsWith(list)).toBe(true);
      const ask = (await desk(`${list}&call=${ulla}&step=cancel`)).document;
      const cancel = ask.querySelector('section[aria-labelledby="cancel-title"]')!;
      expect(cancel.querySelector('form')!.getAttribute('action')).toBe(list);
      expect(cancel.querySelector('a')!.getAttribute('href')).toBe(`${list}#enquiry-${ulla}`);
    }
  });

  it('exports the CSV with a byte-order mark and the desk’s columns', async () => {
    const answer = await post(`${server.url}/staff/enquiries.csv`, {}, { Cookie: cookies.anna! });
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
    const header = text.split('\r\n')[0]!.split(',');
    expect(header.slice(-10)).toEqual([
      'handled',
      'handled_by',
      'handled_at',
      'notes',
      'call_state',
      'cancelled_by',
      'cancel_reason',
      'call_host_name',
      'moved_by',
      'moved_at',
    ]);
    // The host by id, and by the name the desk gives them; never moved: no mover, no time.
    const ulla = text.split('\r\n').find((line) => line.startsWith(ids['Ulla Upcoming']!))!;
    expect(ulla).toContain(',anna,');
    expect(ulla.endsWith(',Anna Reid,,')).toBe(true);
    expect(text).toContain('Budget £40k.');
    expect(text).toContain('no-show');
    expect(text).toContain(ANNA);
    // The hostile note's formula is inside a cell that begins with its time: never a formula.
    expect(text).not.toMatch(/(^|,)=cmd/m);
    expect(text.split('\r\n').filter((line) => line.startsWith(ids['Prospect 9']!))).toHaveLength(
      1,
    );
  });

  it('refuses a stranger’s, a non-member’s and another site’s posts, and changes nothing', async () => {
    const id = ids['Prospect 3']!;
    const stranger = await post(`${server.url}/staff`, { id, action: 'handled' });
    expect(stranger.headers.get('location')).toBe('/staff/sign-in');
    const eve = await post(
      `${server.url}/staff`,
      { id, action: 'note', note: 'x' },
      { Cookie: cookies.eve! },
    );
    expect(eve.headers.get('location')).toBe('/staff/sign-in');
    const otherSite = await post(
      `${server.url}/staff`,
      { id, action: 'handled' },
      { Cookie: cookies.anna!, Origin: 'https://evil.example' },
    );
    expect(otherSite.status).toBe(403);
    const csv = await post(`${server.url}/staff/enquiries.csv`, {}, { Cookie: cookies.eve! });
    expect(csv.status).toBe(303);
    expect((await store.findById(id))?.handled).toBeUndefined();
    expect((await store.desk.notesOf([id])).size).toBe(0);
  });

  it('keep a move’s reason typed through Later days and a time taken meanwhile, cut and cleaned as the move keeps it', async () => {
    const ulla = ids['Ulla Upcoming']!;
    const list = '/staff?state=upcoming';
    const as = { Cookie: cookies.anna! };
    const change = async (path: string) =>
      (await desk(path)).document.querySelector('section[aria-labelledby="change-title"]')!;
    const first = await change(`${list}&call=${ulla}`);
    const sequence = first.querySelector('input[name="sequence"]')!.getAttribute('value')!;
    // Later days is a button of the move's form (no script): what the form holds goes with it.
    const later = [...first.querySelectorAll('form button[name="day"]')].find(
      (button) => button.textContent?.trim() === 'Later days',
    )!;
    const day = later.getAttribute('value')!;
    const typed = `Anna is away\u202e that week;\r\nBcc: x@evil.example ${'y'.repeat(400)}`;
    const kept = `Anna is away that week; Bcc: x@evil.example ${'y'.repeat(400)}`.slice(0, 300);
    const paged = await post(
      `${server.url}${list}`,
      { id: ulla, sequence, reason: typed, day },
      as,
    );
    const to = new URL(paged.headers.get('location')!, server.url);
    expect(`${to.pathname}?${to.searchParams.get('state')}&${to.searchParams.get('call')}`).toBe(
      `/staff?upcoming&${ulla}`,
    );
    expect(to.searchParams.get('day')).toBe(day);
    expect(to.hash).toBe('#change-title');
    const next = await change(`${to.pathname}${to.search}`);
    expect(next.querySelector('input[name="reason"]')!.getAttribute('value')).toBe(kept);
    const starts = (section: Element) =>
      [...section.querySelectorAll('input[name="slot"]')].map((s) => s.getAttribute('value')!);
    expect(starts(next)[0]! > starts(first).at(-1)!).toBe(true);

    // A time taken by two bookings (one a host) before the move is sent: the times again, the
    // reason still typed.
    const taken = starts(next)[0]!;
    for (const host of ['anna', 'ben'])
      await add(
        `Taken ${host}`,
        call(taken, {
          name: `Taken ${host}`,
          email: `taken-${host}@prospect.example`,
          call: { start: taken, end: plus(taken, 30), confirmed: true },
        }),
        0,
        host,
      );
    const moved = await post(
      `${server.url}${list}`,
      { id: ulla, sequence, action: 'move', slot: taken, reason: typed },
      as,
    );
    const back = new URL(moved.headers.get('location')!, server.url);
    expect(back.searchParams.get('call')).toBe(ulla);
    expect(back.searchParams.get('at')).toBe('change-title');
    const again = await change(`${back.pathname}${back.search}`);
    expect(again.querySelector('[role="status"]')?.textContent).toContain('nothing changed');
    expect(again.querySelector('input[name="reason"]')!.getAttribute('value')).toBe(kept);
    expect((await store.findById(ulla))?.call?.start).not.toBe(taken);
  });

  it('keep a colleague’s Held made after the page was shown: nothing changed, said at the top with who and when, the card showing it; pressed again from there, or twice, done', async () => {
    cookies.ben ??= await sessionOf(BEN);
    await add('Otto Outcome', booking('Otto Outcome', -30), 40 * hour, 'anna');
    const id = ids['Otto Outcome']!;
    const ref = id.slice(0, 8);
    const list = '/staff?state=past';
    const [anna, ben] = [{ Cookie: cookies.anna! }, { Cookie: cookies.ben }];
    const shownOn = (document: Document) =>
      document.querySelector(`#card-${id} input[name="shown-outcome"]`)?.getAttribute('value');
    // Both have the past calls open: the call unmarked.
    const bens = shownOn((await desk(list, cookies.ben)).document)!;
    expect(bens).toBe('none');
    const annas = shownOn((await desk(list)).document)!;
    const held = await post(
      `${server.url}${list}`,
      { id, 'shown-outcome': annas, action: 'held' },
      anna,
    );
    expect(held.headers.get('location')).toContain('done=held&');
    const marked = (await store.findById(id))!.call!.outcome!;

    // Ben presses No-show on his page from before, a note typed: Anna's mark is kept, and said.
    const press = { id, 'shown-outcome': bens, action: 'no-show' };
    const refused = await post(`${server.url}${list}`, { ...press, note: 'Rang twice.' }, ben);
    expect(refused.status).toBe(409);
    const page = new JSDOM(await refused.text()).window.document;
    const done = page.querySelector('#done[role="status"]')!;
    expect(done.textContent?.trim()).toBe(
      `Anna Reid marked the call held at ${deskTime(marked.at, 'Europe/London')}, after your page showed it: nothing changed. Its card shows that mark now; press again there to change it. Your note is added.`,
    );
    // Read first, the focus there as the page opens; the card below shows Anna's mark pressed.
    expect(done.hasAttribute('autofocus')).toBe(true);
    const card = page.querySelector(`li#enquiry-${id}`)!;
    expect(done.compareDocumentPosition(card) & page.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const pressed = (name: string) =>
      [...card.querySelectorAll('button')]
        .find((button) => button.textContent?.trim() === name)
        ?.getAttribute('aria-pressed');
    expect([pressed('Held'), pressed('No-show')]).toEqual(['true', 'false']);
    expect(card.textContent!.replace(/\s+/g, ' ')).toContain('Marked held by Anna Reid');
    expect(shownOn(page)).toBe('held');
    // The note was added (not kept in its box to be added twice); the mark is Anna's, as made.
    expect(card.querySelector('textarea')!.textContent).toBe('');
    expect((await store.desk.notesOf([id])).get(id)).toHaveLength(1);
    expect((await store.findById(id))!.call!.outcome).toEqual(marked);
    // Unmark from that page, and a press of a page without the field (from before it was sent),
    // change nothing either.
    for (const old of [
      { ...press, action: 'unmark' },
      { id, action: 'no-show' },
    ])
      expect((await post(`${server.url}${list}`, old, ben)).status).toBe(409);
    expect((await store.findById(id))!.call!.outcome).toEqual(marked);

    // From the page as it is now, showing Anna's mark: Ben's No-show is made. Twice (a double
    // tap, a retry of a lost answer): done both times, made once.
    for (let time = 0; time < 2; time++) {
      const made = await post(`${server.url}${list}`, { ...press, 'shown-outcome': 'held' }, ben);
      expect(made.status).toBe(303);
      expect(made.headers.get('location')).toBe(
        `${list}&done=no-show&at=enquiry-${id}#enquiry-${id}`,
      );
    }
    expect((await store.findById(id))!.call!.outcome).toMatchObject({ kind: 'no-show', by: BEN });
    const audit = (await desk(list)).document.querySelector('.staff-audit')!.textContent!;
    expect(audit.split(`marked the call held ${ref}`)).toHaveLength(2);
    expect(audit.split(`Ben Okafor (${BEN}) marked the call a no-show ${ref}`)).toHaveLength(2);
    expect(audit).not.toContain(`unmarked the call ${ref}`);
  });

  it('say who moved a call and when: the colleague by name, then the prospect; on the card and on the call’s own steps', async () => {
    cookies.ben ??= await sessionOf(BEN);
    await add('Mona Moved', booking('Mona Moved', 98), 10 * hour, 'anna');
    const id = ids['Mona Moved']!;
    const list = '/staff?state=upcoming&q=mona';
    const change = (await desk(`${list}&call=${id}`, cookies.ben)).document.querySelector(
      'section[aria-labelledby="change-title"]',
    )!;
    // Never moved: nothing said of a mover.
    expect(change.querySelector('.staff-call-moved')).toBeNull();
    const sequence = change.querySelector('input[name="sequence"]')!.getAttribute('value')!;
    const slot = change.querySelector('input[name="slot"]')!.getAttribute('value')!;
    const before = Date.now();
    const moved = await post(
      `${server.url}${list}`,
      { id, sequence, slot, action: 'move' },
      { Cookie: cookies.ben },
    );
    expect(moved.headers.get('location')).toContain('done=moved');
    const movedAt = (await store.findById(id))!.call!.movedAt!;
    expect(Date.parse(movedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(movedAt)).toBeLessThanOrEqual(Date.now());
    const byBen = `Moved by Ben Okafor on ${deskTime(movedAt, LONDON)}`;
    const said = (element: Element | null | undefined) =>
      element?.textContent?.replace(/\s+/g, ' ').trim();
    // Anna's desk says it, in words: on the card, and on the call's move and cancel steps.
    const card = (await desk(list)).card('Mona Moved')!;
    expect(said(card.querySelector('.staff-call-moved'))).toBe(byBen);
    for (const step of ['', '&step=cancel'])
      expect(
        said((await desk(`${list}&call=${id}${step}`)).document.querySelector('.staff-call-moved')),
      ).toBe(byBen);

    // The prospect moves it again with their link: the last move is theirs.
    const start = new Date(Date.parse(slot) + 24 * hour).toISOString().replace('.000Z', 'Z');
    const again = await new Bookings(store).moveCall(
      id,
      { start, end: plus(start, 30), hosts: ['anna', 'ben'], maxMoves: 3 },
      false,
    );
    expect(again.status).toBe('moved');
    const prospectAt = (await store.findById(id))!.call!.movedAt!;
    expect(said((await desk(list)).card('Mona Moved')!.querySelector('.staff-call-moved'))).toBe(
      `Last moved by the prospect on ${deskTime(prospectAt, LONDON)}`,
    );
  });

  it('show a mover’s address it does not know as text, and keep it from being a formula in the CSV', async () => {
    await add('Hugo Hostile', booking('Hugo Hostile', 122), 10 * hour, 'ben');
    const id = ids['Hugo Hostile']!;
    const mover = `=HYPERLINK("x")${HOSTILE}@evil.example`;
    const start = new Date(Date.now() + 146 * hour).toISOString().replace(/\.\d+Z$/, 'Z');
    const change = { by: 'staff' as const };
    const moved = await new Bookings(store).moveCall(
      id,
      { start, end: plus(start, 30), hosts: ['ben'], maxMoves: 3, change, member: mover },
      false,
    );
    expect(moved.status).toBe('moved');
    const page = await desk('/staff?state=upcoming&q=hugo');
    const line = page.card('Hugo Hostile')!.querySelector('.staff-call-moved')!;
    expect(line.querySelector('script')).toBeNull();
    expect(line.querySelector('bdi')!.textContent).toBe(mover.replace('\u202e', ''));
    expect(page.html).not.toContain('\u202e');
    const csv = await (
      await post(`${server.url}/staff/enquiries.csv`, {}, { Cookie: cookies.anna! })
    ).text();
    const row = csv.split('\r\n').find((text) => text.startsWith(id))!;
    expect(row).toContain(`"'=HYPERLINK(""x"")`);
    expect(row).not.toMatch(/(^|,)"?=/);
  });

  it('say who took a mark off when a press comes after it: nothing changed, with who and when', async () => {
    cookies.ben ??= await sessionOf(BEN);
    await add('Una Unmarked', booking('Una Unmarked', -34), 40 * hour, 'anna');
    const id = ids['Una Unmarked']!;
    const list = '/staff?state=past';
    const [anna, ben] = [{ Cookie: cookies.anna! }, { Cookie: cookies.ben }];
    const press = (action: string, shown: string, as: Record<string, string>) =>
      post(`${server.url}${list}`, { id, 'shown-outcome': shown, action }, as);
    expect((await press('held', 'none', anna)).status).toBe(303);
    // Both pages show it held; Anna takes the mark off, then Ben presses No-show from his.
    expect((await press('unmark', 'held', anna)).status).toBe(303);
    const refused = await press('no-show', 'held', ben);
    expect(refused.status).toBe(409);
    const unmarked = (await store.findById(id))!.call!.unmarked!;
    expect(unmarked.by).toBe(ANNA);
    const done = new JSDOM(await refused.text()).window.document.querySelector('#done')!;
    expect(done.textContent?.trim()).toBe(
      `Anna Reid unmarked the call at ${deskTime(unmarked.at, LONDON)}, after your page showed it: nothing changed. Its card shows it unmarked now; press again there to mark it.`,
    );
    expect((await store.findById(id))!.call!.outcome).toBeUndefined();
  });
});
