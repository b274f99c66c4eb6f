/**
 * The page a booking lands on, with e-mail off (as `npm start` runs by default): its address and
 * the change and cancel links it shows are signed links, as the e-mails' are, so the call's id alone
 * opens none of them; an older address by the id shows the call's time and no link. Every answer
 * of the pages its links open tells of no e-mail, since none was sent.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { formatCallTime } from '../../src/domain/call-times';
import { signCallToken, type CallLinkPurpose } from '../../src/server/call-token';
import { Bookings } from '../../src/server/booking/calls';
import { SqliteStore } from '../../src/server/store/sqlite';
import { readStore, type RunningServer } from '../support/server';
import { call, plus } from '../support/records';
import { book, freeSlots, onWeekday } from './calls';
import { stoppedAfterEach } from './stopped-after-each';

const SECRET = 'test-secret-0123456789abcdef0123456789';
const servers = stoppedAfterEach({ BOOKING_SECRET: SECRET });

/** A signed link's token (server/call-token.ts): the id it names, its sequence, expiry and HMAC. */
const signed = (id: string) => new RegExp(`token=${id}\\.\\d+\\.\\d+\\.[\\w-]{43}(?![\\w-])`, 'g');

/** The page's text as read, its markup left out. */
const textOf = (html: string) => html.replace(/<[^>]*>/g, ' ');

const linkNamed = (html: string, name: string) =>
  new RegExp(`<a href="([^"]+)"[^>]*>${name}</a>`).exec(html)?.[1];

describe('the booked page, with e-mail off', () => {
  it('shows signed change and cancel links that work; the whole id opens none', async () => {
    const server = await servers.start();
    const { slots } = await freeSlots(server);
    const answer = await book(server, slots[2]!.start);
    expect(answer.status).toBe(200);
    const { id, location } = (await answer.json()) as { id: string; location: string };
    // The address is a signed link of its own purpose, not the id.
    expect(location).toMatch(/^\/schedule\/booked\?token=[\w.-]+$/);
    expect(location.replace(signed(id), '')).not.toContain(id);

    const response = await fetch(`${server.url}${location}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Your call is booked');
    // The id appears only as the call a signed link names, never as a key, nor in the page's text.
    expect(html.replace(signed(id), '')).not.toContain(id);
    expect(textOf(html)).not.toContain(id);
    const change = linkNamed(html, 'Change the time')!;
    const cancel = linkNamed(html, 'Cancel the call')!;
    expect(change).toMatch(/^\/schedule\/change\?token=/);
    expect(cancel).toMatch(/^\/schedule\/cancel\?token=/);

    // The links shown work: the change page offers times, the cancel link cancels.
    const changePage = await fetch(`${server.url}${change}`);
    expect(changePage.status).toBe(200);
    expect(await changePage.text()).toMatch(/name="slot" value="/);
    // With e-mail off, the cancel link's pages promise no e-mail.
    const asked = textOf(await (await fetch(`${server.url}${cancel}`)).text());
    expect(asked).toContain('Do you want to cancel this call?');
    expect(asked).toContain('we cannot e-mail you a cancellation');
    expect(asked).not.toContain('we will e-mail you');
    const cancelled = await fetch(`${server.url}/schedule/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ token: new URL(cancel, server.url).searchParams.get('token')! }),
      headers: { Origin: server.url },
    });
    expect(cancelled.status).toBe(200);
    const told = textOf(await cancelled.text());
    expect(told).toContain('Your call is cancelled');
    expect(told).toContain('We could not e-mail you a cancellation');
    expect(told).not.toContain('e-mailed you');
    const stored = (await readStore(server.database)).find((e) => e.id === id)?.call;
    expect(stored?.confirmedAt).not.toBeNull();
    expect(stored?.cancelledAt).not.toBeNull();

    // The booked page, opened again, says the call was cancelled and offers another time.
    const after = textOf(await (await fetch(`${server.url}${location}`)).text());
    expect(after).toContain('This call was cancelled');
    expect(after).toContain('Its time has been freed');
    expect(after).toContain('Book another time');
    expect(after).not.toContain('Keep these links');
  });

  it('by the id alone (the older address), shows the time and no link; a forged or old link, nothing', async () => {
    const server = await servers.start();
    const { slots } = await freeSlots(server);
    const answer = await book(server, slots[3]!.start);
    const { id } = (await answer.json()) as { id: string };

    const byId = await fetch(`${server.url}/schedule/booked?ref=${id}`);
    expect(byId.status).toBe(200);
    const html = await byId.text();
    expect(textOf(html)).toContain(
      'This older address of your booking shows the time of your call, not its links.',
    );
    expect(html).not.toMatch(/\/schedule\/(change|cancel|confirm)\?token=/);

    const page = (token: string) =>
      fetch(`${server.url}/schedule/booked?token=${encodeURIComponent(token)}`);
    const start = Date.parse(slots[3]!.start);
    const good = signCallToken('booked', id, 0, start, SECRET);
    const forged = `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [forged, signCallToken('change', id, 0, start, SECRET), id]) {
      const refused = await page(token);
      expect(refused.status).toBe(404);
      expect(await refused.text()).toContain('We could not find this booking');
    }
    const old = await page(signCallToken('booked', id, 0, Date.now() - 1000, SECRET));
    expect(old.status).toBe(410);
    expect(await old.text()).toContain('This page has expired');
  });
});

/** What the page says in its main part, markup left out (the footer has the agency's address). */
const mainText = (html: string) =>
  textOf(/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '').replace(/\s+/g, ' ');

/** The only e-mail a page may name with e-mail off: the one we say we cannot send. */
const namesNoMail = (text: string) =>
  !/e-?mail/i.test(text.replace(/\b(cannot|could not) e-mail you\b/g, ''));

/** A call stored straight into the server's store, at `start` (ISO), as e-mail on or off books it. */
async function storedCall(server: RunningServer, start: string, confirmed: boolean) {
  const store = new SqliteStore(server.database);
  try {
    const { id } = await new Bookings(store, { bookingCap: Infinity }).commit(
      call(start, { call: { start, end: plus(start, 30), hosts: ['anna'], confirmed } }),
      false,
    );
    return id;
  } finally {
    await store.close();
  }
}

/** Marks the call released unconfirmed, as the sweep does (with e-mail on, before it was off). */
async function lapse(server: RunningServer, id: string) {
  const store = new SqliteStore(server.database);
  try {
    await store.transaction((tx) => tx.cancelCall(id, { at: Date.now(), lapsed: true }));
  } finally {
    await store.close();
  }
}

const HOUR = 3_600_000;
/** An hour's start `hours` from now (negative: begun), as a call's start is written. */
const hourFromNow = (hours: number) =>
  new Date(Math.ceil(Date.now() / HOUR) * HOUR + hours * HOUR).toISOString().replace('.000Z', 'Z');

describe("the pages of a call's links, with e-mail off", () => {
  it('answer every case without naming an e-mail we never sent', async () => {
    const server = await servers.start();
    const { slots } = await freeSlots(server);
    const times = onWeekday(slots, 'Thursday');
    const { id } = (await (await book(server, times[0]!.start)).json()) as { id: string };
    const unconfirmed = await storedCall(server, times[6]!.start, false);
    const lapsed = await storedCall(server, times[7]!.start, false);
    await lapse(server, lapsed);
    // Begun a minute ago, its links signed until later (a call moved earlier keeps its old links').
    const begun = await storedCall(server, new Date(Date.now() - 60_000).toISOString(), true);
    const near = await storedCall(server, hourFromNow(2), true);

    const later = Date.now() + 30 * 24 * HOUR;
    const token = (purpose: CallLinkPurpose, call: string, sequence = 0, expires = later) =>
      signCallToken(purpose, call, sequence, expires, SECRET);
    const forged = (purpose: CallLinkPurpose) => `${token(purpose, id).slice(0, -2)}AB`;
    const said: [string, string][] = [];
    /** The page's answer: its words kept, and its title checked (the case is the one meant). */
    const answer = async (
      title: string,
      path: string,
      post?: Record<string, string>,
      origin = server.url,
    ) => {
      const response = await fetch(`${server.url}${path}`, {
        ...(post && {
          method: 'POST',
          body: new URLSearchParams(post),
          headers: { Origin: origin },
        }),
      });
      const text = mainText(await response.text());
      expect(text, path).toContain(title);
      said.push([`${title} (${path})`, text]);
    };
    const get = (purpose: CallLinkPurpose, title: string, value: string) =>
      answer(title, `/schedule/${purpose}?token=${encodeURIComponent(value)}`);
    const posted = (
      purpose: CallLinkPurpose,
      title: string,
      fields: Record<string, string>,
      origin?: string,
    ) => answer(title, `/schedule/${purpose}`, fields, origin);

    // The booked page, with a link cut short or out of date.
    await get('booked', 'We could not find this booking', forged('booked'));
    await get('booked', 'This page has expired', token('booked', id, 0, Date.now() - 1000));

    // Each link's refusals: not valid, unknown, expired, begun, released unconfirmed.
    for (const purpose of ['change', 'cancel', 'confirm'] as const) {
      await get(purpose, 'This link is not valid', forged(purpose));
      await get(purpose, 'This link is not valid', token(purpose, crypto.randomUUID()));
      await get(purpose, 'This link has expired', token(purpose, id, 0, Date.now() - 1000));
      await get(
        purpose,
        purpose === 'confirm' ? 'This time was released' : 'This call is no longer booked',
        token(purpose, lapsed),
      );
    }
    await get('cancel', 'This call has taken place', token('cancel', begun));
    await get('confirm', 'This call has taken place', token('confirm', begun));
    await get('change', 'too close to be moved here', token('change', near));

    // Confirming: asked, refused by the gate, confirmed, confirmed already.
    await get('confirm', 'Please confirm your call', token('confirm', unconfirmed));
    const confirmation = { token: token('confirm', unconfirmed) };
    await posted(
      'confirm',
      'Your call is not confirmed yet',
      confirmation,
      'https://elsewhere.example',
    );
    await posted('confirm', 'Your call is confirmed', confirmation);
    await get('confirm', 'This call is already confirmed', token('confirm', id));

    // Moving: the times, moved three times, the used link, the limit.
    await get('change', 'Choose a new time for your call', token('change', id));
    for (let move = 0; move < 3; move++)
      await posted('change', 'Your call is moved', {
        token: token('change', id, move),
        slot: times[move + 1]!.start,
      });
    await get('change', 'This link has been used', token('change', id));
    await get('change', 'This call has been moved three times', token('change', id, 3));

    // Cancelling: asked, cancelled, cancelled already; then what the other links say of it.
    await get('cancel', 'Do you want to cancel this call?', token('cancel', id));
    await posted('cancel', 'Your call is cancelled', { token: token('cancel', id) });
    await posted('cancel', 'This call was already cancelled', { token: token('cancel', id) });
    await get('change', 'This call was cancelled', token('change', id, 3));
    await get('confirm', 'This call was cancelled', token('confirm', id));

    expect(said.filter(([, text]) => !namesNoMail(text))).toEqual([]);
  });

  it('say a call the staff moved was moved by us, at its new time, as with e-mail on', async () => {
    const server = await servers.start();
    const times = onWeekday((await freeSlots(server)).slots, 'Thursday');
    const { id } = (await (await book(server, times[0]!.start)).json()) as { id: string };
    const link = `/schedule/change?token=${signCallToken('change', id, 0, Date.parse(times[0]!.start), SECRET)}`;
    // The staff's move, with e-mail off: no e-mail to the prospect says who moved it.
    const env = { ...process.env, ENQUIRY_DB: server.database, SMTP_URL: undefined };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['src/server/cli.ts', '--move', id, times[4]!.start],
      { env },
    );
    expect(stdout).toContain('e-mail is off: tell the prospect yourself');

    const old = await fetch(`${server.url}${link}`);
    expect(old.status).toBe(410);
    const html = await old.text();
    const text = mainText(html);
    expect(text).toContain('We have moved your call');
    expect(text).toContain('Our team moved your call to the time below');
    expect(text).toContain(formatCallTime(times[4]!.start, 'Europe/London'));
    expect(text).not.toContain(formatCallTime(times[0]!.start, 'Europe/London'));
    expect(text).not.toContain('This link has been used');
    expect(namesNoMail(text), text).toBe(true);
    expect(html).toContain('href="/contact"');
  });

  it('with booking unavailable, say what is true whether e-mail is on or off', async () => {
    // A BOOKING_SECRET too short turns booking off: the links cannot be checked.
    const server = await servers.start({ BOOKING_SECRET: 'short' });
    for (const purpose of ['change', 'cancel', 'confirm']) {
      const response = await fetch(`${server.url}/schedule/${purpose}?token=whatever`);
      expect(response.status).toBe(503);
      const html = await response.text();
      const text = mainText(html);
      expect(text).toMatch(/cannot be \w+ here right now/);
      expect(text).toContain('send us a message');
      expect(namesNoMail(text), text).toBe(true);
      expect(html).toContain('href="/contact"');
    }
  });
});
