/**
 * The calls written into the hosts' own calendars (CALENDAR_WRITE), on both stores, against an
 * in-memory CalDAV server and a clock the tests control: a booking created once, in the host's
 * zone; a move before the create has run leaves one event at the new time; a move after it
 * replaces it over its ETag; the host's own words kept when they edited it; confirm, cancel
 * (deleted or CANCELLED) and lapse; a server down retried, then given up (the desk says why);
 * two processes write once; nothing of the calendar's address in a log line or a reason.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bookings } from '../../src/server/booking/calls';
import { calendarWriteHandler } from '../../src/server/calendars/caldav-job';
import { readConfig } from '../../src/server/config';
import { jobHandler, JobQueue } from '../../src/server/jobs/queue';
import {
  descriptionOf,
  hostCalendarEvent,
  withDescription,
} from '../../src/server/mail/host-event';
import type { MailSetup } from '../../src/server/mail/mail-item';
import { CALENDAR_WRITE_JOB } from '../../src/server/store/calendar-writes';
import type { EnquiryStore } from '../../src/server/store/types';
import { fakeCalDav, propertiesOf } from '../support/caldav';
import { ahead, call, plus, wallTime } from '../support/records';
import { backends, type Backend } from '../support/store-backends';

const SECRET = 'https://anna:s3cret-pw@caldav.example/dav/anna/calls/';
const setup: MailSetup = {
  from: 'site@agency.example',
  to: 'hello@agency.example',
  content: {
    brand: 'Agency',
    email: 'hello@agency.example',
    hosts: [
      { id: 'anna', name: 'Anna', email: 'anna@agency.example', timeZone: 'Europe/Berlin' },
      { id: 'ben', name: 'Ben', email: 'ben@agency.example', timeZone: 'America/New_York' },
    ],
  },
};
const START = ahead('2027-01-05T09:30:00Z');
const HOUR = 3_600_000;

describe.each(Object.keys(backends) as (keyof typeof backends)[])(
  'calendar writes on %s',
  (kind) => {
    let backend: Backend;
    let store: EnquiryStore;
    beforeEach(async () => {
      backend = await backends[kind]();
      store = backend.store;
    });
    afterEach(() => backend.cleanup());

    /** A process: its bookings, its queue of calendar writes, the calendar server, the clock, its log. */
    const processOf = (
      over: EnquiryStore,
      calendar: ReturnType<typeof fakeCalDav>,
      clock: { now: number },
      env: Record<string, string> = {},
    ) => {
      const logged: string[] = [];
      const config = readConfig({
        CALENDAR_WRITE: `anna=${SECRET} ben=${SECRET.replaceAll('anna', 'ben')}`,
        ...env,
      }).calendarWrite;
      const handler = calendarWriteHandler({
        config,
        writes: over.calendarWrites,
        events: {
          eventOf: (enquiry) => hostCalendarEvent(enquiry, setup),
          descriptionOf,
          withDescription,
        },
        timeoutMs: 1000,
        caldav: calendar.send,
        now: () => clock.now,
      });
      const queue = new JobQueue({
        store: over,
        handlers: new Map([jobHandler(CALENDAR_WRITE_JOB, handler)]),
        kinds: { only: CALENDAR_WRITE_JOB },
        pollMs: 60_000,
        retryBaseMs: 1000,
        now: () => clock.now,
        log: (line) => logged.push(line),
        info: (line) => logged.push(line),
      });
      // The bookings on the test's clock too: on real time, a job queued more than the clock's lead
      // after the clock was set (a slow machine's second store opening) was not yet due.
      const bookings = new Bookings(over, { writeCalendars: true, now: () => clock.now });
      return { bookings, queue, logged };
    };

    const book = (bookings: Bookings, host = 'anna') =>
      bookings.commit(
        call(START, { call: { start: START, end: plus(START, 30), hosts: [host] } }),
        false,
      );
    const move = (bookings: Bookings, id: string, start: string, hosts = ['anna']) =>
      bookings.moveCall(id, { start, end: plus(start, 30), hosts, maxMoves: 5 }, false);

    it('writes a booking once, in the host zone, tentative, with no METHOD nor attendees', async () => {
      const calendar = fakeCalDav();
      const clock = { now: Date.now() + 1000 };
      const { bookings, queue } = processOf(store, calendar, clock);
      const booked = await book(bookings);
      await queue.drain();
      expect(calendar.writes()).toHaveLength(1);
      // The password leaves the configured address only as an Authorization header.
      expect(calendar.writes()[0]).toMatchObject({
        method: 'PUT',
        ifAbsent: true,
        authorization: `Basic ${Buffer.from('anna:s3cret-pw').toString('base64')}`,
      });
      expect(calendar.writes()[0]!.url.href).not.toContain('s3cret');
      const [[url, event]] = [...calendar.events];
      expect(url).toBe(`caldav.example/dav/anna/calls/${booked.id}.ics`);
      const props = propertiesOf(event!.body);
      expect(props.get('UID')).toBe(`${booked.id}@calls.agency.example`);
      expect(props.get('DTSTART')).toBe(wallTime(START, 'Europe/Berlin'));
      expect(event!.body).toContain(
        `DTSTART;TZID=Europe/Berlin:${wallTime(START, 'Europe/Berlin')}`,
      );
      expect(event!.body).toContain('TZID:Europe/Berlin');
      expect(props.get('STATUS')).toBe('TENTATIVE');
      expect(event!.body).not.toMatch(/METHOD|ATTENDEE|ORGANIZER/);
      expect((await store.calendarWrites.states([booked.id])).get(booked.id)).toMatchObject({
        state: 'written',
      });
    });

    it('leaves one event at the new time when moved before the create ran, and replaces it after', async () => {
      const calendar = fakeCalDav();
      const clock = { now: Date.now() + 1000 };
      const { bookings, queue } = processOf(store, calendar, clock);
      const booked = await book(bookings);
      await move(bookings, booked.id, plus(START, 60));
      await queue.drain();
      expect(calendar.writes()).toHaveLength(1);
      expect(propertiesOf([...calendar.events.values()][0]!.body).get('DTSTART')).toBe(
        wallTime(plus(START, 60), 'Europe/Berlin'),
      );
      await move(bookings, booked.id, plus(START, 120));
      clock.now = Date.now() + 2000;
      await queue.drain();
      expect(calendar.events.size).toBe(1);
      expect(calendar.writes()[1]).toMatchObject({ method: 'PUT', ifMatch: '"v1"' });
      const props = propertiesOf([...calendar.events.values()][0]!.body);
      expect(props.get('DTSTART')).toBe(wallTime(plus(START, 120), 'Europe/Berlin'));
      expect(props.get('SEQUENCE')).toBe('2');
    });

    it("keeps the host's own description through later moves, the booking deciding the time", async () => {
      const calendar = fakeCalDav();
      const clock = { now: Date.now() + 1000 };
      const { bookings, queue } = processOf(store, calendar, clock);
      const booked = await book(bookings);
      await queue.drain();
      const [url] = [...calendar.events.keys()];
      calendar.edit(url!, (body) =>
        body.includes('DESCRIPTION')
          ? body.replace(/DESCRIPTION:[^\r]*/, 'DESCRIPTION:Bring the budget figures')
          : body.replace('END:VEVENT', 'DESCRIPTION:Bring the budget figures\r\nEND:VEVENT'),
      );
      await move(bookings, booked.id, plus(START, 60));
      clock.now = Date.now() + 2000;
      await queue.drain();
      let props = propertiesOf(calendar.events.get(url!)!.body);
      expect(props.get('DESCRIPTION')).toBe('Bring the budget figures');
      expect(props.get('DTSTART')).toBe(wallTime(plus(START, 60), 'Europe/Berlin'));
      await move(bookings, booked.id, plus(START, 120));
      clock.now = Date.now() + 3000;
      await queue.drain();
      props = propertiesOf(calendar.events.get(url!)!.body);
      expect(props.get('DESCRIPTION')).toBe('Bring the budget figures');
      expect(props.get('DTSTART')).toBe(wallTime(plus(START, 120), 'Europe/Berlin'));
    });

    it('confirms, then deletes on cancel; or keeps it CANCELLED when the operator says so', async () => {
      for (const mode of ['delete', 'cancel'] as const) {
        const calendar = fakeCalDav();
        const clock = { now: Date.now() + 1000 };
        const { bookings, queue } = processOf(store, calendar, clock, {
          CALENDAR_WRITE_CANCEL: mode,
        });
        const booked = await bookings.commit(
          call(plus(START, mode === 'delete' ? 0 : 240), {
            call: {
              start: plus(START, mode === 'delete' ? 0 : 240),
              end: plus(START, 30 + (mode === 'delete' ? 0 : 240)),
              hosts: ['anna'],
            },
          }),
          false,
        );
        await bookings.confirmCall(booked.id);
        await queue.drain();
        expect(propertiesOf([...calendar.events.values()][0]!.body).get('STATUS')).toBe(
          'CONFIRMED',
        );
        await bookings.cancelCall(booked.id, { queueMail: false });
        clock.now = Date.now() + 2000;
        await queue.drain();
        if (mode === 'delete') expect(calendar.events.size).toBe(0);
        else
          expect(propertiesOf([...calendar.events.values()][0]!.body).get('STATUS')).toBe(
            'CANCELLED',
          );
      }
    });

    it('moves the event to the new host calendar when another host takes the call', async () => {
      const calendar = fakeCalDav();
      const clock = { now: Date.now() + 1000 };
      const { bookings, queue } = processOf(store, calendar, clock);
      const booked = await book(bookings);
      await queue.drain();
      await move(bookings, booked.id, plus(START, 60), ['ben']);
      clock.now = Date.now() + 2000;
      await queue.drain();
      expect([...calendar.events.keys()]).toEqual([
        `caldav.example/dav/ben/calls/${booked.id}.ics`,
      ]);
      expect([...calendar.events.values()][0]!.body).toContain(
        `TZID=America/New_York:${wallTime(plus(START, 60), 'America/New_York')}`,
      );
    });

    it('retries while the server is down, writes once when it is back, and gives up past its time', async () => {
      const calendar = fakeCalDav();
      const clock = { now: Date.now() + 1000 };
      const { bookings, queue, logged } = processOf(store, calendar, clock);
      const booked = await book(bookings);
      calendar.setDown(true);
      await queue.drain();
      expect((await store.calendarWrites.states([booked.id])).get(booked.id)).toMatchObject({
        state: 'waiting',
        error: 'the calendar: it could not be reached (ECONNREFUSED)',
      });
      calendar.setDown(false);
      clock.now += HOUR;
      await queue.drain();
      expect(calendar.events.size).toBe(1);
      expect(calendar.writes().filter((r) => r.method === 'PUT')).toHaveLength(2);

      const bookedAt = clock.now;
      const other = await bookings.commit(
        call(plus(START, 300), {
          call: { start: plus(START, 300), end: plus(START, 330), hosts: ['anna'] },
        }),
        false,
      );
      calendar.setDown(true);
      for (const hours of [1, 5, 12, 25]) {
        clock.now = bookedAt + hours * HOUR;
        await queue.drain();
      }
      const state = (await store.calendarWrites.states([other.id])).get(other.id);
      expect(state).toMatchObject({
        state: 'failed',
        error: 'the calendar: it could not be reached (ECONNREFUSED)',
      });
      expect(logged.some((line) => /given up/.test(line))).toBe(true);
      expect(logged.join('\n')).not.toMatch(/s3cret|caldav\.example/);

      // Write again: the desk queues it anew.
      calendar.setDown(false);
      await bookings.writeAgain(other.id, clock.now);
      await queue.drain();
      expect((await store.calendarWrites.states([other.id])).get(other.id)).toMatchObject({
        state: 'written',
      });
    });

    it('writes nothing for a host with no calendar, and the desk says nothing of it', async () => {
      const calendar = fakeCalDav();
      const clock = { now: Date.now() + 1000 };
      const { bookings, queue } = processOf(store, calendar, clock, {
        CALENDAR_WRITE: `anna=${SECRET}`,
      });
      const booked = await book(bookings, 'ben');
      await queue.drain();
      expect(calendar.requests).toHaveLength(0);
      expect((await store.calendarWrites.states([booked.id])).has(booked.id)).toBe(false);
    });

    it('writes once with two processes on one store', async () => {
      const calendar = fakeCalDav();
      const clock = { now: Date.now() + 1000 };
      const first = processOf(store, calendar, clock);
      const second = processOf(await backend.open(), calendar, clock);
      await book(first.bookings);
      await Promise.all([first.queue.drain(), second.queue.drain()]);
      expect(calendar.writes()).toHaveLength(1);
    });
  },
);

describe('CALENDAR_FEEDS with HOST=caldav', () => {
  it('reads a host through their CALENDAR_WRITE calendar, and refuses one who has none, naming no address', () => {
    const { feeds, problems, refusedHosts } = readConfig({
      CALENDAR_WRITE: `anna=${SECRET}`,
      CALENDAR_FEEDS: 'anna=caldav ben=caldav',
    }).calendars;
    expect(feeds).toEqual([{ host: 'anna', url: new URL(SECRET), caldav: true }]);
    expect(problems).toEqual([
      'CALENDAR_FEEDS entry 2 (host "ben"): caldav, but CALENDAR_WRITE gives no calendar of this host',
    ]);
    expect(refusedHosts).toEqual(['ben']);
  });
});
