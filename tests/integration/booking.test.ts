/**
 * Booking a call against the built server: the free times, one booking per time under concurrent
 * posts, refused times, the invitation and cancellation e-mails (through a real SMTP server on
 * loopback), the cancel and confirm links with good, reused, forged and expired tokens, the share
 * of calls waiting for confirmation, a call released when not confirmed in time, and the agency's
 * alert when bookings come in fast.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCallToken } from '../../src/server/call-token';
import { readAvailability } from '../../src/server/booking/availability-file';
import { offeredTimes } from '../../src/server/booking/free-times';
import { Bookings } from '../../src/server/booking/calls';
import { SqliteStore } from '../../src/server/store/sqlite';
import { postForm, readStore, startServer, type RunningServer } from '../support/server';
import { decoded } from '../support/mime';
import { calendarDate } from '../support/free-times';
import {
  book,
  booking,
  freeSlots,
  lasting,
  listedSlots,
  oneHostSlot,
  onWeekday,
  type Slot,
} from './calls';
import { stoppedAfterEach } from './stopped-after-each';

const SECRET = 'test-secret-0123456789abcdef0123456789';
const servers = stoppedAfterEach({ BOOKING_SECRET: SECRET });
const start = servers.start;

// One server for the tests that only read the free times and are refused: none books a call, so
// each sees the times a fresh server offers.
let reader: RunningServer;
beforeAll(async () => {
  reader = await startServer({ BOOKING_SECRET: SECRET });
});
afterAll(() => reader.stop());

const startWithMail = () => servers.startWithMail();

const HOUR = 3_600_000;

/** 'Tuesday 24 November 2026, 08:30': the date and time a mail names, in a zone. */
const formatted = (start: string, timeZone: string) =>
  `${new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full' }).format(new Date(start))}, ${new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(new Date(start))}`;

describe('free times', () => {
  it('answers the free slots as JSON, cacheable for a minute, within notice and days ahead', async () => {
    const server = reader;
    const response = await fetch(`${server.url}/schedule/slots.json`);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('content-type')).toContain('application/json');
    const {
      open,
      timeZone,
      callMinutes,
      slots: all,
    } = (await response.json()) as Awaited<ReturnType<typeof freeSlots>>;
    expect(open).toBe(true);
    expect(timeZone).toBe('Europe/London');
    expect(all.length).toBeGreaterThan(20);
    const now = Date.now();
    for (const slot of all) {
      expect(Date.parse(slot.start)).toBeGreaterThanOrEqual(now + 24 * HOUR - 60_000);
      expect(Date.parse(slot.start)).toBeLessThan(now + 23 * 24 * HOUR);
      expect(Date.parse(slot.end) - Date.parse(slot.start)).toBe(callMinutes * 60_000);
    }
    expect([...all].sort((a, b) => a.start.localeCompare(b.start))).toEqual(all);
    // Compared below with the answers of freeSlots as it hands them out: without the times about to
    // leave the notice period, which the next answer may no longer have.
    const slots = lasting(all);

    // A date range: only that day's times (the agency's calendar date).
    const dateOf = (slot: Slot) => calendarDate(slot.start, timeZone);
    const day = dateOf(slots[0]!);
    const oneDay = await freeSlots(server, `?from=${day}&to=${day}`);
    expect(oneDay.slots.length).toBeGreaterThan(0);
    expect(oneDay.slots.every((slot) => slots.some((s) => s.start === slot.start))).toBe(true);
    expect(oneDay.slots.every((s) => dateOf(s) === day)).toBe(true);
    expect((await fetch(`${server.url}/schedule/slots.json?from=tomorrow`)).status).toBe(400);

    // The dialog's first answer: the times of the first three days that have any, and no others.
    const dates = (list: Slot[]) => [...new Set(list.map(dateOf))];
    // The server's own lists, before and after it (a first day's last time may leave the notice period
    // meanwhile, and the list about to lose it is not cut: its three days are still the server's).
    const first = await listedSlots(server, '?days=3');
    const { slots: after } = await listedSlots(server);
    const firstDays = (list: Slot[]) => {
      const three = dates(list).slice(0, 3);
      return list.filter((s) => three.includes(dateOf(s)));
    };
    expect([firstDays(all), firstDays(after)]).toContainEqual(first.slots);
    for (const days of ['0', '61', '1.5', '-1', 'x', '03', '1e1', ''])
      expect((await fetch(`${server.url}/schedule/slots.json?days=${days}`)).status, days).toBe(
        400,
      );
  });

  it('without BOOKING_SECRET, books with a secret the store keeps (a fresh clone books calls)', async () => {
    const server = await start({ BOOKING_SECRET: '' });
    const answer = await freeSlots(server);
    expect(answer.open).toBe(true);
    expect(answer.slots.length).toBeGreaterThan(20);
    expect((await book(server, answer.slots[0]!.start)).status).toBe(200);
    expect(server.output()).not.toContain('Booking a time for a call is off');
  });

  it('with booking off (a BOOKING_SECRET too short), offers no times; a call request still works', async () => {
    const server = await start({ BOOKING_SECRET: 'too-short' });
    await expect
      .poll(() => server.output())
      .toContain('BOOKING_SECRET is shorter than 32 characters');
    const answer = await freeSlots(server);
    expect(answer.open).toBe(false);
    expect(answer.slots).toEqual([]);
    expect(answer.message).toContain('Booking a time is not available right now');
    const refused = await book(server, '2030-01-07T09:30:00Z');
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: { slot: string } }).errors.slot).toContain(
      'Booking a time is not available right now',
    );
    const { slot: _slot, ...message } = booking('');
    expect((await postForm(`${server.url}/send-mail.php`, message)).status).toBe(200);
  });
});

describe('booking', () => {
  it('of one time by ten prospects at once: one booking, nine answers with the nearest free times', async () => {
    const server = await start();
    // The server's own lists before and after the bookings: the nearest times offered are those of
    // one of them (a time may leave the notice period meanwhile). The time taken stays bookable.
    const { slots: before } = await listedSlots(server);
    const wanted = oneHostSlot(lasting(before), 1).start;
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => book(server, wanted, { email: `p${i}@example.com` })),
    );
    const { slots: after } = await listedSlots(server);
    const distance = (s: Slot) => Math.abs(Date.parse(s.start) - Date.parse(wanted));
    const byNumber = (a: number, b: number) => a - b;
    const nearestIn = (list: Slot[]) =>
      list
        .filter((s) => s.start !== wanted)
        .map(distance)
        .sort(byNumber)
        .slice(0, 3);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      const body = (await response.json()) as { errors: { slot: string }; alternatives: Slot[] };
      expect(body.errors.slot).toBe('That time was just taken. Here are the nearest free ones.');
      expect(body.alternatives).toHaveLength(3);
      expect(body.alternatives.map((s) => s.start)).not.toContain(wanted);
      // The three free times nearest to the one taken, in time order.
      expect([nearestIn(before), nearestIn(after)]).toContainEqual(
        body.alternatives.map(distance).sort(byNumber),
      );
      const times = body.alternatives.map((s) => Date.parse(s.start));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    }
    expect(after.map((s) => s.start)).not.toContain(wanted);

    const run = promisify(execFile);
    const env = { ...process.env, ENQUIRY_DB: server.database };
    const csv = (await run(process.execPath, ['src/server/cli.ts', '--csv'], { env })).stdout;
    expect(csv.split('\r\n').filter((line) => line.includes(wanted))).toHaveLength(1);
    const list = (await run(process.execPath, ['src/server/cli.ts'], { env })).stdout;
    expect(list).toMatch(/Booked call from Ada Lovelace <p\d@example\.com>\n {2}call: \w+day, /);
    // The host it went to (a Wednesday: Anna), in the listing and the CSV's call_host column.
    expect(list).toMatch(/call: [^\n]*, with Anna Reid \(anna\)\n/);
    const [header, row] = csv
      .split('\r\n')
      .filter((line) => line.startsWith('id,') || line.includes(wanted));
    const column = header!.split(',').indexOf('call_host');
    expect(column).toBeGreaterThan(0);
    expect(row!.split(',')[column]).toBe('anna');
  });

  it('the same submission posted again (same key) is one booking, answered as the first', async () => {
    const server = await start();
    const { slots } = await freeSlots(server);
    const fields = booking(slots[2]!.start);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => postForm(`${server.url}/send-mail.php`, fields)),
    );
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { id: string }[];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
  });

  it('refuses with 422 and a clear message a time in the past, inside the notice, off the grid, on a day without calls or too far ahead', async () => {
    const server = reader;
    const { slots } = await freeSlots(server);
    const refusal = async (slot: string) => {
      const response = await book(server, slot);
      expect(response.status).toBe(422);
      return ((await response.json()) as { errors: { slot: string } }).errors.slot;
    };
    const hourAgo = new Date(Date.now() - HOUR);
    hourAgo.setUTCMinutes(0, 0, 0);
    expect(await refusal(hourAgo.toISOString())).toBe('That time has already passed.');
    const inTwoHours = new Date(Date.now() + 2 * HOUR).toISOString();
    expect(await refusal(inTwoHours)).toBe(
      "Calls need at least 24 hours' notice: choose a later time.",
    );
    const offGrid = new Date(Date.parse(slots[0]!.start) + 7 * 60_000).toISOString();
    expect(await refusal(offGrid)).toContain('outside our opening hours');
    // A Saturday a week or more ahead: the agency takes no calls on Saturdays.
    const saturday = new Date(Date.now() + 7 * 24 * HOUR);
    while (saturday.getUTCDay() !== 6) saturday.setUTCDate(saturday.getUTCDate() + 1);
    saturday.setUTCHours(11, 0, 0, 0);
    expect(await refusal(saturday.toISOString())).toBe(
      'We have no calls that day: choose another day.',
    );
    const farAhead = new Date(Date.parse(slots.at(-1)!.start) + 30 * 24 * HOUR).toISOString();
    expect(await refusal(farAhead)).toContain('up to 21 days ahead');
    expect(await refusal('next tuesday')).toBe('Choose one of the times offered.');
  });

  it('/schedule lists a few days of free times, and links to the days after them and back', async () => {
    const server = reader;
    // The page lists what slots.json lists, read just before or just after it (a time may leave the
    // notice period in between).
    const { slots: before } = await listedSlots(server);
    const html = await (await fetch(`${server.url}/schedule`)).text();
    const { slots, timeZone } = await listedSlots(server);
    const listed = [...html.matchAll(/name="slot" value="([^"]+)"/g)].map((m) => m[1]!);
    const prefix = (list: Slot[]) => list.slice(0, listed.length).map((s) => s.start);
    expect([prefix(before), prefix(slots)]).toContainEqual(listed);
    const later = /href="\/schedule\?from=(\d{4}-\d{2}-\d{2})"/.exec(html)![1]!;
    const day = (start: string) => calendarDate(start, timeZone);
    expect(later > day(listed.at(-1)!)).toBe(true);
    const next = await (await fetch(`${server.url}/schedule?from=${later}`)).text();
    const first = /name="slot" value="([^"]+)"/.exec(next)![1]!;
    expect(first).toBe(slots.find((s) => day(s.start) >= later)!.start);
    // The later page links back to the days of the first one.
    expect(html).not.toContain('>Earlier days<');
    const earlier = /href="\/schedule\?from=(\d{4}-\d{2}-\d{2})">Earlier days</.exec(next)![1]!;
    expect(earlier).toBe(day(listed[0]!));
  });

  it('/schedule posts natively: 303 to the confirmation, or the form again when no time is chosen', async () => {
    const server = await start();
    const { slots } = await freeSlots(server);
    const native = { Accept: 'text/html' };
    const booked = await postForm(`${server.url}/schedule`, booking(slots[1]!.start), native);
    expect(booked.status).toBe(303);
    const location = booked.headers.get('location')!;
    expect(location).toMatch(/^\/schedule\/booked\?token=[0-9a-f-]{36}\.\d+\.\d+\.[\w-]{43}$/);
    const page = await (await fetch(`${server.url}${location}`)).text();
    expect(page).toContain('Your call is booked');
    const unknown = await fetch(`${server.url}/schedule/booked?ref=${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('We could not find this booking');
    const { slot: _slot, ...noTime } = booking('');
    const again = await postForm(`${server.url}/schedule`, noTime, native);
    expect(again.status).toBe(422);
    const html = await again.text();
    expect(html).toContain('Choose a time for the call.');
    // What was typed is kept.
    expect(html).toContain('value="Ada Lovelace"');
  });
});

describe('hosts', () => {
  it('a time two hosts take is booked by two prospects, one host each, and then no longer offered', async () => {
    const server = await start();
    const { slots } = await freeSlots(server);
    // A Monday morning: Anna and Ben both take calls then.
    const monday = onWeekday(slots, 'Monday')[0]!;
    expect((await book(server, monday.start, { email: 'p1@example.com' })).status).toBe(200);
    expect((await freeSlots(server)).slots.map((s) => s.start)).toContain(monday.start);
    expect((await book(server, monday.start, { email: 'p2@example.com' })).status).toBe(200);
    expect((await freeSlots(server)).slots.map((s) => s.start)).not.toContain(monday.start);
    expect((await book(server, monday.start, { email: 'p3@example.com' })).status).toBe(409);
    const calls = (await readStore(server.database)).filter((e) => e.call);
    // The fewest calls first, then the file's order: Anna, then Ben.
    expect(calls.map((e) => [e.email, e.call!.host])).toEqual([
      ['p1@example.com', 'anna'],
      ['p2@example.com', 'ben'],
    ]);
  });
});

describe('invitation and cancellation', () => {
  it('mails the prospect (their time, an .ics, a cancel link) and the agency; the link cancels once', async () => {
    const { server, mails } = await startWithMail();
    const { slots } = await freeSlots(server);
    // Early in the window, so that the day is between neither zone's clock change and the next; a
    // time one host takes, so that booking it takes it.
    const slot = oneHostSlot(slots);
    const response = await book(server, slot.start, {
      time_zone: 'America/New_York',
      locale: 'en-US',
    });
    expect(response.status).toBe(200);
    await expect.poll(() => mails.length).toBe(3);

    const prospect = mails.find((m) => m.to.includes('ada@example.com'))!;
    const agency = mails.find((m) => m.to.includes('sales@agency.example'))!;
    // Wednesday: Anna's (src/content/data/availability.yaml), who gets her invitation.
    const host = mails.find((m) => m.to.includes('anna@northgate-digital.example'))!;
    expect(decoded(host.raw)).toMatch(/Subject: Your call with Ada Lovelace:/);
    expect(decoded(host.raw)).toContain('An iPad app for our clinics.');
    const prospectText = decoded(prospect.raw);
    // Their zone by its name, on their browser's 12-hour clock; ours on our 24-hour one.
    const inNewYork = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: 'numeric',
      minute: '2-digit',
    })
      .format(new Date(slot.start))
      .replace('\u202f', ' ');
    expect(prospectText).toMatch(
      new RegExp(`When: \\w+day, \\w+ \\d+, \\d{4}, ${inNewYork} Eastern Time`),
    );
    expect(prospectText).toContain(`(Our time: `);
    expect(prospectText).not.toContain('GMT-');
    expect(decoded(agency.raw)).toContain(
      `When: ${formatted(slot.start, 'Europe/London')} UK time`,
    );
    // The calendar part is sent as it is (7bit): read undecoded.
    for (const { raw: text } of [prospect, agency, host]) {
      expect(text).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
      expect(text).toContain('METHOD:REQUEST');
      expect(text).toContain(`DTSTART:${slot.start.replace(/[-:]/g, '').replace('Z', '')}Z`);
      expect(text).toContain(`DTEND:${slot.end.replace(/[-:]/g, '').replace('Z', '')}Z`);
      expect(text).toMatch(/ATTENDEE;[^\n]*\n?[^\n]*mailto:ada@example\.com/i);
      // Unfolded: a long line goes on after CRLF and a space.
      expect(text.replace(/\r\n /g, '')).toMatch(
        /ATTENDEE;CN=[^:\r\n]*Anna Reid[^:\r\n]*:mailto:anna@northgate-digital\.example/i,
      );
      expect(text).toContain('STATUS:CONFIRMED');
    }
    expect(decoded(agency.raw)).toMatch(/Subject: Call booked: Ada Lovelace/);
    const link = /http:\/\/127\.0\.0\.1:\d+\/schedule\/cancel\?token=([\w.-]+)/.exec(prospectText);
    expect(link).not.toBeNull();
    const uid = /UID:(\S+)/.exec(prospect.raw)![1];

    // Opening the link (as a mail scanner would) cancels nothing: it asks.
    const confirm = await fetch(link![0]);
    expect(confirm.status).toBe(200);
    const asked = await confirm.text();
    expect(asked).toContain('Do you want to cancel this call?');
    expect(asked).toContain('we will e-mail you a cancellation');
    expect((await freeSlots(server)).slots.map((s) => s.start)).not.toContain(slot.start);

    const cancel = () =>
      fetch(`${server.url}/schedule/cancel`, {
        method: 'POST',
        body: new URLSearchParams({ token: link![1]! }),
        headers: { Origin: server.url },
      });
    const cancelled = await cancel();
    expect(cancelled.status).toBe(200);
    const told = await cancelled.text();
    expect(told).toContain('Your call is cancelled');
    expect(told).toContain('e-mailed you a cancellation');
    await expect.poll(() => mails.length).toBe(6);
    for (const { raw: text } of mails.slice(3)) {
      expect(text).toContain('METHOD:CANCEL');
      expect(text).toContain('STATUS:CANCELLED');
      expect(text).toContain('SEQUENCE:1');
      expect(text).toContain(`UID:${uid}`);
    }
    expect(
      mails
        .slice(3)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(['ada@example.com', 'anna@northgate-digital.example', 'sales@agency.example']);
    // The time is free again.
    expect((await freeSlots(server)).slots.map((s) => s.start)).toContain(slot.start);

    // The same link again: it says so, and nothing more is sent.
    const reused = await cancel();
    expect(reused.status).toBe(200);
    expect(await reused.text()).toContain('This call was already cancelled');
    // A link cut short on its way: with e-mail on, its e-mail is where to open it again.
    const cut = link![1]!.slice(0, -2) + (link![1]!.endsWith('AA') ? 'BB' : 'AA');
    const cutPage = await fetch(`${server.url}/schedule/cancel?token=${cut}`);
    expect(await cutPage.text()).toContain('Open it again from the invitation e-mail');
    // Its change and confirm links say the same refusal in their own words.
    for (const purpose of ['change', 'confirm']) {
      const other = new RegExp(`http://127\\.0\\.0\\.1:\\d+/schedule/${purpose}\\?token=[\\w.-]+`);
      const page = await fetch(other.exec(prospectText)![0]);
      expect(page.status, purpose).toBe(200);
      expect(await page.text(), purpose).toContain('This call was cancelled');
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(mails).toHaveLength(6);
  });

  it('a forged or expired link gets a clear page and never touches a booking', async () => {
    const server = await start();
    const { slots } = await freeSlots(server);
    const taken = oneHostSlot(slots, 3);
    const response = await book(server, taken.start);
    const { id } = (await response.json()) as { id: string };
    const good = signCallToken('cancel', id, 0, Date.parse(taken.start), SECRET);
    const post = (token: string) =>
      fetch(`${server.url}/schedule/cancel`, {
        method: 'POST',
        body: new URLSearchParams({ token }),
        headers: { Origin: server.url },
      });

    const forgedSignature = good.slice(0, -2) + (good.endsWith('AA') ? 'BB' : 'AA');
    const otherSecret = signCallToken('cancel', id, 0, Date.parse(taken.start), 'x'.repeat(40));
    const laterExpiry = good.replace(
      /\.(\d+)\.([^.]+)$/,
      (_, s: string, sig: string) => `.${Number(s) + 3600}.${sig}`,
    );
    for (const token of [forgedSignature, otherSecret, laterExpiry, 'nonsense', '']) {
      const answer = await post(token);
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('This link is not valid');
    }
    const expired = await post(signCallToken('cancel', id, 0, Date.now() - 1000, SECRET));
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired');
    // Still booked.
    expect((await freeSlots(server)).slots.map((s) => s.start)).not.toContain(taken.start);
    // With e-mail off no link could reach the prospect: the call stands confirmed from the start.
    const confirm = signCallToken('confirm', id, 0, Date.parse(taken.start), SECRET);
    const confirmed = await fetch(`${server.url}/schedule/confirm?token=${confirm}`);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('This call is already confirmed');
  });
});

describe('confirming a call, and the share of calls waiting for it', () => {
  it('asks on GET, confirms on POST once; past the share an unconfirmed booking is refused and its time stays free; the agency hears of the pace', async () => {
    // A share of the window's times that is one call (1.5 of them, floored), however the clock
    // moves the window's edge during the test.
    const times = offeredTimes(readAvailability(), Date.now());
    const { server, mails } = await servers.startWithMail({
      BOOKING_CAP: '6',
      BOOKING_UNCONFIRMED_SHARE: String(1.5 / times),
      BOOKING_ALERT_PER_HOUR: '1',
    });
    const { slots } = await freeSlots(server);
    const [first, second] = [oneHostSlot(slots, 0), oneHostSlot(slots, 1)];
    const firstFields = booking(first.start, { email: 'p1@example.com' });
    const booked = await postForm(`${server.url}/send-mail.php`, firstFields);
    expect(booked.status).toBe(200);
    const { id } = (await booked.json()) as { id: string };

    // One call waits for confirmation: another is refused at the time field, and its time stays free.
    const refused = await book(server, second.start, { email: 'p2@example.com' });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: { slot: string } }).errors.slot).toContain(
      'Many of our times are waiting to be confirmed just now',
    );
    expect((await freeSlots(server)).slots.map((s) => s.start)).toContain(second.start);
    // The same submission again is answered as it was, not refused.
    const again = await postForm(`${server.url}/send-mail.php`, firstFields);
    expect(((await again.json()) as { id: string }).id).toBe(id);

    // The prospect's confirmation asks them to confirm, with its link.
    await expect.poll(() => mails.length).toBe(3);
    const text = decoded(mails.find((m) => m.to.includes('p1@example.com'))!.raw);
    expect(text).toContain('it tells us that the time suits you');
    // How long it has (BOOKING_CONFIRM_MINUTES: 120 by default), and until when in its zone.
    expect(text).toMatch(/within 2 hours of this e-mail, by \w+day, .+ UK time:/);
    const link = /http:\/\/127\.0\.0\.1:\d+\/schedule\/confirm\?token=([\w.-]+)/.exec(text)!;
    const token = link[1]!;
    const post = (path: string, value: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        body: new URLSearchParams({ token: value }),
        headers: { Origin: server.url },
      });

    // Opening the link (as a mail scanner would) confirms nothing: it asks.
    const asked = await fetch(link[0]);
    expect(asked.status).toBe(200);
    const page = await asked.text();
    expect(page).toContain('Please confirm your call');
    expect(page).toContain('Confirm the call</button>');
    // Nor does another purpose's link, nor a forged, hostile or expired one.
    const cancelToken = signCallToken('cancel', id, 0, Date.parse(first.start), SECRET);
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    for (const bad of [
      cancelToken,
      forged,
      `${token}\u0000`,
      `${token}\r\nX: y`,
      token.repeat(300),
    ]) {
      const answer = await post('/schedule/confirm', bad);
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('This link is not valid');
    }
    const expired = await post(
      '/schedule/confirm',
      signCallToken('confirm', id, 0, Date.now() - 1000, SECRET),
    );
    expect(expired.status).toBe(410);
    const expiredPage = await expired.text();
    expect(expiredPage).toContain('This link has expired');
    // E-mail is on: the pages' words may send the prospect to our e-mails.
    expect(expiredPage).toContain('reply to the invitation e-mail');
    // A confirm link neither cancels nor changes.
    expect((await post('/schedule/cancel', token)).status).toBe(400);
    expect((await post('/schedule/change', token)).status).toBe(400);
    expect((await readStore(server.database)).find((e) => e.id === id)?.call).toMatchObject({
      cancelledAt: null,
      confirmedAt: null,
    });

    const confirmed = await post('/schedule/confirm', token);
    expect(confirmed.status).toBe(200);
    const confirmedPage = await confirmed.text();
    expect(confirmedPage).toContain('Your call is confirmed');
    expect(confirmedPage).toContain('The invitation in your e-mail has the details');
    const reused = await post('/schedule/confirm', token);
    expect(reused.status).toBe(200);
    expect(await reused.text()).toContain('This call is already confirmed');
    // A cross-site post is the gate's refusal, said on the page.
    const crossSite = await fetch(`${server.url}/schedule/confirm`, {
      method: 'POST',
      body: new URLSearchParams({ token }),
      headers: { Origin: 'https://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain('Your call is not confirmed yet');

    // Confirmed, it no longer waits: the second time books. Two calls in the hour is more than
    // BOOKING_ALERT_PER_HOUR: the agency is told, once, through the SMTP server.
    const secondBooked = await book(server, second.start, { email: 'p2@example.com' });
    expect(secondBooked.status).toBe(200);
    const { id: secondId } = (await secondBooked.json()) as { id: string };
    await expect
      .poll(() => mails.filter((m) => decoded(m.raw).includes('Bookings are coming in fast')))
      .toHaveLength(1);
    const alert = mails.find((m) => decoded(m.raw).includes('Bookings are coming in fast'))!;
    expect(alert.to).toEqual(['sales@agency.example']);
    expect(decoded(alert.raw)).toContain('npm run enquiries -- --cancel REF');
    expect(server.output()).toMatch(/Bookings are coming in fast: 2 calls booked in the last hour/);
    expect(server.output()).not.toContain('p2@example.com');

    // The staff see which calls are confirmed.
    const run = promisify(execFile);
    const env = { ...process.env, ENQUIRY_DB: server.database };
    const list = (await run(process.execPath, ['src/server/cli.ts'], { env })).stdout;
    expect(list).toMatch(/<p1@example\.com>\n {2}call: [^\n]*, confirmed, with Anna Reid \(anna\)/);
    expect(list).toMatch(
      /<p2@example\.com>\n {2}call: [^\n]*, not confirmed yet, with Anna Reid \(anna\)/,
    );

    // The second, not confirmed in time (swept here with no time allowed, on the real clock, so
    // that its e-mails are due for the server's queue of jobs now, once its confirm link has gone:
    // the time runs from then): its time is offered again, its prospect told once, and its links
    // say so.
    const sweeper = new SqliteStore(server.database);
    try {
      const bookings = new Bookings(sweeper);
      await expect.poll(() => bookings.lapseUnconfirmed(0, true, Date.now())).toBe(1);
    } finally {
      await sweeper.close();
    }
    const told = () =>
      mails.filter(
        (m) =>
          m.to.includes('p2@example.com') &&
          decoded(m.raw).includes('have released its time for others'),
      );
    await expect.poll(() => told().length).toBe(1);
    expect(decoded(told()[0]!.raw)).toMatch(/http:\/\/127\.0\.0\.1:\d+\/schedule\r?\n/);
    expect((await freeSlots(server)).slots.map((s) => s.start)).toContain(second.start);
    const open = (purpose: 'confirm' | 'cancel') =>
      fetch(
        `${server.url}/schedule/${purpose}?token=${signCallToken(purpose, secondId, 0, Date.parse(second.start), SECRET)}`,
      );
    const released = await open('confirm');
    expect(released.status).toBe(200);
    const releasedPage = await released.text();
    expect(releasedPage).toContain('This time was released');
    expect(releasedPage).toContain('e-mailed you to say so');
    expect(releasedPage).toContain('href="/schedule"');
    expect(await (await open('cancel')).text()).toContain('This call is no longer booked');
  });
});
