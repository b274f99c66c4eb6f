/**
 * The hosts' calendars kept current, against both stores, with a clock the tests control and
 * feeds that answer as the test says: a host whose calendar was never read, or not for too long,
 * is offered nothing; a copy outlives an outage and a restart; with two processes one reads a feed
 * and both use it; the log names the host and never the feed's address.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CalendarService } from '../../src/server/calendars/service';
import { FeedError, type FeedRead } from '../../src/server/calendars/fetch-feed';
import { readCalendarFeeds, readConfig } from '../../src/server/config';
import type { Availability } from '../../src/domain/booking';
import type { EnquiryStore } from '../../src/server/store/types';
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
  const process = (answers: (() => Promise<FeedRead>)[], clock: { now: number }) => {
    const logged: string[] = [];
    const asked: { etag?: string | undefined }[] = [];
    const config = {
      ...readConfig({ CALENDAR_FEEDS: `anna=${SECRET}` }).calendars,
    };
    const service = new CalendarService({
      config,
      copies: store.calendarCopies,
      now: () => clock.now,
      fetch: async (_url, options) => {
        asked.push({ etag: options.etag });
        const answer = answers.shift();
        if (!answer) throw new Error('no answer left');
        return answer();
      },
      log: (line) => logged.push(line),
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
    expect(service.busy(inNewYork).get('anna')).toEqual([
      { start: Date.parse('2026-12-02T05:00:00Z'), end: Date.parse('2026-12-03T05:00:00Z') },
    ]);
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
