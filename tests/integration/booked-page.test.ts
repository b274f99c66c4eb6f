/**
 * The page a booking lands on, with e-mail off (as `npm start` runs by default): its address and
 * the change and cancel links it shows are signed links, as the e-mails' are, so the call's id alone
 * opens none of them; an older address by the id shows the call's time and no link.
 */
import { describe, expect, it } from 'vitest';
import { signCallToken } from '../../src/server/call-token';
import { readStore } from '../support/server';
import { book, freeSlots } from './calls';
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
    const call = (await readStore(server.database)).find((e) => e.id === id)?.call;
    expect(call?.confirmedAt).not.toBeNull();
    expect(call?.cancelledAt).not.toBeNull();
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
