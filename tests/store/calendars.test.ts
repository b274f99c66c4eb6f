/**
 * The hosts' calendars kept current, against both stores, with a clock the tests control and
 * feeds that answer as the test says: a host whose calendar was never read, or not for too long,
 * is offered nothing; a copy outlives an outage and a restart; with two processes one reads a feed
 * and both use it; the log names the host and never the feed's address.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CalendarService, type CalendarServiceOptions } from '../../src/server/calendars/service';
import { busyTimes, parseCalendar } from '../../src/server/calendars/busy-times';
import { FeedError, type FeedRead } from '../../src/server/calendars/fetch-feed';
import { FeedReaders, type ReadLimits } from '../../src/server/calendars/workers';
import { readCalendarFeeds, readConfig } from '../../src/server/config';
import type { Availability } from '../../src/domain/booking';
import type { EnquiryStore } from '../../src/server/store/types';
import { busyCalendar, everySecondSince2020 } from '../../scripts/calendar-feeds.mjs';
import { feedOf, googleFeed } from '../support/calendar-feeds';
import { backends, type Backend } from '../support/store-backends';

const SECRET =
  'https://calendar.google.com/calendar/ical/anna%40agency.example/private-5ecret/basic.ics';
const availability = {
  timeZone: 'Europe/London',
  daysAhead: 21,
  hosts: [{ id: 'anna' }, { id: 'ben' }],
} as unknown as Availability;
const minute = 60_000;
const start = Date.parse('2026-11-30T00:00:00Z');

describe.each(Object.keys(backends) as (keyof typeof backends)[])('calendars on %s', (kind) => {
  let backend: Backend;
  let store: EnquiryStore;
  beforeEach(async () => {
    backend = await backends[kind]();
    store = backend.store;
  });
  afterEach(() => backend.cleanup());

  /** A calendar service of one "process": its clock, its feed's answers, its log. */
  const process = (
    answers: (() => Promise<FeedRead>)[],
    clock: { now: number },
    env: Record<string, string> = {},
    options: Pick<CalendarServiceOptions, 'firstReadWaitMs' | 'readyWaitMs'> = {},
  ) => {
    const logged: string[] = [];
    const asked: { etag?: string | undefined }[] = [];
    const config = {
      ...readConfig({ CALENDAR_FEEDS: `anna=${SECRET}`, ...env }).calendars,
    };
    const service = new CalendarService({
      config,
      copies: store.calendarCopies,
      timeZones: new Map([['anna', 'Europe/London']]),
      now: () => clock.now,
      fetch: async (_url, options) => {
        asked.push({ etag: options.etag });
        const answer = answers.shift();
        if (!answer) throw new Error('no answer left');
        return answer();
      },
      log: (line) => logged.push(line),
      // These tests say what the pages are given, not how long they wait for it: a worker working
      // out busy times took over READY_WAIT_MS (3 s) on a loaded, slower machine.
      readyWaitMs: 60_000,
      ...options,
    });
    return { service, logged, asked };
  };
  const ok =
    (body: string, etag = '"v1"') =>
    async (): Promise<FeedRead> => ({
      status: 'modified',
      body,
      etag,
      lastModified: undefined,
    });
  const down = (message: string) => async (): Promise<FeedRead> => {
    throw new FeedError(message);
  };
  const notModified = async (): Promise<FeedRead> => ({ status: 'not-modified' });

  it('offers nothing of a host whose calendar was never read, and its busy times once it is', async () => {
    const clock = { now: start };
    const { service, logged } = process([down('no answer within 10 s'), ok(googleFeed)], clock);
    await service.tick();
    expect(service.busy(availability).get('anna')).toBe('unknown');
    expect(service.busy(availability).has('ben')).toBe(false);
    expect(service.health()).toEqual([
      { host: 'anna', fresh: false, minutesSinceRead: null, error: 'no answer within 10 s' },
    ]);
    expect(logged).toEqual([
      'The calendar of host "anna" (https://calendar.google.com/…) could not be read: no answer within 10 s.',
    ]);
    // Not due again until CALENDAR_REFRESH_MINUTES have passed.
    clock.now += 4 * minute;
    await service.tick();
    expect(service.busy(availability).get('anna')).toBe('unknown');
    clock.now += minute;
    await service.tick();
    const busy = service.busy(availability).get('anna') as readonly { start: number }[];
    expect(busy.map((b) => new Date(b.start).toISOString())).toContain('2026-11-30T10:00:00.000Z');
    expect(service.health()[0]).toMatchObject({ host: 'anna', fresh: true, error: null });
    expect(logged.at(-1)).toBe(
      'The calendar of host "anna" (https://calendar.google.com/…) is read again.',
    );
    expect(logged.join('\n')).not.toContain('5ecret');
  });

  const meetingFeed = feedOf('UID:a\nDTSTART:20261201T100000Z\nDTEND:20261201T110000Z');
  const theMeeting = [
    { start: Date.parse('2026-12-01T10:00:00Z'), end: Date.parse('2026-12-01T11:00:00Z') },
  ];
  /** A feed's answer that comes when the test says, and says when it was asked for. */
  const held = () => {
    let give!: () => void;
    let asked!: () => void;
    const given = new Promise<void>((resolve) => (give = resolve));
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    const answer = async () => {
      asked();
      await given;
      return ok(meetingFeed)();
    };
    return { answer, wasAsked, give };
  };

  it('reads a host’s calendar through CalDAV, its answer’s XML made a feed in the feeds’ workers', async () => {
    // A CalDAV server on loopback: a calendar-query's answer, the meeting's object in it.
    const answered: string[] = [];
    const server = createServer(async (req, res) => {
      for await (const chunk of req) answered.push(String(chunk));
      const data = meetingFeed.replaceAll('\r', '&#13;');
      res
        .writeHead(207, { 'Content-Type': 'application/xml' })
        .end(
          `<d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/anna/calls/a.ics</d:href><d:propstat><d:prop><c:calendar-data>${data}</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
        );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/anna/calls/`);
    const clock = { now: start };
    const service = new CalendarService({
      config: {
        ...readConfig({}).calendars,
        feeds: [{ host: 'anna', url, caldav: true }],
      },
      copies: store.calendarCopies,
      timeZones: new Map([['anna', 'Europe/London']]),
      now: () => clock.now,
      readyWaitMs: 60_000,
    });
    try {
      await service.tick();
      expect(answered.join('')).toContain('<c:time-range start="20261129T000000Z"');
      expect(service.busy(availability).get('anna')).toEqual(theMeeting);
      expect(service.health(clock.now)).toMatchObject([{ host: 'anna', fresh: true, error: null }]);
    } finally {
      await service.stop();
      server.close();
    }
  });

  it('a new process, no copy in its store: the booking pages wait for the first read and offer its host', async () => {
    const clock = { now: start };
    const feed = held();
    // What the pages are given once the read is done: its time limit is the next test's. Beside the
    // other phases on a slow machine, FIRST_READ_WAIT_MS (5 s) ran out between the start and the read.
    const { service } = process([feed.answer], clock, {}, { firstReadWaitMs: 60_000 });
    const started = service.start();
    let answered = false;
    const ready = service.ready(availability).then(() => (answered = true));
    await feed.wasAsked;
    expect(answered).toBe(false);
    feed.give();
    await ready;
    expect(service.busy(availability).get('anna')).toEqual(theMeeting);
    await started;
    await service.stop();
  });

  it('a new process whose feed never answers: the pages wait FIRST_READ_WAIT_MS at most, then offer its host nothing', async () => {
    const clock = { now: start };
    const never = () => new Promise<FeedRead>(() => {});
    // Long enough that a second wait (the next page's) stands apart from a loaded machine's delays.
    const { service } = process([never], clock, {}, { firstReadWaitMs: 2_000 });
    void service.start();
    const begun = performance.now();
    await service.ready(availability);
    expect(performance.now() - begun).toBeGreaterThanOrEqual(1_900);
    expect(performance.now() - begun).toBeLessThan(15_000);
    expect(service.busy(availability).get('anna')).toBe('unknown');
    // The next page does not wait again.
    const again = performance.now();
    await service.ready(availability);
    expect(performance.now() - again).toBeLessThan(1_000);
    await service.stop();
  });

  it('a process stopped as it starts reads no feed and touches the store no more, which may close', async () => {
    const clock = { now: start };
    const { service, asked } = process([ok(meetingFeed)], clock);
    const started = service.start();
    // Its copies are still loading: stopped before its first reads are due.
    await service.stop();
    await started;
    await service.tick();
    expect(asked).toEqual([]);
  });

  it('a restarted process with a fresh copy answers from it at once, however slow its feed', async () => {
    const clock = { now: start };
    await process([ok(meetingFeed)], clock).service.tick();
    clock.now += 10 * minute;
    // Were the pages to wait for this read (10 minutes at most), the test would run out of time.
    const slow = held();
    const { service } = process([slow.answer], clock, {}, { firstReadWaitMs: 600_000 });
    const started = service.start();
    await service.ready(availability);
    expect(service.busy(availability).get('anna')).toEqual(theMeeting);
    slow.give();
    await started;
    await service.stop();
  });

  it('reads a feed every CALENDAR_REFRESH_MINUTES, however long each read takes', async () => {
    const clock = { now: start };
    // Each answer takes 3 s of the clock to come.
    const slow = (answer: () => Promise<FeedRead>) => async () => {
      clock.now += 3_000;
      return answer();
    };
    const answers = [ok(googleFeed), notModified, down('it answered 503'), notModified].map(slow);
    const { service, asked } = process(answers, clock, { CALENDAR_REFRESH_MINUTES: '1' });
    // The process's ticks, a minute apart from the first.
    for (let tick = 0; tick < 4; tick++) {
      clock.now = start + tick * minute;
      await service.tick();
    }
    expect(asked).toHaveLength(4);
  });

  it('asks with the ETag it holds, keeps the copy through an outage, and withholds the host once it is too old', async () => {
    const clock = { now: start };
    const { service, asked } = process(
      [ok(googleFeed), notModified, down('it answered 503'), down('it answered 503')],
      clock,
    );
    await service.tick();
    clock.now += 5 * minute;
    await service.tick();
    expect(asked.map((a) => a.etag)).toEqual([undefined, '"v1"']);
    // Down from here: the copy serves until 60 minutes after the last good read.
    clock.now += 5 * minute;
    await service.tick();
    expect(service.busy(availability).get('anna')).not.toBe('unknown');
    clock.now += 56 * minute;
    await service.tick();
    expect(service.busy(availability).get('anna')).toBe('unknown');
    expect(service.health()[0]).toMatchObject({
      fresh: false,
      minutesSinceRead: 61,
      error: 'it answered 503',
    });
  });

  it('keeps a good copy when the feed answers with what is not a calendar', async () => {
    const clock = { now: start };
    const { service } = process([ok(googleFeed), ok('<html>Sign in</html>', '"v2"')], clock);
    await service.tick();
    clock.now += 5 * minute;
    await service.tick();
    expect(service.health()[0]!.error).toMatch(/BEGIN:VCALENDAR/);
    expect((service.busy(availability).get('anna') as unknown[]).length).toBeGreaterThan(0);
  });

  it("reads a host's all-day event over their own day, in their own zone", async () => {
    const clock = { now: start };
    const allDay = feedOf('UID:off\nDTSTART;VALUE=DATE:20261202\nDTEND;VALUE=DATE:20261203');
    const { service } = process([ok(allDay)], clock);
    await service.tick();
    const inNewYork = {
      ...availability,
      hosts: [{ id: 'anna', timeZone: 'America/New_York' }],
    } as unknown as Availability;
    // Read for London from the start: New York's times are worked out when a page asks for them.
    expect(service.busy(inNewYork).get('anna')).toBe('unknown');
    await service.ready(inNewYork);
    expect(service.busy(inNewYork).get('anna')).toEqual([
      { start: Date.parse('2026-12-02T05:00:00Z'), end: Date.parse('2026-12-03T05:00:00Z') },
    ]);
    await service.ready(availability);
    expect(service.busy(availability).get('anna')).toEqual([
      { start: Date.parse('2026-12-02T00:00:00Z'), end: Date.parse('2026-12-03T00:00:00Z') },
    ]);
  });

  it('offers nothing of a host whose address CALENDAR_FEEDS refused: their calendar is never read', async () => {
    const config = readConfig({ CALENDAR_FEEDS: `ben=ftp://calendar.example/secret` }).calendars;
    const service = new CalendarService({ config, copies: store.calendarCopies, log: () => {} });
    await service.tick();
    expect(service.busy(availability).get('ben')).toBe('unknown');
    expect(service.health()).toEqual([
      {
        host: 'ben',
        fresh: false,
        minutesSinceRead: null,
        error: 'its address in CALENDAR_FEEDS was refused',
      },
    ]);
  });

  it('with two processes, one reads the feed and both use its copy; a restart starts from it', async () => {
    const clock = { now: start };
    // One calendar server answering both: whichever process claims the read first asks it.
    const answers = [ok(feedOf('UID:a\nDTSTART:20261201T100000Z\nDTEND:20261201T110000Z'))];
    const first = process(answers, clock);
    const second = process(answers, clock);
    await Promise.all([first.service.tick(), second.service.tick()]);
    // Whichever read it, the other may have looked at the store before the copy was in: its next
    // tick takes it.
    await Promise.all([first.service.tick(), second.service.tick()]);
    expect(first.asked.length + second.asked.length).toBe(1);
    for (const { service } of [first, second])
      expect(service.busy(availability).get('anna')).toEqual([
        { start: Date.parse('2026-12-01T10:00:00Z'), end: Date.parse('2026-12-01T11:00:00Z') },
      ]);
    // A restart, its feed down: the copy in the store still holds the meeting.
    const restarted = process([down('it could not be reached (ECONNREFUSED)')], clock);
    clock.now += 10 * minute;
    await restarted.service.tick();
    expect(restarted.service.busy(availability).get('anna')).toHaveLength(1);
  });
});

describe('feeds read in worker threads', () => {
  // One backend: what is tested here is the service's, not the store's.
  let backend: Backend;
  beforeEach(async () => {
    backend = await Object.values(backends)[0]!();
  });
  afterEach(() => backend.cleanup());

  const anna = 'https://calendar.example/anna-5ecret.ics';
  const ben = 'https://calendar.example/ben-5ecret.ics';
  /** A service over Anna's and Ben's feeds, which answer what `texts` holds for each, or 304. */
  const twoHosts = (
    texts: Map<string, string | Error>,
    clock: { now: number },
    limits: Partial<ReadLimits> = {},
    /** Reads in place of the workers' (the main thread's own, for comparison). */
    reader?: FeedReaders['read'],
  ) => {
    const logged: string[] = [];
    const reads: string[] = [];
    const workers = new FeedReaders({
      limits: { timeMs: 10_000, memoryMb: 256, maxSteps: undefined, ...limits },
      // One worker: a feed that runs out its time holds the other's read back, and must not fail it.
      size: 1,
    });
    const read: FeedReaders['read'] = (text, windows) => {
      reads.push(windows.map((w) => `${w.timeZone} ${new Date(w.from).toISOString()}`).join());
      return (reader ?? workers.read.bind(workers))(text, windows);
    };
    const service = new CalendarService({
      config: readConfig({ CALENDAR_FEEDS: `anna=${anna} ben=${ben}` }).calendars,
      copies: backend.store.calendarCopies,
      timeZones: new Map([
        ['anna', 'Europe/London'],
        ['ben', 'Europe/London'],
      ]),
      now: () => clock.now,
      // A calendar server: 304 to the ETag of the text it holds (the store keeps a good read's).
      fetch: async (url, options) => {
        const text = texts.get(url.href)!;
        if (text instanceof Error) throw new FeedError(text.message);
        const etag = `"${createHash('sha256').update(text).digest('hex')}"`;
        if (options.etag === etag) return { status: 'not-modified' };
        return { status: 'modified', body: text, etag, lastModified: undefined };
      },
      log: (line) => logged.push(line),
      readers: { read, join: (...args) => workers.join(...args), stop: () => workers.stop() },
      readyWaitMs: 60_000,
    });
    return { service, logged, reads };
  };
  const meeting = (day: number) =>
    `UID:m${day}\nDTSTART:202612${String(day).padStart(2, '0')}T100000Z\nDTEND:202612${String(day).padStart(2, '0')}T110000Z`;
  const starts = (busy: ReturnType<CalendarService['busy']>, host: string) =>
    (busy.get(host) as readonly { start: number }[]).map(({ start }) =>
      new Date(start).toISOString(),
    );

  it('reads each new text once, and again only for a new day or another zone', async () => {
    const clock = { now: start };
    const texts = new Map([
      [anna, feedOf(meeting(1))],
      [ben, feedOf(meeting(2))],
    ]);
    const { service, reads } = twoHosts(texts, clock);
    // A booking page before the first read: the feeds are read for the days it offers.
    service.busy(availability);
    await service.tick();
    expect(reads).toHaveLength(2);
    for (let i = 0; i < 3; i++)
      expect(starts(service.busy(availability), 'anna')).toEqual(['2026-12-01T10:00:00.000Z']);
    // Unchanged (304s), ten minutes on: nothing is read again.
    clock.now += 10 * minute;
    await service.tick();
    await service.ready(availability);
    expect(reads).toHaveLength(2);
    // Anna's calendar changes: hers alone is read, once.
    texts.set(anna, feedOf(meeting(1), meeting(3)));
    clock.now += 5 * minute;
    await service.tick();
    service.busy(availability);
    expect(reads).toHaveLength(3);
    expect(starts(service.busy(availability), 'anna')).toEqual([
      '2026-12-01T10:00:00.000Z',
      '2026-12-03T10:00:00.000Z',
    ]);
    // The next day: each feed is read for the window from it, once.
    clock.now += 24 * 60 * minute;
    await service.tick();
    await service.tick();
    expect(reads.slice(3)).toEqual([
      'Europe/London 2026-11-30T00:00:00.000Z',
      'Europe/London 2026-11-30T00:00:00.000Z',
    ]);
    // A page that asks for Ben in another zone: his feed is read for it, once.
    const benInTokyo = {
      ...availability,
      hosts: [{ id: 'anna' }, { id: 'ben', timeZone: 'Asia/Tokyo' }],
    } as unknown as Availability;
    await service.ready(benInTokyo);
    service.busy(benInTokyo);
    await service.ready(benInTokyo);
    expect(reads.slice(5)).toEqual(['Asia/Tokyo 2026-11-30T00:00:00.000Z']);
    await service.stop();
  });

  it('leaves the main thread free while a feed of 5,000 events and a hostile one are read', async () => {
    const texts = new Map<string, string | Error>([
      [anna, busyCalendar({ events: 5_000 })],
      [ben, everySecondSince2020],
    ]);
    /** The share of a read's time this thread's event loop was busy: whatever else the machine does. */
    const busyShare = async (reader?: FeedReaders['read']) => {
      const clock = { now: start };
      const { service } = twoHosts(texts, clock, {}, reader);
      const before = performance.eventLoopUtilization();
      await service.tick();
      const share = performance.eventLoopUtilization(before).utilization;
      expect(service.health(clock.now).map(({ fresh }) => fresh)).toEqual([true, true]);
      await service.stop();
      return share;
    };
    // The same reads on this thread, as before the workers: the measure sees the thread held.
    const onThisThread: FeedReaders['read'] = async (text, windows) => {
      const calendar = parseCalendar(text);
      return { ok: true, windows: windows.map((window) => busyTimes(calendar, window)) };
    };
    expect(await busyShare(onThisThread)).toBeGreaterThan(0.7);
    expect(await busyShare()).toBeLessThan(0.35);
  });

  // Each limit with the others out of its way: a worker that fills its heap on a loaded machine
  // takes seconds, which must not count as running out of time.
  const hostile = [
    {
      limit: 'time',
      // A rule ical.js never finds an occurrence of, stepping second by second: it never ends.
      text: feedOf(
        'UID:never\nDTSTART:20260301T000000Z\nRRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30',
      ),
      limits: { timeMs: 1500 },
      reason: 'reading it took longer than 1.5 s',
    },
    {
      limit: 'memory',
      // 8,000 events of ten lines (1.7 MB), some 28 times that once parsed: past a heap of 32 MB.
      text: feedOf(
        ...Array.from(
          { length: 8_000 },
          (_, i) =>
            `UID:e${i}\nDTSTART:20250101T100000Z\nDTEND:20250101T110000Z\nSUMMARY:s${i}\nLOCATION:l\n` +
            'STATUS:CONFIRMED\nTRANSP:OPAQUE\nSEQUENCE:0\nCREATED:20250101T100000Z\nDTSTAMP:20250101T100000Z',
        ),
      ),
      limits: { memoryMb: 32 },
      reason: 'reading it needed more than 32 MB',
    },
    {
      limit: 'steps',
      // Every second since 2020, from near the window: 28,800 steps before it, past 10,000.
      text: feedOf(
        'UID:every-second\nDTSTART:20200101T000000Z\nDURATION:PT1S\nRRULE:FREQ=SECONDLY',
      ),
      limits: { maxSteps: 10_000 },
      reason: 'more than 10000 occurrences to expand',
    },
  ];

  it.each(hostile)(
    'keeps the last good copy of a feed past its $limit limit, names its host, and reads the other host’s feed all the same',
    async ({ text, limits, reason }) => {
      const clock = { now: start };
      const texts = new Map<string, string | Error>([
        [anna, feedOf(meeting(1))],
        [ben, feedOf(meeting(2))],
      ]);
      const { service, logged } = twoHosts(texts, clock, limits);
      await service.tick();
      texts.set(anna, text);
      texts.set(ben, feedOf(meeting(2), meeting(4)));
      clock.now += 5 * minute;
      await service.tick();
      expect(service.health()).toEqual([
        expect.objectContaining({ host: 'anna', fresh: true, error: reason }),
        expect.objectContaining({ host: 'ben', fresh: true, error: null }),
      ]);
      expect(logged).toEqual([
        `The calendar of host "anna" (https://calendar.example/…) could not be read: ${reason}.`,
      ]);
      // Anna's last good copy holds; Ben's new one is read.
      expect(starts(service.busy(availability), 'anna')).toEqual(['2026-12-01T10:00:00.000Z']);
      expect(starts(service.busy(availability), 'ben')).toHaveLength(2);
      // Past CALENDAR_MAX_STALE_MINUTES with no good read, Anna is offered nothing; Ben is.
      clock.now += 60 * minute;
      await service.tick();
      expect(service.busy(availability).get('anna')).toBe('unknown');
      expect(service.busy(availability).get('ben')).not.toBe('unknown');
      await service.stop();
    },
  );
});

describe('CALENDAR_FEEDS', () => {
  it('takes HOST_ID=URL pairs, several per host, https or loopback, and names what it refuses without the address', () => {
    const { feeds, problems } = readCalendarFeeds(
      [
        `anna=${SECRET}`,
        'ben=webcal://p12-caldav.icloud.com/published/2/secret-ben',
        'ben=http://127.0.0.1:4999/ben.ics',
        'carl=http://calendar.example/private-carl.ics',
        'Dora=https://x.example/a',
        'nourl',
        'eve=https://user:pw@x.example/e',
      ].join('\n  '),
    );
    expect(feeds.map((feed) => [feed.host, feed.url.protocol])).toEqual([
      ['anna', 'https:'],
      ['ben', 'https:'],
      ['ben', 'http:'],
    ]);
    expect(problems).toEqual([
      'CALENDAR_FEEDS entry 4 (host "carl"): must be an https address (http: is not)',
      'CALENDAR_FEEDS entry 5 (host "Dora"): must be HOST_ID=URL, with the host\'s id from availability.yaml',
      "CALENDAR_FEEDS entry 6: must be HOST_ID=URL, with the host's id from availability.yaml",
      'CALENDAR_FEEDS entry 7 (host "eve"): must not carry a user name or password',
    ]);
    expect(problems.join('\n')).not.toMatch(/private|secret|pw@/);
    expect(readCalendarFeeds('carl=http://calendar.example/x').refusedHosts).toEqual(['carl']);
  });
});
