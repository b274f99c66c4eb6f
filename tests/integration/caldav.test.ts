/**
 * The calls written into the hosts' own calendars over CalDAV, against a real Radicale (Debian's
 * `radicale`, started here on loopback with a user per host; skipped, saying so, where it is
 * missing): each change checked in the calendar Radicale stores; Radicale down during a booking,
 * then back: the event arrives once; two processes write once; the host's own edit kept; the
 * written event not read back as busy; the calendar's password in no log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { busyTimes, parseCalendar } from '../../src/server/calendars/busy-times';
import { caldav, type CalDav } from '../../src/server/calendars/caldav';
import { calendarWriteHandler } from '../../src/server/calendars/caldav-job';
import { reportCalendar } from '../../src/server/calendars/caldav-read';
import { readConfig } from '../../src/server/config';
import { jobHandler, JobQueue } from '../../src/server/jobs/queue';
import {
  callUidSuffix,
  descriptionOf,
  hostCalendarEvent,
  withDescription,
} from '../../src/server/mail/host-event';
import type { MailSetup } from '../../src/server/mail/mail-item';
import { CALENDAR_WRITE_JOB } from '../../src/server/store/calendar-writes';
import { SqliteStore } from '../../src/server/store/sqlite';
import type { EnquiryStore } from '../../src/server/store/types';
import { hasRadicale, propertiesOf, startRadicale } from '../support/caldav';
import { ahead, call, plus, wallTime } from '../support/records';
import { book, freeSlots } from './calls';
import { stoppedAfterEach } from './stopped-after-each';
import { post, signIn } from './staff-sign-in';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PASSWORD = 'pw-Zq8-secret';
const setup: MailSetup = {
  from: 'site@agency.example',
  to: 'hello@agency.example',
  content: {
    brand: 'Agency',
    email: 'hello@agency.example',
    location: 'Room 4, 1 High Street',
    hosts: [{ id: 'anna', name: 'Anna', email: 'anna@agency.example', timeZone: 'Europe/London' }],
  },
  booking: {
    secret: 'booking-secret-0123456789abcdef0123',
    siteUrl: 'https://agency.example',
    confirmMs: 7_200_000,
  },
};
/** A Monday at 10:00 UTC, still to come whenever the suite runs. */
const START = ahead('2027-02-01T10:00:00Z');
/** A time as the event's DTSTART gives it: the wall clock of Anna's zone. */
const wall = (iso: string) => wallTime(iso, 'Europe/London');
/** A UTC time in iCalendar's form. */
const utc = (iso: string) => iso.replace(/[-:]/g, '');
const HOUR = 3_600_000;
/**
 * How far the queue's clock is set ahead of the real one: a call's job is due from the real time of
 * its booking, and its queue runs what is due by that clock. At 1 s, a store opened on a loaded
 * machine (its migrations) took longer than that before the booking, and the first run found nothing
 * due yet (a fresh `npm test`, 2026-11-29).
 */
const AHEAD_MS = 60_000;

if (!hasRadicale())
  console.log('caldav.test.ts skipped: `radicale` is not installed (apt-get install radicale).');

describe.skipIf(!hasRadicale())('calls written into a Radicale calendar', () => {
  let radicale: Awaited<ReturnType<typeof startRadicale>>;
  let url: string;
  let dir: string;
  const stores: EnquiryStore[] = [];
  beforeAll(async () => {
    radicale = await startRadicale({ anna: PASSWORD });
    url = await radicale.calendar('anna', 'calls');
    dir = mkdtempSync(join(tmpdir(), 'caldav-store-'));
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await radicale.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A store connection and a process over it: its bookings, its queue of writes, its log. */
  const processOf = async (name: string, clock: { now: number }, writes: string[] = []) => {
    const store = new SqliteStore(join(dir, name));
    stores.push(store);
    const logged: string[] = [];
    const counted: CalDav = (request) => {
      if (request.method !== 'GET') writes.push(request.method);
      return caldav(request);
    };
    const handler = calendarWriteHandler({
      config: readConfig({ CALENDAR_WRITE: `anna=${url}` }).calendarWrite,
      writes: store.calendarWrites,
      events: {
        eventOf: (enquiry) => hostCalendarEvent(enquiry, setup),
        descriptionOf,
        withDescription,
      },
      timeoutMs: 2000,
      caldav: counted,
      now: () => clock.now,
    });
    const queue = new JobQueue({
      store,
      handlers: new Map([jobHandler(CALENDAR_WRITE_JOB, handler)]),
      kinds: { only: CALENDAR_WRITE_JOB },
      pollMs: 60_000,
      now: () => clock.now,
      log: (line) => logged.push(line),
      info: (line) => logged.push(line),
    });
    return { store, bookings: new Bookings(store, { writeCalendars: true }), queue, logged };
  };

  const servers = stoppedAfterEach({
    BOOKING_SECRET: 'test-secret-0123456789abcdef0123456789',
    STAFF_SECRET: 'staff-test-secret-0123456789abcdef0123',
  });

  const booking = (start: string) =>
    call(start, { call: { start, end: plus(start, 30), hosts: ['anna'] } });
  const stored = () => radicale.stored('anna', 'calls').map(propertiesOf);

  it('books, moves twice, confirms and cancels, each in the stored calendar', async () => {
    const clock = { now: Date.now() + AHEAD_MS };
    const { bookings, queue, logged } = await processOf('walk.sqlite', clock);
    const booked = await bookings.commit(booking(START), false);
    await queue.drain();
    expect(stored()).toHaveLength(1);
    const [event] = stored();
    expect(event!.get('UID')).toBe(`${booked.id}@calls.agency.example`);
    expect(event!.get('DTSTART')).toBe(wall(START));
    expect(event!.get('STATUS')).toBe('TENTATIVE');
    expect(event!.get('SEQUENCE')).toBe('0');
    expect(event!.get('LOCATION')).toBe('Room 4\\, 1 High Street');
    // The host's invitation's words: whom it is with, their message, where, and the desk's page.
    expect(event!.get('SUMMARY')).toBe('Call with Ada Lovelace');
    expect(event!.get('DESCRIPTION')).toBe(
      `About an app.\\n\\nWhere: Room 4\\, 1 High Street\\n\\nMove or cancel the call on the desk: https://agency.example/staff?call=${booked.id}`,
    );
    for (const [minutes, sequence] of [
      [60, '1'],
      [90, '2'],
    ] as const) {
      const move = { start: plus(START, minutes), end: plus(START, minutes + 30) };
      await bookings.moveCall(booked.id, { ...move, hosts: ['anna'], maxMoves: 5 }, false);
      clock.now = Date.now() + AHEAD_MS;
      await queue.drain();
      expect(stored()).toHaveLength(1);
      expect(stored()[0]!.get('DTSTART')).toBe(wall(move.start));
      expect(stored()[0]!.get('SEQUENCE')).toBe(sequence);
    }
    await bookings.confirmCall(booked.id);
    clock.now = Date.now() + AHEAD_MS;
    await queue.drain();
    expect(stored()[0]!.get('STATUS')).toBe('CONFIRMED');
    await bookings.cancelCall(booked.id, { queueMail: false });
    clock.now = Date.now() + AHEAD_MS;
    await queue.drain();
    expect(stored()).toHaveLength(0);
    expect(logged.join('\n')).not.toContain(PASSWORD);
  });

  it('writes a booking made while Radicale is down once it is back, once', async () => {
    const clock = { now: Date.now() + AHEAD_MS };
    const writes: string[] = [];
    const { bookings, queue, logged, store } = await processOf('down.sqlite', clock, writes);
    await radicale.stop();
    const booked = await bookings.commit(booking(plus(START, 24 * 60)), false);
    await queue.drain();
    expect((await store.calendarWrites.states([booked.id])).get(booked.id)).toMatchObject({
      state: 'waiting',
    });
    await radicale.start();
    clock.now += HOUR;
    await queue.drain();
    clock.now += HOUR;
    await queue.drain();
    const events = stored().filter((event) => event.get('UID')!.startsWith(booked.id));
    expect(events).toHaveLength(1);
    expect(writes).toEqual(['PUT', 'PUT']);
    expect(logged.some((line) => /not written yet/.test(line))).toBe(true);
    expect(logged.join('\n')).not.toContain(PASSWORD);
  });

  it('writes once with two processes on one store', async () => {
    const clock = { now: Date.now() + AHEAD_MS };
    const writes: string[] = [];
    const first = await processOf('two.sqlite', clock, writes);
    const second = await processOf('two.sqlite', clock, writes);
    const booked = await first.bookings.commit(booking(plus(START, 48 * 60)), false);
    await Promise.all([first.queue.drain(), second.queue.drain()]);
    expect(writes).toEqual(['PUT']);
    expect(stored().filter((event) => event.get('UID')!.startsWith(booked.id))).toHaveLength(1);
  });

  it("keeps the host's own edit of the description, and is not read back as busy", async () => {
    const clock = { now: Date.now() + AHEAD_MS };
    const { bookings, queue } = await processOf('edit.sqlite', clock);
    const start = plus(START, 72 * 60);
    const booked = await bookings.commit(booking(start), false);
    await queue.drain();
    // The host edits the event in their calendar app (a new ETag on the server).
    const eventUrl = new URL(`${booked.id}.ics`, url);
    const auth = { Authorization: `Basic ${Buffer.from(`anna:${PASSWORD}`).toString('base64')}` };
    const origin = radicale.origin + eventUrl.pathname;
    const text = await (await fetch(origin, { headers: auth })).text();
    const edited = text.replace(
      /DESCRIPTION:[^\r]*(\r\n [^\r]*)*/,
      'DESCRIPTION:Ask about the budget',
    );
    expect(edited).toContain('Ask about the budget');
    const put = await fetch(origin, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'text/calendar' },
      body: edited,
    });
    expect(put.ok).toBe(true);
    const moved = { start: plus(start, 60), end: plus(start, 90) };
    await bookings.moveCall(booked.id, { ...moved, hosts: ['anna'], maxMoves: 5 }, false);
    clock.now = Date.now() + AHEAD_MS;
    await queue.drain();
    const event = stored().find((one) => one.get('UID')!.startsWith(booked.id))!;
    expect(event.get('DESCRIPTION')).toBe('Ask about the budget');
    expect(event.get('DTSTART')).toBe(wall(moved.start));

    // Read back as a feed: the site's own events are not busy; the host's own are.
    const lunch = { start: plus(start, 180), end: plus(start, 240) };
    await fetch(`${radicale.origin}/anna/calls/lunch.ics`, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'text/calendar' },
      body: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\nBEGIN:VEVENT\r\nUID:lunch-1\r\nDTSTAMP:${utc(START)}\r\nDTSTART:${utc(lunch.start)}\r\nDTEND:${utc(lunch.end)}\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
    });
    const feed = parseCalendar(await radicale.feed('anna', 'calls'));
    const window = {
      timeZone: 'Europe/London',
      from: Date.parse(start) - 10 * HOUR,
      to: Date.parse(start) + 14 * HOUR,
    };
    const busy = busyTimes(feed, { ...window, ownUidSuffix: callUidSuffix(setup.content) }).busy;
    expect(busy).toEqual([{ start: Date.parse(lunch.start), end: Date.parse(lunch.end) }]);
    expect(busyTimes(feed, window).busy).toHaveLength(2);
    // Read through CalDAV itself (HOST=caldav in CALENDAR_FEEDS): a REPORT of the days offered.
    const reported = await reportCalendar(
      new URL(url),
      { timeoutMs: 2000, maxBytes: 1e6 },
      Date.parse(START) - 10 * HOUR,
    );
    expect(reported.status).toBe('modified');
    const read = parseCalendar((reported as { body: string }).body);
    expect(busyTimes(read, { ...window, ownUidSuffix: callUidSuffix(setup.content) }).busy).toEqual(
      busy,
    );
    expect(busyTimes(read, window).busy).toHaveLength(2);
  });

  it('writes a prospect’s booking through the server within seconds; the desk shows a write waiting, and why, with Write again', async () => {
    const ben = await radicale.calendar('anna', 'ben-calls');
    const { server, mails } = await servers.startWithMail({
      // A third entry refused (http to a host not on loopback): said, without its password.
      CALENDAR_WRITE: `anna=${url} ben=${ben} carl=http://carl:pw-Carl-9@calendar.example/carl/`,
    });
    const [first, , third] = (await freeSlots(server)).slots;
    const booked = await book(server, first!.start, { name: 'Zelda Prospect' });
    const { id } = (await booked.json()) as { id: string };
    const mine = () =>
      [...stored(), ...radicale.stored('anna', 'ben-calls').map(propertiesOf)].filter((event) =>
        event.get('UID')!.startsWith(id),
      );
    await expect.poll(() => mine().length).toBe(1);
    expect(mine()[0]!.get('STATUS')).toBe('TENTATIVE');

    await radicale.stop();
    try {
      const waiting = await book(server, third!.start, { name: 'Yusuf Prospect' });
      const { id: ref } = (await waiting.json()) as { id: string };
      // The log names the call by its reference (its id's first 8 characters), as the desk does.
      await expect
        .poll(() => server.output())
        .toContain(`call ${ref.slice(0, 8)} is not written yet`);
      const { cookie } = await signIn(server, mails, 'anna@northgate-digital.example');
      const desk = await (
        await fetch(`${server.url}/staff`, { headers: { Cookie: cookie } })
      ).text();
      expect(desk).toContain('In the host&#39;s calendar.');
      expect(desk).toMatch(
        /Waiting to be written into the host&#39;s calendar \(the calendar: it could not be reached \(ECONNREFUSED\)\)/,
      );
      const again = await post(
        `${server.url}/staff`,
        { id: ref, action: 'write-again' },
        { Cookie: cookie },
      );
      expect(again.status).toBe(303);
      expect(again.headers.get('location')).toBe(
        `/staff?done=write-again&at=enquiry-${ref}#enquiry-${ref}`,
      );
      expect(desk + (await (await fetch(`${server.url}/healthz`)).text())).not.toContain(PASSWORD);
    } finally {
      await radicale.start();
    }
    expect(server.output()).toContain('asked to write the call into its host calendar again');
    expect(server.output()).toContain(
      'CALENDAR_WRITE entry 3 (host "carl"): must be an https address (http: is not); it is left out.',
    );
    expect(server.output()).not.toMatch(/pw-Carl-9|calendar\.example/);
    expect(server.output()).not.toContain(PASSWORD);
    expect(server.output()).not.toContain('Zelda');
  });
});
